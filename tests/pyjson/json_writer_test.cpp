#include "pyjson/json_writer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>
#include <limits>

using namespace msdump;
using namespace msdump::pyjson;

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("writer matches json.dumps(indent=1): nesting, empty containers, scalars") {
    // Expected bytes from Python 3.11:
    // json.dumps({"a": [1, 2.0, {}, [], None, True, False], "b": {"c": "x"}, "": [[]]}, indent=1)
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    w.key("a");
    w.begin_array();
    w.value(1);
    w.value(2.0);
    w.begin_object();
    w.end_object();
    w.begin_array();
    w.end_array();
    w.null();
    w.value(true);
    w.value(false);
    w.end_array();
    w.key("b");
    w.begin_object();
    w.key("c");
    w.value("x");
    w.end_object();
    w.key("");
    w.begin_array();
    w.begin_array();
    w.end_array();
    w.end_array();
    w.end_object();
    CHECK(w.complete());
    REQUIRE(w.finish());
    CHECK(out ==
          "{\n \"a\": [\n  1,\n  2.0,\n  {},\n  [],\n  null,\n  true,\n  false\n ],\n \"b\": {\n  \"c\": \"x\"\n "
          "},\n \"\": [\n  []\n ]\n}");
  }

  TEST_CASE("writer escapes like ensure_ascii=True") {
    // json.dumps("\x00\x01\x1f \x7f\x80é€😀\"\\/\n\r\t\b\f~")
    auto s = to_python_json(Value::string(std::string("\x00\x01\x1f \x7f\xc2\x80\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"\\/\n\r\t\b\f~", 25)));
    REQUIRE(s);
    CHECK(*s == R"("\u0000\u0001\u001f \u007f\u0080\u00e9\u20ac\ud83d\ude00\"\\/\n\r\t\b\f~")");
    Value obj = Value::object();
    obj.add("\xc3\xa9key", Value::integer(1));
    auto k = to_python_json(obj);
    REQUIRE(k);
    CHECK(*k == "{\n \"\\u00e9key\": 1\n}");
  }

  TEST_CASE("writer prints non-finite floats bare and integers of any size") {
    // json.dumps([nan, inf, -inf, 2**70, -2**70, 2**64-1, -2**63, 1e-05, -0.0], indent=1)
    std::string out;
    JsonWriter w(out);
    w.begin_array();
    w.value(std::numeric_limits<double>::quiet_NaN());
    w.value(std::numeric_limits<double>::infinity());
    w.value(-std::numeric_limits<double>::infinity());
    w.raw_integer("1180591620717411303424");
    w.write(Value::big_integer("-1180591620717411303424"));
    w.value(Scalar::unsigned_integer(18446744073709551615ull));
    w.value(std::numeric_limits<std::int64_t>::min());
    w.value(Scalar::floating(1e-05));
    w.write(Value::floating(-0.0));
    w.end_array();
    REQUIRE(w.finish());
    CHECK(out ==
          "[\n NaN,\n Infinity,\n -Infinity,\n 1180591620717411303424,\n -1180591620717411303424,\n "
          "18446744073709551615,\n -9223372036854775808,\n 1e-05,\n -0.0\n]");
  }

  TEST_CASE("writer accepts every integer type and C strings") {
    std::string out;
    JsonWriter w(out);
    w.begin_array();
    w.value(static_cast<unsigned char>(200));
    w.value(-5L);
    w.value(7u);
    w.value(static_cast<short>(-3));
    w.value("text");
    w.value(std::string("s"));
    w.end_array();
    REQUIRE(w.finish());
    CHECK(out == "[\n 200,\n -5,\n 7,\n -3,\n \"text\",\n \"s\"\n]");
  }

  TEST_CASE("writer hands big chunks to a sink, at value boundaries") {
    std::string collected;
    int calls = 0;
    JsonWriter w(
        [&](std::string_view b) {
          collected += b;
          ++calls;
        },
        64);
    w.begin_array();
    for (int i = 0; i < 100; ++i) w.value("0123456789");
    w.end_array();
    CHECK(calls > 5);
    REQUIRE(w.finish());
    std::string direct;
    JsonWriter d(direct);
    d.begin_array();
    for (int i = 0; i < 100; ++i) d.value("0123456789");
    d.end_array();
    REQUIRE(d.finish());
    CHECK(collected == direct);
  }

  TEST_CASE("writer reports invalid UTF-8 and incomplete documents from finish") {
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    w.key("k");
    w.value(std::string_view("ab\xff"));
    w.end_object();
    auto r = w.finish();
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "string is not valid UTF-8: byte 0xff at offset 2 of \"ab\\xff\"");

    std::string out2;
    JsonWriter w2(out2);
    w2.begin_array();
    w2.begin_object();
    auto r2 = w2.finish();
    REQUIRE_FALSE(r2);
    CHECK(r2.error().message == "JSON document is incomplete: 2 containers are still open");

    std::string out3;
    JsonWriter w3(out3);
    auto r3 = w3.finish();
    REQUIRE_FALSE(r3);
    CHECK(r3.error().message == "JSON document is incomplete: nothing was written");

    auto bad = to_python_json(Value::string("\xed\xa0\x80"));  // an encoded surrogate
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "string is not valid UTF-8: byte 0xed at offset 0 of \"\\xed\\xa0\\x80\"");
  }

  TEST_CASE("writer output does not depend on the chunk size, even for huge strings and deep nesting") {
    // Deep enough for both indentation paths (< 32, < 256, and beyond 256 levels).
    Value deep = Value::integer(1);
    std::string expected_deep = "1";
    for (int depth = 299; depth >= 0; --depth) {
      Value outer = Value::array();
      outer.push_back(std::move(deep));
      deep = std::move(outer);
      expected_deep = "[\n" + std::string(static_cast<std::size_t>(depth) + 1, ' ') + expected_deep + "\n" +
                      std::string(static_cast<std::size_t>(depth), ' ') + "]";
    }
    auto d = to_python_json(deep);
    REQUIRE(d);
    CHECK(*d == expected_deep);

    Value doc = Value::object();
    doc.add("deep", deep);
    doc.add("huge", Value::string(std::string(300000, 'a') + "\n\xc3\xa9" + std::string(1000, 'b')));
    doc.add("escapes", Value::string(std::string(5000, '\x01')));
    auto reference = to_python_json(doc);
    REQUIRE(reference);
    for (std::size_t chunk : {1, 64, 100, 4096}) {
      CAPTURE(chunk);
      std::string sunk;
      JsonWriter w([&](std::string_view b) { sunk += b; }, chunk);
      w.write(doc);
      REQUIRE(w.finish());
      CHECK(sunk == *reference);
      std::string appended;
      JsonWriter w2(appended, chunk);
      w2.write(doc);
      w2.flush();
      CHECK(appended == *reference);
    }
  }

  TEST_CASE("writer bytes reach the string on flush, and the string may be drained between calls") {
    std::string out;
    JsonWriter w(out);
    w.begin_array();
    w.value(1);
    w.flush();
    CHECK(out == "[\n 1");
    out.clear();
    w.value(2);
    w.end_array();
    REQUIRE(w.finish());
    CHECK(out == ",\n 2\n]");
  }

  TEST_CASE("writer escapes every ASCII byte at every position of strings of 0 to 40 bytes") {
    // The short-string path (4 to 16 bytes, word checks) and the general one must agree with
    // json.dumps(ensure_ascii=True) byte for byte.
    auto reference = [](std::string_view s) {
      std::string out = "\"";
      for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
          case '"': out += "\\\""; break;
          case '\\': out += "\\\\"; break;
          case '\n': out += "\\n"; break;
          case '\r': out += "\\r"; break;
          case '\t': out += "\\t"; break;
          case '\b': out += "\\b"; break;
          case '\f': out += "\\f"; break;
          default:
            if (c < 0x20 || c == 0x7F) {
              char buf[8];
              std::snprintf(buf, sizeof buf, "\\u%04x", c);
              out += buf;
            } else {
              out += ch;
            }
        }
      }
      return out + "\"";
    };
    int bad = 0;
    std::string out;
    JsonWriter w(out);  // one writer (and buffer) for every case
    for (std::size_t n = 0; n <= 40 && bad < 5; ++n) {
      std::string base(n, 'a');
      for (std::size_t i = 0; i < n; ++i) base[i] = static_cast<char>('a' + i % 26);
      for (int c = 0; c < 0x80 && bad < 5; ++c) {
        for (std::size_t at = 0; at < std::max<std::size_t>(n, 1) && bad < 5; ++at) {
          std::string s = base;
          if (n > 0) s[at] = static_cast<char>(c);
          out.clear();
          w.reset();
          w.value(std::string_view(s));
          REQUIRE(w.finish());
          if (out != reference(s)) {
            ++bad;
            FAIL_CHECK("n=" << n << " c=" << c << " at=" << at << ": " << out);
          }
        }
      }
    }
    CHECK(bad == 0);
    // non-ASCII inside a short string takes the general path
    out.clear();
    w.reset();
    w.value(std::string_view("ab\xc3\xa9" "cd"));
    REQUIRE(w.finish());
    CHECK(out == "\"ab\\u00e9cd\"");
    for (const auto& [in, want] : std::vector<std::pair<std::string, std::string>>{
             {"\xc3\xa9", "\"\\u00e9\""}, {"a\xc3\xa9", "\"a\\u00e9\""}, {"\xe2\x82\xac", "\"\\u20ac\""},
             {"0123456789\xc3\xa9", "\"0123456789\\u00e9\""}}) {
      std::string o;
      JsonWriter v(o);
      v.value(std::string_view(in));
      REQUIRE(v.finish());
      CHECK(o == want);
    }
  }
}

