#pragma once
// pyjson::Value: one JSON value as Python's json module sees it, ordered and position-aware.
//
// - The kind keeps Python's int/float distinction (dump-format.md §9): the token `3` is an
//   integer, `3.0` / `1e-05` / `NaN` are floats, so a value read and written back gives the same
//   bytes. Integers outside int64 are kept as their decimal text (Kind::big_integer), exactly as
//   Python keeps arbitrary-size ints.
// - Objects are an ordered vector of members; duplicate keys are kept (Python keeps only the
//   last one, a validator wants to see both).
// - Every value (and every member key) carries the byte offset where its token starts in the
//   parsed text, so a finding can be turned into "line L, column C" (text_position.h).
//
// A Value owns its children; copying deep-copies. The layout is a tagged variant: 48 bytes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/result.h"
#include "core/scalar.h"

namespace msdump::pyjson {

struct Member;
class Value;

using Array = std::vector<Value>;
using Object = std::vector<Member>;

// The JSON kinds, split the way Python splits them. The order is the variant index: keep it.
enum class Kind : std::uint8_t {
  null,
  boolean,
  integer,      // fits in int64
  big_integer,  // a Python int outside int64, kept as decimal text ("-" and digits)
  floating,     // a Python float, including NaN and +-Infinity
  string,       // UTF-8
  array,
  object,
};

// "null", "boolean", "integer", ... as used in error messages ("expected string, got integer").
std::string_view kind_name(Kind kind);

// Marker type so that a big integer's text is not confused with a string.
struct BigInteger {
  std::string digits;  // optional '-' then decimal digits, no leading zeros
};

class Value {
 public:
  Value() = default;  // null

  static Value null() { return Value{}; }
  static Value boolean(bool v) { return Value(std::in_place_index<1>, v); }
  static Value integer(std::int64_t v) { return Value(std::in_place_index<2>, v); }
  // `digits` must be an optional '-' followed by decimal digits without leading zeros; values
  // that fit in int64 should use integer() (write() prints both identically).
  static Value big_integer(std::string digits) { return Value(std::in_place_index<3>, BigInteger{std::move(digits)}); }
  static Value floating(double v) { return Value(std::in_place_index<4>, v); }
  static Value string(std::string v) { return Value(std::in_place_index<5>, std::move(v)); }
  static Value array(Array items = {});
  static Value object(Object members = {});
  // Scalar -> Value: unsigned values above INT64_MAX become big integers. Never fails.
  static Value from_scalar(const Scalar& s);

  Kind kind() const { return static_cast<Kind>(m_v.index()); }
  bool is_null() const { return kind() == Kind::null; }
  bool is_bool() const { return kind() == Kind::boolean; }
  bool is_integer() const { return kind() == Kind::integer || kind() == Kind::big_integer; }
  bool is_float() const { return kind() == Kind::floating; }
  bool is_number() const { return is_integer() || is_float(); }
  bool is_string() const { return kind() == Kind::string; }
  bool is_array() const { return kind() == Kind::array; }
  bool is_object() const { return kind() == Kind::object; }

  // Byte offset of the value's first character in the parsed text (0 for built values).
  std::uint64_t offset() const { return m_offset; }
  void set_offset(std::uint64_t offset) { m_offset = offset; }

  // Unchecked accessors: the kind must match (asserted in debug builds).
  bool as_bool() const { return std::get<1>(m_v); }
  std::int64_t as_int() const { return std::get<2>(m_v); }
  const std::string& as_big_integer() const { return std::get<3>(m_v).digits; }
  double as_float() const { return std::get<4>(m_v); }
  const std::string& as_string() const { return std::get<5>(m_v); }
  std::string& as_string() { return std::get<5>(m_v); }
  const Array& as_array() const { return std::get<6>(m_v); }
  Array& as_array() { return std::get<6>(m_v); }
  const Object& as_object() const { return std::get<7>(m_v); }
  Object& as_object() { return std::get<7>(m_v); }

  // Checked accessors: nullptr when the kind differs.
  const bool* if_bool() const { return std::get_if<1>(&m_v); }
  const std::int64_t* if_int() const { return std::get_if<2>(&m_v); }
  const double* if_float() const { return std::get_if<4>(&m_v); }
  const std::string* if_string() const { return std::get_if<5>(&m_v); }
  const Array* if_array() const { return std::get_if<6>(&m_v); }
  const Object* if_object() const { return std::get_if<7>(&m_v); }

  // The value of member `key` of an object, or nullptr if this is not an object or has no such
  // key. With duplicate keys the LAST one wins, as in Python's json.loads. Linear scan: objects
  // in dumps are small.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);

  // Number of items (array) or members (object); 0 for scalars.
  std::size_t size() const;

  // Appends to an array / object (the kind must match).
  void push_back(Value v) { as_array().push_back(std::move(v)); }
  void add(std::string key, Value v);

  // Value -> Scalar. Fails (ErrorCode::unsupported) for arrays, objects, and big integers
  // outside uint64 ("integer 1180591620717411303424 does not fit in 64 bits"); big integers in
  // (INT64_MAX, UINT64_MAX] become Scalar::unsigned_integer.
  Result<Scalar> to_scalar() const;

  // Deep equality of kind, value and member order (offsets ignored); floats compare bitwise,
  // so NaN equals NaN and -0.0 differs from 0.0 (byte identity of the written form).
  bool identical(const Value& other) const;

 private:
  template <std::size_t I, typename T>
  Value(std::in_place_index_t<I> i, T&& v) : m_v(i, std::forward<T>(v)) {}

  std::variant<std::monostate, bool, std::int64_t, BigInteger, double, std::string, Array, Object> m_v;
  std::uint64_t m_offset = 0;
};

// One object member. key_offset is the offset of the key's opening quote.
struct Member {
  std::string key;
  Value value;
  std::uint64_t key_offset = 0;
};

inline Value Value::array(Array items) { return Value(std::in_place_index<6>, std::move(items)); }
inline Value Value::object(Object members) { return Value(std::in_place_index<7>, std::move(members)); }
inline void Value::add(std::string key, Value v) {
  as_object().push_back(Member{std::move(key), std::move(v), 0});
}

}  // namespace msdump::pyjson
