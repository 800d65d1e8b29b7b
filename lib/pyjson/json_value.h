#pragma once
// pyjson::Value: one JSON value as Python's json module sees it, ordered and position-aware.
//
// - The kind keeps Python's int/float distinction (docs/format.md §9): the token `3` is an
//   integer, `3.0` / `1e-05` / `NaN` are floats, so a value read and written back gives the same
//   bytes. Integers outside int64 are kept as their decimal text (Kind::big_integer), exactly as
//   Python keeps arbitrary-size ints.
// - Objects are an ordered vector of members; duplicate keys are kept (Python keeps only the
//   last one, a validator wants to see both).
// - Every value (and every member key) carries the byte offset where its token starts in the
//   parsed text, so a finding can be turned into "line L, column C" (text_position.h).
//
// A Value owns its children; copying deep-copies; a moved-from Value is null (so destroying
// it, as every moved-from member of a parsed container is, costs nothing). 48 bytes: kind,
// offset, 32-byte union.

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <new>
#include <vector>

#include "core/result.h"
#include "core/scalar.h"
#include "pyjson/tree_arena.h"

namespace msdump::pyjson {

struct Member;
class Value;

// (TreeAllocator: the heap, or a TreeArena while a TreeArenaScope is active; tree_arena.h.)
using Array = std::vector<Value, TreeAllocator<Value>>;
using Object = std::vector<Member, TreeAllocator<Member>>;

// The JSON kinds, split the way Python splits them. Kinds from big_integer on own heap memory.
enum class Kind : std::uint8_t {
  null,
  boolean,
  integer,      // fits in int64
  floating,     // a Python float, including NaN and +-Infinity
  big_integer,  // a Python int outside int64, kept as decimal text ("-" and digits)
  string,       // UTF-8
  array,
  object,
};

// "null", "boolean", "integer", ... as used in error messages ("expected string, got integer").
std::string_view kind_name(Kind kind);

class Value {
 public:
  Value() noexcept {}  // null
  Value(const Value& other);
  Value(Value&& other) noexcept { move_from(other); }
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value() {
    if (m_kind >= Kind::big_integer) release();
  }

  static Value null() { return Value{}; }
  static Value boolean(bool v) { Value x(Kind::boolean); x.m_u.b = v; return x; }
  static Value integer(std::int64_t v) { Value x(Kind::integer); x.m_u.i = v; return x; }
  // `digits` must be an optional '-' followed by decimal digits without leading zeros; values
  // that fit in int64 should use integer() (write() prints both identically).
  static Value big_integer(std::string digits);
  static Value floating(double v) { Value x(Kind::floating); x.m_u.d = v; return x; }
  static Value string(std::string v);
  static Value array();  // empty
  static Value array(Array items);
  static Value object();  // empty
  static Value object(Object members);
  // Scalar -> Value: unsigned values above INT64_MAX become big integers. Never fails.
  static Value from_scalar(const Scalar& s);

  Kind kind() const { return m_kind; }
  bool is_null() const { return m_kind == Kind::null; }
  bool is_bool() const { return m_kind == Kind::boolean; }
  bool is_integer() const { return m_kind == Kind::integer || m_kind == Kind::big_integer; }
  bool is_float() const { return m_kind == Kind::floating; }
  bool is_number() const { return is_integer() || is_float(); }
  bool is_string() const { return m_kind == Kind::string; }
  bool is_array() const { return m_kind == Kind::array; }
  bool is_object() const { return m_kind == Kind::object; }

  // Byte offset of the value's first character in the parsed text (0 for built values).
  std::uint64_t offset() const { return m_offset; }
  void set_offset(std::uint64_t offset) { m_offset = offset; }

  // Unchecked accessors: the kind must match (asserted in debug builds).
  bool as_bool() const { assert(m_kind == Kind::boolean); return m_u.b; }
  std::int64_t as_int() const { assert(m_kind == Kind::integer); return m_u.i; }
  const std::string& as_big_integer() const { assert(m_kind == Kind::big_integer); return m_u.s; }
  double as_float() const { assert(m_kind == Kind::floating); return m_u.d; }
  const std::string& as_string() const { assert(m_kind == Kind::string); return m_u.s; }
  std::string& as_string() { assert(m_kind == Kind::string); return m_u.s; }
  const Array& as_array() const { assert(m_kind == Kind::array); return m_u.a; }
  Array& as_array() { assert(m_kind == Kind::array); return m_u.a; }
  const Object& as_object() const { assert(m_kind == Kind::object); return m_u.o; }
  Object& as_object() { assert(m_kind == Kind::object); return m_u.o; }

  // Checked accessors: nullptr when the kind differs.
  const bool* if_bool() const { return m_kind == Kind::boolean ? &m_u.b : nullptr; }
  const std::int64_t* if_int() const { return m_kind == Kind::integer ? &m_u.i : nullptr; }
  const double* if_float() const { return m_kind == Kind::floating ? &m_u.d : nullptr; }
  const std::string* if_string() const { return m_kind == Kind::string ? &m_u.s : nullptr; }
  const Array* if_array() const { return m_kind == Kind::array ? &m_u.a : nullptr; }
  const Object* if_object() const { return m_kind == Kind::object ? &m_u.o : nullptr; }

  // The value of member `key` of an object, or nullptr if this is not an object or has no such
  // key. With duplicate keys the LAST one wins, as in Python's json.loads. Linear scan: objects
  // in dumps are small.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);

  // Number of items (array) or members (object); 0 for scalars.
  std::size_t size() const;

  // Makes this value an empty string (dropping the old value) and returns it for filling in
  // place; the offset is kept.
  std::string& emplace_string() {
    if (m_kind >= Kind::big_integer) destroy();
    new (&m_u.s) std::string();
    m_kind = Kind::string;
    return m_u.s;
  }

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
  explicit Value(Kind kind) noexcept : m_kind(kind) {}
  void move_from(Value& other) noexcept;  // *this holds no resources
  void copy_from(const Value& other);     // *this holds no resources
  void destroy() noexcept;                // leaves *this null
  // Frees the storage without writing *this (the destructor's: no store into memory that
  // may be cached by another core, as entry trees are when a second thread frees them).
  void release() noexcept;

  // A tagged union rather than std::variant: moving and destroying scalars (most values)
  // stays inline without a visit table (docs/performance.md "JSON value layout and number parsing").
  union Storage {
    Storage() noexcept {}
    ~Storage() {}
    bool b;
    std::int64_t i;
    double d;
    std::string s;  // Kind::string and Kind::big_integer
    Array a;
    Object o;
  };
  Kind m_kind = Kind::null;
  std::uint64_t m_offset = 0;
  Storage m_u;
};

// Whether two of the `count` members at `members` have the same key (a bit per key, then pairs
// if two bits meet, for small objects; sorted views beyond 16 members).
bool has_repeated_key(const Member* members, std::size_t count);

// One object member. key_offset is the offset of the key's opening quote.
struct Member {
  std::string key;
  Value value;
  std::uint64_t key_offset = 0;
};

inline Value Value::big_integer(std::string digits) {
  Value x(Kind::big_integer);
  new (&x.m_u.s) std::string(std::move(digits));
  return x;
}
inline Value Value::string(std::string v) {
  Value x(Kind::string);
  new (&x.m_u.s) std::string(std::move(v));
  return x;
}
inline Value Value::array() { return array(Array{}); }
inline Value Value::object() { return object(Object{}); }
inline Value Value::array(Array items) {
  Value x(Kind::array);
  new (&x.m_u.a) Array(std::move(items));
  return x;
}
inline Value Value::object(Object members) {
  Value x(Kind::object);
  new (&x.m_u.o) Object(std::move(members));
  return x;
}
inline void Value::move_from(Value& other) noexcept {
  m_kind = other.m_kind;
  m_offset = other.m_offset;
  switch (m_kind) {
    case Kind::null: break;
    case Kind::boolean: m_u.b = other.m_u.b; break;
    case Kind::integer: m_u.i = other.m_u.i; break;
    case Kind::floating: m_u.d = other.m_u.d; break;
    // The source is left null: its moved-from string or vector holds no memory, so its
    // destructor has nothing to do and is not run (the storage is reused or dropped).
    case Kind::big_integer:
    case Kind::string:
      new (&m_u.s) std::string(std::move(other.m_u.s));
      other.m_kind = Kind::null;
      break;
    case Kind::array:
      new (&m_u.a) Array(std::move(other.m_u.a));
      other.m_kind = Kind::null;
      break;
    case Kind::object:
      new (&m_u.o) Object(std::move(other.m_u.o));
      other.m_kind = Kind::null;
      break;
  }
}
inline Value& Value::operator=(Value&& other) noexcept {
  if (this != &other) {
    if (m_kind >= Kind::big_integer) destroy();
    move_from(other);
  }
  return *this;
}
inline void Value::add(std::string key, Value v) {
  as_object().push_back(Member{std::move(key), std::move(v), 0});
}

}  // namespace msdump::pyjson
