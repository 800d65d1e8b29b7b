#include "schema/schema_regex.h"

#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

using msdump::schema::SchemaRegex;

namespace {

bool search(std::string_view pattern, std::string_view text) {
  auto re = SchemaRegex::compile(pattern);
  REQUIRE_MESSAGE(re, (re ? std::string() : re.error().message));
  return re->search(text);
}

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("schema regex: search semantics, anchors, classes, groups, counted repetition") {
    CHECK(search("b", "abc"));
    CHECK_FALSE(search("^b", "abc"));
    CHECK(search("c$", "abc"));
    CHECK_FALSE(search("b$", "abc"));
    CHECK(search("^$", ""));
    CHECK(search("", "anything"));
    CHECK(search("^[0-9a-f]{8}$", "e2ca942d"));
    CHECK_FALSE(search("^[0-9a-f]{8}$", "e2ca942"));
    CHECK_FALSE(search("^[0-9a-f]{8}$", "E2CA942D"));
    CHECK(search("^([0-9a-f]{8}|0x[0-9a-f]{16})$", "0x0000010101000000"));
    CHECK_FALSE(search("^([0-9a-f]{8}|0x[0-9a-f]{16})$", "0x00000101010000"));
    CHECK(search(R"(^.+\.(pt|npy)$)", "Functional.linear.0.forward.input.0.pt"));
    CHECK_FALSE(search(R"(^.+\.(pt|npy)$)", ".pt"));
    CHECK_FALSE(search(R"(^.+\.(pt|npy)$)", "x.ptx"));
    CHECK(search(R"(^.+\.[^.]+\.[0-9]+\.forward$)", "torch.nn.functional.relu.0.forward"));
    CHECK_FALSE(search(R"(^.+\.[^.]+\.[0-9]+\.forward$)", "Functional.relu.forward"));
    CHECK(search(R"((^/|(^|/)\.\.(/|$)))", "/etc/hostname"));
    CHECK(search(R"((^/|(^|/)\.\.(/|$)))", "a/../b"));
    CHECK(search(R"((^/|(^|/)\.\.(/|$)))", ".."));
    CHECK_FALSE(search(R"((^/|(^|/)\.\.(/|$)))", "a/..b/c..d"));
    CHECK(search(R"(^\d+\s\w+$)", "12 ab_C"));
    CHECK(search("^a{2,3}$", "aaa"));
    CHECK_FALSE(search("^a{2,3}$", "aaaa"));
    CHECK(search("^a{2,}$", "aaaaa"));
    CHECK(search("^(?:ab)*?c$", "ababc"));
    CHECK(search("^[^.]+$", "\xe4\xb8\xad\xe6\x96\x87"));  // UTF-8 bytes, repeated atom
    CHECK(search("^[-a]+$", "-a-"));
    CHECK(search("^x.y$", "x-y"));
    CHECK_FALSE(search("^x.y$", "x\ny"));
    CHECK(search("^a{x$", "a{x"));  // '{' not starting a quantifier is a literal
  }

  TEST_CASE("schema regex agrees with std::regex (ECMAScript) on every pattern of the schemas") {
    const std::vector<std::string> patterns = {
        R"(^.+\.[^.]+\.[0-9]+\.forward$)",
        R"(^(.+\.[^.]+\.[0-9]+\.forward|.+\.[^.]+\.[0-9]+\.backward|Module\..+\.[^.]+\.forward\.[0-9]+|Module\..+\.[^.]+\.backward\.[0-9]+|Module\..+\.[^.]+\.parameters_grad\.[0-9]+)$)",
        R"(^(Module|Cell)\..+\.[^.]+\.parameters_grad\.[0-9]+$)",
        "^([0-9a-f]{8}|0x[0-9a-f]{16})$",
        R"(^.+\.(pt|npy)$)",
        "^(0|[1-9][0-9]*)$",
        R"(^torch(_npu)?\.)",
        R"((^/|(^|/)\.\.(/|$)))",
    };
    const std::vector<std::string> texts = {
        "", "0", "01", "10", "Functional.relu.0.forward", "Functional.relu.0.backward", "Functional.relu.forward",
        "Module.conv1.Conv2d.forward.0", "Module.layer1.0.conv1.Conv2d.backward.12", "Cell.a.B.parameters_grad.3",
        "Module.fc.Linear.parameters_grad.0", "Module..forward.0", "e2ca942d", "0x0123456789abcdef", "0x0123",
        "x.pt", "x.npy", ".npy", "a.b.pt.c", "torch.float32", "torch_npu.HiFloat8Tensor", "torchx", "/abs",
        "../up", "a/../b", "a/b..", "..a", "Tensor.__add__.0.forward", "torch.nn.functional.relu.0.forward",
    };
    for (const std::string& p : patterns) {
      const std::regex reference(p);
      auto re = SchemaRegex::compile(p);
      REQUIRE(re);
      for (const std::string& t : texts) {
        CAPTURE(p);
        CAPTURE(t);
        CHECK(re->search(t) == std::regex_search(t, reference));
      }
    }
  }

  TEST_CASE("schema regex refuses syntax it does not implement") {
    auto error = [](std::string_view p) {
      auto re = SchemaRegex::compile(p);
      return re ? std::string("OK") : re.error().message;
    };
    CHECK(error("a(?=b)") == "pattern 'a(?=b)': lookaround and named groups are not supported (offset 2)");
    CHECK(error("(ab") == "pattern '(ab': missing ')' (offset 3)");
    CHECK(error("ab)") == "pattern 'ab)': unbalanced ')' (offset 2)");
    CHECK(error("\\bx") == "pattern '\\bx': escape '\\b' is not supported (offset 1)");
    CHECK(error("*a") == "pattern '*a': nothing to repeat (offset 0)");
    CHECK(error("[a-") == "pattern '[a-': missing ']' (offset 3)");
  }
}
