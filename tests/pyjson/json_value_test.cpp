#include "pyjson/json_value.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "pyjson/text_position.h"

using namespace msdump;
using namespace msdump::pyjson;

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("value: a moved-from value is null, the target holds the contents") {
    Value s = Value::string(std::string(100, 'x'));  // a heap string
    Value a = Value::array({Value::integer(1), Value::string("short")});
    Value o = Value::object();
    o.add("k", Value::string("v"));
    o.set_offset(7);
    Value s2(std::move(s));
    Value a2(std::move(a));
    Value o2;
    o2 = std::move(o);
    CHECK(s.is_null());
    CHECK(a.is_null());
    CHECK(o.is_null());
    CHECK(s2.as_string() == std::string(100, 'x'));
    REQUIRE(a2.as_array().size() == 2);
    CHECK(a2.as_array()[1].as_string() == "short");
    CHECK(o2.find("k")->as_string() == "v");
    CHECK(o2.offset() == 7);
    // Scalars are copied and stay as they were.
    Value i = Value::integer(3);
    Value i2(std::move(i));
    CHECK(i2.as_int() == 3);
    // A moved-from value can be assigned again and destroyed.
    s = Value::string("again");
    CHECK(s.as_string() == "again");
  }

  TEST_CASE("find returns the last of duplicate keys, like json.loads") {
    Value v = Value::object();
    v.add("a", Value::integer(1));
    v.add("b", Value::string("x"));
    v.add("a", Value::integer(2));
    REQUIRE(v.find("a") != nullptr);
    CHECK(v.find("a")->as_int() == 2);
    CHECK(v.find("b")->as_string() == "x");
    CHECK(v.find("c") == nullptr);
    CHECK(Value::integer(3).find("a") == nullptr);
    CHECK(v.size() == 3);
  }

  TEST_CASE("scalars convert both ways and keep int vs float") {
    CHECK(Value::from_scalar(Scalar::integer(3)).kind() == Kind::integer);
    CHECK(Value::from_scalar(Scalar::floating(3.0)).kind() == Kind::floating);
    const Value big = Value::from_scalar(Scalar::unsigned_integer(18446744073709551615ull));
    CHECK(big.kind() == Kind::big_integer);
    CHECK(big.as_big_integer() == "18446744073709551615");
    auto back = big.to_scalar();
    REQUIRE(back);
    CHECK(back->identical(Scalar::unsigned_integer(18446744073709551615ull)));
    CHECK(Value::from_scalar(Scalar::unsigned_integer(7)).kind() == Kind::integer);
    auto s = Value::string("e2ca942d").to_scalar();
    REQUIRE(s);
    CHECK(s->identical(Scalar::string("e2ca942d")));
    auto huge = Value::big_integer("1180591620717411303424").to_scalar();
    REQUIRE_FALSE(huge);
    CHECK(huge.error().message == "integer 1180591620717411303424 does not fit in 64 bits");
    auto arr = Value::array().to_scalar();
    REQUIRE_FALSE(arr);
    CHECK(arr.error().message == "array is not a scalar");
  }

  TEST_CASE("identical compares floats bitwise and members in order") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(Value::floating(nan).identical(Value::floating(nan)));
    CHECK_FALSE(Value::floating(0.0).identical(Value::floating(-0.0)));
    CHECK_FALSE(Value::floating(3.0).identical(Value::integer(3)));
    Value a = Value::object();
    a.add("x", Value::null());
    a.add("y", Value::boolean(true));
    Value b = Value::object();
    b.add("y", Value::boolean(true));
    b.add("x", Value::null());
    CHECK_FALSE(a.identical(b));
    CHECK(a.identical(a));
  }

  TEST_CASE("locate counts lines and code points like Python's JSONDecodeError") {
    const std::string_view text = "{\n \"\xc3\xa9\": 1,\n x";
    CHECK(locate(text, 0) == TextPosition{1, 1});
    CHECK(locate(text, 2) == TextPosition{2, 1});
    CHECK(locate(text, 8) == TextPosition{2, 6});  // the space after "é":
    CHECK(locate(text, text.size() - 1) == TextPosition{3, 2});
    CHECK(locate("abc", 2, TextPosition{7, 10}) == TextPosition{7, 12});
    CHECK(locate("a\nbc", 3, TextPosition{7, 10}) == TextPosition{8, 2});
    CHECK(to_string(TextPosition{3, 4}) == "line 3, column 4");
  }

  TEST_CASE("values copy deeply and move cheaply") {
    Value a = Value::object();
    a.add("s", Value::string(std::string(100, 'x')));
    a.add("list", Value::array({Value::integer(1), Value::big_integer("99999999999999999999"), Value::floating(0.5)}));
    a.as_object()[1].value.set_offset(42);
    Value b = a;
    CHECK(b.identical(a));
    CHECK(b.find("list")->offset() == 42);
    b.find("list")->push_back(Value::null());
    CHECK_FALSE(b.identical(a));
    CHECK(a.find("list")->size() == 3);
    Value c;
    c = a;
    CHECK(c.identical(a));
    const Value& self = c;
    c = self;
    CHECK(c.identical(a));
    Value d = std::move(c);
    CHECK(d.identical(a));
    d = Value::integer(3);
    CHECK(d.as_int() == 3);
    Value e = Value::integer(1);
    e.set_offset(7);
    e.emplace_string() = "filled";
    CHECK(e.as_string() == "filled");
    CHECK(e.offset() == 7);
    CHECK(e.if_int() == nullptr);
    REQUIRE(e.if_string() != nullptr);
    CHECK(*e.if_string() == "filled");
    CHECK(kind_name(Kind::big_integer) == "integer");
    CHECK(kind_name(Kind::floating) == "float");
  }
  TEST_CASE("has_repeated_key: small objects pairwise, large ones sorted") {
    auto members = [](std::vector<std::string> keys) {
      Object o;
      for (auto& k : keys) o.push_back(Member{std::move(k), Value::null(), 0});
      return o;
    };
    const auto none = members({"type", "dtype", "shape", "Max", "Min"});
    CHECK_FALSE(has_repeated_key(none.data(), none.size()));
    CHECK_FALSE(has_repeated_key(none.data(), 0));
    const auto small = members({"type", "dtype", "shape", "dtype"});
    CHECK(has_repeated_key(small.data(), small.size()));
    CHECK_FALSE(has_repeated_key(small.data(), 3));  // only the first three
    std::vector<std::string> keys;
    for (int i = 0; i < 40; ++i) keys.push_back("k" + std::to_string(i));
    const auto large = members(keys);
    CHECK_FALSE(has_repeated_key(large.data(), large.size()));
    keys.push_back("k7");
    const auto large_dup = members(keys);
    CHECK(has_repeated_key(large_dup.data(), large_dup.size()));
    CHECK_FALSE(has_repeated_key(members({"a", "ab"}).data(), 2));
    // The leaf shapes of msprobe dumps (no key shares a bit: decided in one pass), with one
    // key repeated at each position.
    const std::vector<std::string> leaf = {"type", "dtype", "shape", "Max", "Min", "Mean", "Norm", "requires_grad",
                                           "data_name", "md5"};
    CHECK_FALSE(has_repeated_key(members(leaf).data(), leaf.size()));
    for (std::size_t i = 0; i < leaf.size(); ++i) {
      CAPTURE(i);
      auto with_dup = leaf;
      with_dup.insert(with_dup.begin() + static_cast<std::ptrdiff_t>(i), leaf[leaf.size() - 1 - i]);
      CHECK(has_repeated_key(members(with_dup).data(), with_dup.size()));
    }
    // Different keys with the same length, first and last bytes (the same bit): compared.
    CHECK_FALSE(has_repeated_key(members({"Max", "Mix", "Mux"}).data(), 3));
    CHECK(has_repeated_key(members({"Max", "Mix", "Max"}).data(), 3));
    CHECK(has_repeated_key(members({"Mix", "Max", "Mix"}).data(), 3));
    CHECK(has_repeated_key(members({"", "a", ""}).data(), 3));
    CHECK_FALSE(has_repeated_key(members({"", "a"}).data(), 2));
  }
}
