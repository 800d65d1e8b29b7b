#include "pyjson/json_value.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

namespace msdump::pyjson {

static_assert(sizeof(Value) == 48, "json_value.h documents a 48-byte Value");

Value::Value(const Value& other) { copy_from(other); }

Value& Value::operator=(const Value& other) {
  if (this != &other) {
    Value copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Value::copy_from(const Value& other) {
  switch (other.m_kind) {
    case Kind::null: break;
    case Kind::boolean: m_u.b = other.m_u.b; break;
    case Kind::integer: m_u.i = other.m_u.i; break;
    case Kind::floating: m_u.d = other.m_u.d; break;
    case Kind::big_integer:
    case Kind::string: new (&m_u.s) std::string(other.m_u.s); break;
    case Kind::array: new (&m_u.a) Array(other.m_u.a); break;
    case Kind::object: new (&m_u.o) Object(other.m_u.o); break;
  }
  m_kind = other.m_kind;
  m_offset = other.m_offset;
}

void Value::release() noexcept {
  switch (m_kind) {
    case Kind::big_integer:
    case Kind::string: m_u.s.~basic_string(); break;
    case Kind::array: m_u.a.~Array(); break;
    case Kind::object: m_u.o.~Object(); break;
    default: break;
  }
}

void Value::destroy() noexcept {
  release();
  m_kind = Kind::null;
}

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::null: return "null";
    case Kind::boolean: return "boolean";
    case Kind::integer: return "integer";
    case Kind::big_integer: return "integer";
    case Kind::floating: return "float";
    case Kind::string: return "string";
    case Kind::array: return "array";
    case Kind::object: return "object";
  }
  return "?";
}

Value Value::from_scalar(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::null: return null();
    case Scalar::Kind::boolean: return boolean(s.b);
    case Scalar::Kind::integer: return integer(s.i);
    case Scalar::Kind::unsigned_integer:
      if (s.u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return integer(static_cast<std::int64_t>(s.u));
      }
      return big_integer(std::to_string(s.u));
    case Scalar::Kind::floating: return floating(s.d);
    case Scalar::Kind::string: return string(s.s);
  }
  return null();
}

const Value* Value::find(std::string_view key) const {
  const Object* obj = if_object();
  if (obj == nullptr) return nullptr;
  // Size and first byte before the bytes: most members differ there (no memcmp call).
  const std::size_t n = key.size();
  for (auto it = obj->rbegin(); it != obj->rend(); ++it) {
    const std::string& k = it->key;
    if (k.size() != n) continue;
    std::size_t i = 0;  // keys are short: a loop beats a memcmp call
    while (i < n && k[i] == key[i]) ++i;
    if (i == n) return &it->value;
  }
  return nullptr;
}

Value* Value::find(std::string_view key) {
  return const_cast<Value*>(static_cast<const Value&>(*this).find(key));
}

std::size_t Value::size() const {
  if (const Array* a = if_array()) return a->size();
  if (const Object* o = if_object()) return o->size();
  return 0;
}

Result<Scalar> Value::to_scalar() const {
  switch (kind()) {
    case Kind::null: return Scalar::null();
    case Kind::boolean: return Scalar::boolean(as_bool());
    case Kind::integer: return Scalar::integer(as_int());
    case Kind::big_integer: {
      const std::string& digits = as_big_integer();
      std::uint64_t u = 0;
      const char* const end = digits.data() + digits.size();
      const auto [ptr, ec] = std::from_chars(digits.data(), end, u);
      if (ec != std::errc{} || ptr != end) {
        return unsupported("integer " + digits + " does not fit in 64 bits");
      }
      return Scalar::unsigned_integer(u);
    }
    case Kind::floating: return Scalar::floating(as_float());
    case Kind::string: return Scalar::string(as_string());
    case Kind::array:
    case Kind::object: break;
  }
  return unsupported(std::string(kind_name(kind())) + " is not a scalar");
}

bool Value::identical(const Value& other) const {
  if (kind() != other.kind()) return false;
  switch (kind()) {
    case Kind::null: return true;
    case Kind::boolean: return as_bool() == other.as_bool();
    case Kind::integer: return as_int() == other.as_int();
    case Kind::big_integer: return as_big_integer() == other.as_big_integer();
    case Kind::floating: {
      const double a = as_float();
      const double b = other.as_float();
      return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
    }
    case Kind::string: return as_string() == other.as_string();
    case Kind::array: {
      const Array& a = as_array();
      const Array& b = other.as_array();
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].identical(b[i])) return false;
      }
      return true;
    }
    case Kind::object: {
      const Object& a = as_object();
      const Object& b = other.as_object();
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].key != b[i].key || !a[i].value.identical(b[i].value)) return false;
      }
      return true;
    }
  }
  return false;
}

namespace {

// Equality of two short keys without a memcmp call.
bool same_key(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  if (b.size() != n) return false;
  std::size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i == n;
}

// One of 64 bits per key, from its length and its first and last bytes: keys with different
// bits differ. No two keys of any object shape in the msprobe samples (tensor leaves with
// data_name or md5, {type, value}, entries with is_recompute / parameters, ...) share a bit.
std::uint64_t key_bit(const std::string& k) {
  const std::size_t n = k.size();
  if (n == 0) return 1;
  const unsigned first = static_cast<unsigned char>(k[0]);
  const unsigned last = static_cast<unsigned char>(k[n - 1]);
  return std::uint64_t{1} << ((n + 2 * first + 4 * last) & 63);
}

}  // namespace

bool has_repeated_key(const Member* m, std::size_t count) {
  if (count <= 16) {  // the usual leaf: one pass over the key bits, else comparing pairs
    std::uint64_t seen = 0;
    std::size_t distinct = 0;
    for (; distinct < count; ++distinct) {
      const std::uint64_t bit = key_bit(m[distinct].key);
      if ((seen & bit) != 0) break;
      seen |= bit;
    }
    if (distinct == count) return false;
    for (std::size_t i = 1; i < count; ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (same_key(m[i].key, m[j].key)) return true;
    return false;
  }
  std::vector<std::string_view> keys;
  keys.reserve(count);
  for (std::size_t i = 0; i < count; ++i) keys.emplace_back(m[i].key);
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}

}  // namespace msdump::pyjson
