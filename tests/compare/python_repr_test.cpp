#include "compare/python_repr.h"

#include <doctest/doctest.h>

#include "test_util.h"

using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("python_str_repr picks the quote as Python does") {
    CHECK(python_str_repr("abc") == "'abc'");
    CHECK(python_str_repr("") == "''");
    CHECK(python_str_repr("it's") == "\"it's\"");
    CHECK(python_str_repr("say \"hi\"") == "'say \"hi\"'");
    CHECK(python_str_repr("both ' and \"") == "'both \\' and \"'");
  }
  TEST_CASE("python_str_repr escapes backslash, controls and non-printables") {
    CHECK(python_str_repr("back\\slash") == "'back\\\\slash'");
    CHECK(python_str_repr("a\nb\r\tc") == "'a\\nb\\r\\tc'");
    CHECK(python_str_repr(std::string("\x00\x1f\x7f", 3)) == "'\\x00\\x1f\\x7f'");
    CHECK(python_str_repr("\u00e9\u4e2d\u6587") == "'\u00e9\u4e2d\u6587'");         // printable: kept
    CHECK(python_str_repr("\U0001F600") == "'\U0001F600'");
    CHECK(python_str_repr("\u00a0\u00ad\u200b\u2028\ufeff") == "'\\xa0\\xad\\u200b\\u2028\\ufeff'");
    CHECK(python_str_repr("\u0085") == "'\\x85'");
    CHECK(python_str_repr("\ue000") == "'\\ue000'");                                 // private use
    CHECK(python_str_repr("\U000F0000") == "'\\U000f0000'");
    CHECK(python_str_repr("\ufdd0\uffff") == "'\\ufdd0\\uffff'");                    // noncharacters
  }
  TEST_CASE("python_str_repr shows invalid UTF-8 bytes as surrogateescape does") {
    CHECK(python_str_repr("\x80" "abc") == "'\\udc80abc'");
    CHECK(python_str_repr("\xed\xa0\x80") == "'\\udced\\udca0\\udc80'");  // an encoded surrogate
  }
  TEST_CASE("python_list_repr") {
    CHECK(python_list_repr({}) == "[]");
    CHECK(python_list_repr({"a", "b"}) == "['a', 'b']");
    CHECK(python_list_repr({"it's", "-1"}) == "[\"it's\", '-1']");
  }
  TEST_CASE("python_json_str_list is json.dumps with ensure_ascii") {
    CHECK(python_json_str_list({}) == "[]");
    CHECK(python_json_str_list({"error: x", "warning: y"}) == "[\"error: x\", \"warning: y\"]");
    CHECK(python_json_str_list({"\u00e9\U0001F600\x7f\x01\"\\\n\b\f\r\t"}) ==
          "[\"\\u00e9\\ud83d\\ude00\\u007f\\u0001\\\"\\\\\\n\\b\\f\\r\\t\"]");
    CHECK(python_json_str_list({"\x80"}) == "[\"\\udc80\"]");
    // runs of bytes shown as they are, between escapes
    CHECK(python_json_str_list({"say \"hi\" \\ now\u00e9 end", "~ \x7f ~"}) ==
          "[\"say \\\"hi\\\" \\\\ now\\u00e9 end\", \"~ \\u007f ~\"]");
    // each escape after and before runs of every length up to 40 (runs are found 16 bytes at a time)
    const std::vector<std::pair<std::string, std::string>> escapes = {
        {"\"", "\\\""}, {"\\", "\\\\"}, {"\n", "\\n"}, {"\x7f", "\\u007f"}, {"\x01", "\\u0001"}, {"\u00e9", "\\u00e9"}};
    for (std::size_t before = 0; before <= 40; ++before)
      for (std::size_t after : {std::size_t{0}, std::size_t{1}, std::size_t{17}})
        for (const auto& [raw, shown] : escapes) {
          const std::string text = std::string(before, 'a') + raw + std::string(after, 'b');
          CHECK(python_json_str_list({text}) == "[\"" + std::string(before, 'a') + shown + std::string(after, 'b') + "\"]");
        }
  }
  TEST_CASE("the NPU_Stack_Info cell is the list repr of the stack frames") {
    // A frame as msprobe's stack.json holds it (a real newline) and the cell of the sample
    // compare_result CSV (the newline as backslash-n).
    const std::vector<std::string> frames = {
        "File /usr/lib/python3/dist-packages/torch/nn/modules/conv.py, line 459, in _conv_forward, \n return "
        "F.conv2d(input, weight, bias, self.stride,",
        "File /srv/oracle/make_compare_oracle.py, line 808, in <module>, \n main()"};
    CHECK(python_list_repr(frames) ==
          "['File /usr/lib/python3/dist-packages/torch/nn/modules/conv.py, line 459, in _conv_forward, \\n return "
          "F.conv2d(input, weight, bias, self.stride,', 'File /srv/oracle/make_compare_oracle.py, line 808, in "
          "<module>, \\n main()']");
  }
}
