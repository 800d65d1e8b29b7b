#include "pyjson/json_reader.h"

#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <random>
#include <limits>
#include <string>

#include "pyjson/json_writer.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {

// The error message of parsing `text`, or "OK".
std::string error_of(std::string_view text, const ReadOptions& options = {}) {
  auto r = parse_json(text, options);
  return r ? "OK" : r.error().message;
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("reader keeps Python's int vs float and big ints as text") {
    auto v = parse_json("[3, 3.0, 1E+5, -0.0, 9223372036854775807, -9223372036854775808, 9223372036854775808, "
                        "-123456789012345678901234567890, 0]");
    REQUIRE(v);
    const Array& a = v->as_array();
    REQUIRE(a.size() == 9);
    CHECK(a[0].kind() == Kind::integer);
    CHECK(a[0].as_int() == 3);
    CHECK(a[1].kind() == Kind::floating);
    CHECK(a[1].as_float() == 3.0);
    CHECK(a[2].as_float() == 1e5);
    CHECK(std::signbit(a[3].as_float()));
    CHECK(a[4].as_int() == std::numeric_limits<std::int64_t>::max());
    CHECK(a[5].as_int() == std::numeric_limits<std::int64_t>::min());
    CHECK(a[6].kind() == Kind::big_integer);
    CHECK(a[6].as_big_integer() == "9223372036854775808");
    CHECK(a[7].as_big_integer() == "-123456789012345678901234567890");
    CHECK(a[8].as_int() == 0);
  }

  TEST_CASE("reader accepts NaN, Infinity, -Infinity and out-of-range floats like Python") {
    // json.loads("[1e400, -1e400, 1e-400, -1e-400, 2e-324, 1.7976931348623159e308]")
    //   == [inf, -inf, 0.0, -0.0, 0.0, inf]
    auto v = parse_json("[NaN, Infinity, -Infinity, 1e400, -1e400, 1e-400, -1e-400, 2e-324, 1.7976931348623159e308]");
    REQUIRE(v);
    const Array& a = v->as_array();
    CHECK(std::isnan(a[0].as_float()));
    CHECK(a[1].as_float() == INFINITY);
    CHECK(a[2].as_float() == -INFINITY);
    CHECK(a[3].as_float() == INFINITY);
    CHECK(a[4].as_float() == -INFINITY);
    CHECK((a[5].as_float() == 0.0 && !std::signbit(a[5].as_float())));
    CHECK((a[6].as_float() == 0.0 && std::signbit(a[6].as_float())));
    CHECK(a[7].as_float() == 0.0);
    CHECK(a[8].as_float() == INFINITY);
    CHECK(error_of("[nan]") == "line 1, column 2: expected a value, found 'nan'");
    CHECK(error_of("-Inf") == "line 1, column 5: unexpected end of input in 'Infinity'");
    CHECK(error_of("[-NaN]") == "line 1, column 3: expected a digit after '-', found 'NaN'");
  }

  TEST_CASE("reader decodes escapes and surrogate pairs to UTF-8") {
    auto v = parse_json(R"(["\u00e9\ud83d\ude00\n\/\"\\\b\f\r\t\u0000", "caf)" "\xc3\xa9" R"("])");
    REQUIRE(v);
    CHECK(v->as_array()[0].as_string() == std::string("\xc3\xa9\xf0\x9f\x98\x80\n/\"\\\b\f\r\t\0", 15));
    CHECK(v->as_array()[1].as_string() == "caf\xc3\xa9");
  }

  TEST_CASE("reader keeps duplicate keys in order with their offsets") {
    const std::string_view text = "{\n \"a\": 1,\n \"b\": [true],\n \"a\": null\n}";
    auto v = parse_json(text);
    REQUIRE(v);
    const Object& o = v->as_object();
    REQUIRE(o.size() == 3);
    CHECK(o[0].key == "a");
    CHECK(o[2].key == "a");
    CHECK(o[0].key_offset == 3);
    CHECK(o[2].key_offset == text.find("\"a\": null"));
    CHECK(o[1].value.offset() == text.find('['));
    CHECK(o[1].value.as_array()[0].offset() == text.find("true"));
    CHECK(v->find("a")->is_null());
    CHECK(locate(text, o[2].key_offset) == TextPosition{4, 2});
  }

  TEST_CASE("reader gives every array and object exactly its size, whatever came before it at its depth") {
    // Sizes go up and down at each depth: the reserved guesses (SizeHints) are too small, too
    // large and capped in turn; by default every container is shrunk to fit.
    std::string text = "[";
    for (const int n : {9, 2, 12, 1, 0, 40, 3, 11}) {
      std::string obj = "{", arr = "[";
      for (int i = 0; i < n; ++i) {
        obj += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": [" + std::to_string(i) + "]";
        arr += (i ? ", " : "") + std::to_string(i);
      }
      text += obj + "}, " + arr + "], ";
    }
    text += "{}]";
    auto v = parse_json(text);
    REQUIRE(v);
    std::size_t containers = 0;
    const auto exact = [&](const auto& self, const Value& x) -> void {
      if (const Array* a = x.if_array()) {
        ++containers;
        CHECK(a->capacity() == a->size());
        for (const Value& item : *a) self(self, item);
      } else if (const Object* o = x.if_object()) {
        ++containers;
        CHECK(o->capacity() == o->size());
        for (const Member& m : *o) self(self, m.value);
      }
    };
    exact(exact, *v);
    CHECK(containers == 1 + 16 + 9 + 2 + 12 + 1 + 40 + 3 + 11 + 1);
    // Without exact_capacity: the same tree (kinds, values, keys, offsets), spare capacity allowed.
    ReadOptions loose;
    loose.exact_capacity = false;
    auto w = parse_json(text, loose);
    REQUIRE(w);
    CHECK(w->identical(*v));
    const auto same_offsets = [&](const auto& self, const Value& x, const Value& y) -> bool {
      if (x.offset() != y.offset()) return false;
      if (const Array* a = x.if_array()) {
        for (std::size_t i = 0; i < a->size(); ++i)
          if (!self(self, (*a)[i], y.as_array()[i])) return false;
      } else if (const Object* o = x.if_object()) {
        for (std::size_t i = 0; i < o->size(); ++i)
          if ((*o)[i].key_offset != y.as_object()[i].key_offset || !self(self, (*o)[i].value, y.as_object()[i].value))
            return false;
      }
      return true;
    };
    CHECK(same_offsets(same_offsets, *w, *v));
    CHECK(w->as_array()[2].as_object().capacity() > 2);  // the 2-member object after a 9-member one
  }

  TEST_CASE("reader errors name line, column and what was expected") {
    CHECK(error_of("") == "line 1, column 1: unexpected end of input, expected a value");
    CHECK(error_of("  \n ") == "line 2, column 2: unexpected end of input, expected a value");
    CHECK(error_of("{\n \"a\": 1\n \"b\": 2}") ==
          "line 3, column 2: expected ',' or '}' after an object member, found '\"'");
    CHECK(error_of("[1, 2,]") == "line 1, column 7: expected a value, found ']'");
    CHECK(error_of("{\"a\" 1}") == "line 1, column 6: expected ':' after an object key, found '1'");
    CHECK(error_of("{1: 2}") == "line 1, column 2: expected a string key in double quotes or '}', found '1'");
    CHECK(error_of("{\"a\": 1,}") == "line 1, column 9: expected a string key in double quotes, found '}'");
    CHECK(error_of("[1] x") == "line 1, column 5: unexpected data after the JSON document");
    CHECK(error_of("01") == "line 1, column 2: unexpected data after the JSON document");
    CHECK(error_of("[tru]") == "line 1, column 2: expected a value, found 'tru'");
    CHECK(error_of("[1 2]") == "line 1, column 4: expected ',' or ']' after an array item, found '2'");
    CHECK(error_of("-") == "line 1, column 2: unexpected end of input in a number");
    CHECK(error_of("1.e5") == "line 1, column 3: expected a digit after the decimal point, found 'e5'");
    CHECK(error_of("1e+") == "line 1, column 4: unexpected end of input in a number");
    CHECK(error_of("[1ex]") == "line 1, column 4: expected a digit in the exponent, found 'x'");
    CHECK(error_of("{\"\xc3\xa9\": x}") == "line 1, column 7: expected a value, found 'x'");
    CHECK(error_of("\xEF\xBB\xBF{}") == "line 1, column 1: unexpected UTF-8 byte order mark");
    CHECK(error_of("[\x80]") == "line 1, column 2: expected a value, found byte 0x80");
  }

  TEST_CASE("reader counts lines and columns through json.dump(indent=1) indentation") {
    // A newline and 0-7 spaces before a token (the inline path), 8 or more (the loop), tabs and
    // carriage returns (never the inline path), and a newline near the end of the input.
    std::string text = "[\n1,\n 2,\n  [\n   3,\n    {\n     \"k\": [\n      4,\n       5\n      ],";
    text += "\n        \"m\": 6\n    },\n         7,\n\t8,\r\n 9\n   ]\n]";
    auto v = parse_json(text);
    REQUIRE(v);
    CHECK(v->as_array().size() == 3);
    CHECK(v->as_array()[2].as_array()[1].find("m")->offset() == text.find("6"));
    const std::string prefixes[] = {"[\n 1,\n x", "[\n1,\n  2,\n       x", "[\n1,\n        x", "[\n\t\n x", "[\n1\n\n x"};
    const std::string expected[] = {"line 3, column 2: expected a value, found 'x'",
                                    "line 4, column 8: expected a value, found 'x'",
                                    "line 3, column 9: expected a value, found 'x'",
                                    "line 3, column 2: expected a value, found 'x'",
                                    "line 4, column 2: expected ',' or ']' after an array item, found 'x'"};
    for (std::size_t i = 0; i < std::size(prefixes); ++i) {
      CHECK(error_of(prefixes[i] + "          ]") == expected[i]);
      CHECK(error_of(prefixes[i]) == expected[i]);  // the token close to the end of the input
    }
    CHECK(error_of("[\n 1,\n 2,\n 3\n ]\n]") == "line 6, column 1: unexpected data after the JSON document");
  }

  TEST_CASE("reader rejects bad strings: escapes, control characters, invalid UTF-8, lone surrogates") {
    CHECK(error_of(R"(["a\qb"])") == "line 1, column 4: invalid escape '\\q' in a string");
    CHECK(error_of(R"(["\u12G4"])") == "line 1, column 3: invalid \\u escape in a string (needs 4 hex digits)");
    CHECK(error_of(R"("\ud800")") == "line 1, column 2: lone surrogate \\ud800 in a string (not representable in UTF-8)");
    CHECK(error_of(R"("\ud800\u0041")") ==
          "line 1, column 2: lone surrogate \\ud800 in a string (not representable in UTF-8)");
    CHECK(error_of(R"("x\udc00")") == "line 1, column 3: lone surrogate \\udc00 in a string (not representable in UTF-8)");
    CHECK(error_of("\"a\nb\"") == "line 1, column 3: invalid control character 0x0a in a string");
    CHECK(error_of("\"ab\xff\"") == "line 1, column 4: invalid UTF-8 byte 0xff in a string");
    CHECK(error_of("\"\xc3\xa9\xc0\xaf\"") == "line 1, column 3: invalid UTF-8 byte 0xc0 in a string");   // overlong '/'
    CHECK(error_of("\"\xed\xa0\x80\"") == "line 1, column 2: invalid UTF-8 byte 0xed in a string");      // encoded surrogate
    CHECK(error_of("\"\xf4\x90\x80\x80\"") == "line 1, column 2: invalid UTF-8 byte 0xf4 in a string");  // > U+10FFFF
    CHECK(error_of("\"\xe2\x82x\"") == "line 1, column 2: invalid UTF-8 byte 0xe2 in a string");
  }

  TEST_CASE("reader reports truncated input at its end") {
    CHECK(error_of("{\n \"a\": [1,\n  2") ==
          "line 3, column 4: unexpected end of input, expected ',' or ']' after an array item");
    CHECK(error_of("\"abc") == "line 1, column 5: unexpected end of input in a string");
    CHECK(error_of("[\"ab\\u00") == "line 1, column 9: unexpected end of input in a string");
    CHECK(error_of("[\"\\ud83d\\ude") == "line 1, column 13: unexpected end of input in a string");
    CHECK(error_of("[\"\xe2\x82") == "line 1, column 4: unexpected end of input in a string");
    CHECK(error_of("{\"a\": nul") == "line 1, column 10: unexpected end of input in 'null'");
    CHECK(error_of("{\"a\"") == "line 1, column 5: unexpected end of input, expected ':' after an object key");
    CHECK(error_of("{") == "line 1, column 2: unexpected end of input, expected a string key in double quotes or '}'");
  }

  TEST_CASE("reader limits nesting depth without overflowing the stack") {
    const std::string deep(100000, '[');
    CHECK(error_of(deep) == "line 1, column 513: nesting deeper than 512 levels");
    const std::string ok = std::string(512, '[') + std::string(512, ']');
    CHECK(error_of(ok) == "OK");
    const std::string too_deep = std::string(513, '[') + std::string(513, ']');
    CHECK(error_of(too_deep) == "line 1, column 513: nesting deeper than 512 levels");
    CHECK(error_of("{\"a\": {\"b\": [1]}}", ReadOptions{2}) == "line 1, column 13: nesting deeper than 2 levels");
    std::string objects;
    for (int i = 0; i < 100000; ++i) objects += "{\"k\":";
    CHECK(error_of(objects) == "line 1, column 2561: nesting deeper than 512 levels");
  }

  TEST_CASE("reader and writer round-trip Python's bytes") {
    const std::string text =
        "{\n \"task\": \"statistics\",\n \"dump_data_dir\": null,\n \"data\": {\n  \"x\": [\n   1,\n   -2.5e-07,\n"
        "   NaN,\n   -Infinity,\n   1180591620717411303424,\n   \"\\u00e9\\ud83d\\ude00\\n\",\n   {},\n   []\n  ]\n }\n}";
    auto v = parse_json(text);
    REQUIRE(v);
    auto back = to_python_json(*v);
    REQUIRE(back);
    CHECK(*back == text);
  }

  TEST_CASE("reader converts 17-19 significant digits exactly like from_chars (the division path)") {
    std::mt19937_64 rng(11);
    auto expect_same = [](const std::string& text) {
      double expected = 0;
      REQUIRE(std::from_chars(text.data(), text.data() + text.size(), expected).ec == std::errc{});
      auto v = parse_json(text);
      REQUIRE_MESSAGE(v, text);
      REQUIRE_MESSAGE(v->is_float(), text);
      CHECK_MESSAGE(std::bit_cast<std::uint64_t>(v->as_float()) == std::bit_cast<std::uint64_t>(expected), text);
    };
    // Python's repr of doubles and of float32 values (shortest round-trip digits).
    for (int i = 0; i < 100000; ++i) {
      const double x = std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 120) - 30);
      const float f = static_cast<float>(x);
      for (const double value : {x, static_cast<double>(f), -x}) {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, value);
        std::string text(buf, r.ptr);
        if (text.find('.') == std::string::npos && text.find('e') == std::string::npos) text += ".0";
        expect_same(text);
      }
    }
    // Random mantissas of up to 19 significant digits with 1-19 decimals, leading zeros.
    for (int i = 0; i < 100000; ++i) {
      const int digits = 1 + static_cast<int>(rng() % 19);
      std::string mant;
      for (int k = 0; k < digits; ++k) mant += static_cast<char>('0' + rng() % 10);
      const int decimals = 1 + static_cast<int>(rng() % 19);
      const std::string padded = std::string(static_cast<std::size_t>(std::max(0, decimals + 1 - digits)), '0') + mant;
      const std::size_t point = padded.size() - static_cast<std::size_t>(decimals);
      std::string whole = padded.substr(0, point);
      while (whole.size() > 1 && whole[0] == '0') whole.erase(0, 1);  // JSON: no leading zeros
      expect_same(whole + "." + padded.substr(point));
      expect_same(whole + "." + padded.substr(point) + "e-" + std::to_string(rng() % 3));
    }
    // Exact ties between two doubles: 5^q * k / 10^q = k / 2^q with k of 54 bits.
    int ties = 0;
    for (int i = 0; i < 20000; ++i) {
      const int q = 1 + static_cast<int>(rng() % 4);
      std::uint64_t five = 1;
      for (int k = 0; k < q; ++k) five *= 5;
      const std::uint64_t k = (std::uint64_t{1} << 53) | (rng() >> 11) | 1;  // 54 significant bits, odd
      const std::uint64_t m = five * k;
      std::string digits = std::to_string(m);
      if (digits.size() > 19) continue;
      const std::size_t point = digits.size() - static_cast<std::size_t>(q);  // m has more than q digits
      expect_same(digits.substr(0, point) + "." + digits.substr(point));
      ++ties;
    }
    CHECK(ties > 10000);
  }

  TEST_CASE("reader converts every float exactly like from_chars (fast path and slow path)") {
    std::mt19937_64 rng(7);
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
      // Random digit strings of 1-25 digits, a random decimal point and exponent.
      std::string digits;
      const int n = 1 + static_cast<int>(rng() % 25);
      for (int k = 0; k < n; ++k) digits += static_cast<char>('0' + rng() % 10);
      while (digits.size() > 1 && digits[0] == '0') digits.erase(0, 1);
      std::string text = (rng() % 2 ? "-" : "") + digits;
      if (rng() % 2) text += "." + std::to_string(rng() % 100000);
      if (rng() % 2) text += "e" + std::to_string(static_cast<int>(rng() % 80) - 40);
      if (text.find_first_of(".e") == std::string::npos) text += ".0";
      auto v = parse_json(text);
      REQUIRE_MESSAGE(v, text);
      double expected = 0;
      std::from_chars(text.data(), text.data() + text.size(), expected);
      CHECK_MESSAGE(std::bit_cast<std::uint64_t>(v->as_float()) == std::bit_cast<std::uint64_t>(expected), text);
      ++checked;
    }
    CHECK(checked == 20000);
  }

  TEST_CASE("reader accepts Python's whitespace and integer edge cases") {
    auto v = parse_json(" \t\r\n[\t-0 ,\r\n0e0, 1E400, 1e-99999999999999999999, 123456789012345678, 1234567890123456789]\n ");
    REQUIRE(v);
    const Array& a = v->as_array();
    CHECK(a[0].kind() == Kind::integer);
    CHECK(a[0].as_int() == 0);
    CHECK(a[1].as_float() == 0.0);
    CHECK(a[2].as_float() == INFINITY);
    CHECK(a[3].as_float() == 0.0);
    CHECK(a[4].as_int() == 123456789012345678);
    CHECK(a[5].as_int() == 1234567890123456789);
    CHECK(error_of("[1,\f2]") == "line 1, column 4: expected a value, found byte 0x0c");
  }
}
