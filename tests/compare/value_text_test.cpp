#include "compare/value_text.h"

#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "compare/unmatched_stats.h"
#include "pyjson/plain_text_walk.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

ValueText text_of(const std::string& s) { return {s.data(), pyjson::plain_text::value_end(s.data(), s.data() + s.size())}; }

// Python's str() of the JSON value `json`, or "(declined)".
std::string str_of(const std::string& json) {
  std::string out;
  return python_str_of(text_of(json), json.data() + json.size(), out) ? out : "(declined)";
}

Cell stat_of(const std::string& json) {
  Cell c = Cell::text("(declined)");
  Cell out;
  if (stat_cell_of(text_of(json), json.data() + json.size(), out)) c = out;
  return c;
}

}  // namespace

TEST_CASE("value_kind and stat_kind_of read a value's kind from its first bytes") {
  CHECK(value_kind(text_of("null")) == pyjson::Kind::null);
  CHECK(value_kind(text_of("false")) == pyjson::Kind::boolean);
  CHECK(value_kind(text_of("-12")) == pyjson::Kind::integer);
  CHECK(value_kind(text_of("123456789012345678901234")) == pyjson::Kind::integer);
  CHECK(value_kind(text_of("1e5")) == pyjson::Kind::floating);
  CHECK(value_kind(text_of("-Infinity")) == pyjson::Kind::floating);
  CHECK(value_kind(text_of("NaN")) == pyjson::Kind::floating);
  CHECK(value_kind(text_of("\"x\"")) == pyjson::Kind::string);
  CHECK(value_kind(text_of("[1]")) == pyjson::Kind::array);
  CHECK(value_kind(text_of("{}")) == pyjson::Kind::object);
  CHECK(stat_kind_of(text_of("2")) == k_stat_int);
  CHECK(stat_kind_of(text_of("2.5")) == k_stat_float);
  CHECK(stat_kind_of(text_of("Infinity")) == k_stat_float);
  CHECK(stat_kind_of(text_of("NaN")) == k_stat_other);
  CHECK(stat_kind_of(text_of("true")) == k_stat_other);
  CHECK(stat_kind_of(ValueText{}) == k_stat_other);
}

TEST_CASE("python_str_of gives Python's str() of the value json.load reads") {
  CHECK(str_of("null") == "None");
  CHECK(str_of("true") == "True");
  CHECK(str_of("\"a b\"") == "a b");
  CHECK(str_of("-0") == "0");
  CHECK(str_of("-17") == "-17");
  CHECK(str_of("1e-7") == "1e-07");
  CHECK(str_of("2.50") == "2.5");
  CHECK(str_of("1E+2") == "100.0");
  CHECK(str_of("-Infinity") == "-inf");
  CHECK(str_of("NaN") == "nan");
  CHECK(str_of("[\n  2,\n  3\n ]") == "[2, 3]");
  // integer lists (shapes) take a shorter way, which gives way at the first other item
  CHECK(str_of("[]") == "[]");
  CHECK(str_of("[ ]") == "[]");
  CHECK(str_of("[-0, 0, -12, 123456789012345678901234]") == "[0, 0, -12, 123456789012345678901234]");
  CHECK(str_of("[2, 3.0]") == "[2, 3.0]");
  CHECK(str_of("[2, 1e3]") == "[2, 1000.0]");
  CHECK(str_of("[2, -Infinity]") == "[2, -inf]");
  CHECK(str_of("[2, NaN, 3]") == "[2, nan, 3]");
  CHECK(str_of("[7, \"a\"]") == "[7, 'a']");
  CHECK(str_of("[1, [2]]") == "[1, [2]]");
  CHECK(str_of("[1, \"a\", [2.5, null, true], []]") == "[1, 'a', [2.5, None, True], []]");
  CHECK(str_of("{\"a\": 1}") == "(declined)");
  CHECK(str_of("[{\"a\": 1}]") == "(declined)");
  CHECK(str_of("1e400") == "(declined)");
}

TEST_CASE("stat_cell_of and value_cell_of make flatten's cells") {
  CHECK(stat_of("3") == Cell::integer(3));
  CHECK(stat_of("null") == Cell::text("None"));
  CHECK(stat_of("NaN") == Cell::text("Nan"));
  CHECK(stat_of("true") == Cell::text("True"));
  CHECK(stat_of("[1, 2]") == Cell::text("[1, 2]"));
  CHECK(stat_of("1234567890123456789") == Cell::text("(declined)"));
  const Cell f = stat_of("0.30000001192092896");
  CHECK(f == Cell::floating(0.30000001192092896));
  CHECK(f.kept_str() == "0.30000001192092896");
  CHECK(stat_of("Infinity") == Cell::floating(std::numeric_limits<double>::infinity()));
  const std::string t = "true";
  Cell v;
  REQUIRE(value_cell_of(text_of(t), t.data() + t.size(), v));
  CHECK(v == Cell::boolean(true));
  const std::string a = "[1, [2], 3]";
  CHECK(item_count(text_of(a), a.data() + a.size()) == 3);
}
