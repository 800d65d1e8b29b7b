#pragma once
// valijson adapter for pyjson::Value, modelled on valijson's nlohmann_json_adapter.hpp.
// Private to msdump_reference_validator: only reference_validator.cpp includes it, so valijson
// never reaches a header the tests include.
//
// Python kinds map as msdump's compiled validator sees them (compiled_schema.h): integer
// tokens are integers, floats (3.0, NaN, Infinity) are doubles and never integers; a big
// integer is an integer whose getInteger() value is clamped to int64 (its sign is kept, so
// "minimum"/"maximum" give the right answer for any bound a schema can state). For duplicate
// keys find() returns the last member, as Python's json.loads keeps.

#include <cstdint>
#include <string>
#include <utility>

#include <valijson/internal/adapter.hpp>
#include <valijson/internal/basic_adapter.hpp>
#include <valijson/internal/frozen_value.hpp>

#include "pyjson/json_value.h"

namespace msdump::schema::valijson_adapter {

class PyjsonAdapter;
class PyjsonArrayIterator;
class PyjsonObjectIterator;
using PyjsonObjectMember = std::pair<std::string, PyjsonAdapter>;

class PyjsonArray {
 public:
  using const_iterator = PyjsonArrayIterator;
  using iterator = PyjsonArrayIterator;
  PyjsonArray() : m_value(&empty()) {}
  explicit PyjsonArray(const pyjson::Value& v) : m_value(&v) {}
  PyjsonArrayIterator begin() const;
  PyjsonArrayIterator end() const;
  std::size_t size() const { return m_value->as_array().size(); }

 private:
  static const pyjson::Value& empty() {
    static const pyjson::Value v = pyjson::Value::array();
    return v;
  }
  const pyjson::Value* m_value;
};

class PyjsonObject {
 public:
  using const_iterator = PyjsonObjectIterator;
  using iterator = PyjsonObjectIterator;
  PyjsonObject() : m_value(&empty()) {}
  explicit PyjsonObject(const pyjson::Value& v) : m_value(&v) {}
  PyjsonObjectIterator begin() const;
  PyjsonObjectIterator end() const;
  PyjsonObjectIterator find(const std::string& name) const;
  std::size_t size() const { return m_value->as_object().size(); }

 private:
  static const pyjson::Value& empty() {
    static const pyjson::Value v = pyjson::Value::object();
    return v;
  }
  const pyjson::Value* m_value;
};

class PyjsonFrozenValue : public valijson::adapters::FrozenValue {
 public:
  explicit PyjsonFrozenValue(pyjson::Value v) : m_value(std::move(v)) {}
  FrozenValue* clone() const override { return new PyjsonFrozenValue(m_value); }
  bool equalTo(const valijson::adapters::Adapter& other, bool strict) const override;

 private:
  pyjson::Value m_value;
};

class PyjsonValue {
 public:
  PyjsonValue() : m_value(&empty()) {}
  explicit PyjsonValue(const pyjson::Value& v) : m_value(&v) {}

  valijson::adapters::FrozenValue* freeze() const { return new PyjsonFrozenValue(*m_value); }

  ::opt::optional<PyjsonArray> getArrayOptional() const {
    if (m_value->is_array()) return ::opt::make_optional(PyjsonArray(*m_value));
    return {};
  }
  bool getArraySize(std::size_t& out) const {
    if (!m_value->is_array()) return false;
    out = m_value->as_array().size();
    return true;
  }
  bool getBool(bool& out) const {
    if (!m_value->is_bool()) return false;
    out = m_value->as_bool();
    return true;
  }
  bool getDouble(double& out) const {
    if (!m_value->is_float()) return false;
    out = m_value->as_float();
    return true;
  }
  bool getInteger(std::int64_t& out) const {
    if (m_value->kind() == pyjson::Kind::integer) {
      out = m_value->as_int();
      return true;
    }
    if (m_value->kind() == pyjson::Kind::big_integer) {
      out = m_value->as_big_integer()[0] == '-' ? INT64_MIN : INT64_MAX;
      return true;
    }
    return false;
  }
  ::opt::optional<PyjsonObject> getObjectOptional() const {
    if (m_value->is_object()) return ::opt::make_optional(PyjsonObject(*m_value));
    return {};
  }
  bool getObjectSize(std::size_t& out) const {
    if (!m_value->is_object()) return false;
    out = m_value->as_object().size();
    return true;
  }
  bool getString(std::string& out) const {
    if (!m_value->is_string()) return false;
    out = m_value->as_string();
    return true;
  }
  static bool hasStrictTypes() { return true; }
  bool isArray() const { return m_value->is_array(); }
  bool isBool() const { return m_value->is_bool(); }
  bool isDouble() const { return m_value->is_float(); }
  bool isInteger() const { return m_value->is_integer(); }
  bool isNull() const { return m_value->is_null(); }
  bool isNumber() const { return m_value->is_number(); }
  bool isObject() const { return m_value->is_object(); }
  bool isString() const { return m_value->is_string(); }

 private:
  static const pyjson::Value& empty() {
    static const pyjson::Value v = pyjson::Value::object();
    return v;
  }
  const pyjson::Value* m_value;
};

class PyjsonAdapter
    : public valijson::adapters::BasicAdapter<PyjsonAdapter, PyjsonArray, PyjsonObjectMember, PyjsonObject, PyjsonValue> {
 public:
  PyjsonAdapter() : BasicAdapter() {}
  explicit PyjsonAdapter(const pyjson::Value& v) : BasicAdapter(PyjsonValue{v}) {}
};

class PyjsonArrayIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = PyjsonAdapter;
  using difference_type = PyjsonAdapter;
  using pointer = PyjsonAdapter*;
  using reference = PyjsonAdapter&;

  explicit PyjsonArrayIterator(pyjson::Array::const_iterator it) : m_it(it) {}
  PyjsonAdapter operator*() const { return PyjsonAdapter(*m_it); }
  valijson::adapters::DerefProxy<PyjsonAdapter> operator->() const { return valijson::adapters::DerefProxy<PyjsonAdapter>(**this); }
  bool operator==(const PyjsonArrayIterator& o) const { return m_it == o.m_it; }
  bool operator!=(const PyjsonArrayIterator& o) const { return m_it != o.m_it; }
  const PyjsonArrayIterator& operator++() {
    ++m_it;
    return *this;
  }
  PyjsonArrayIterator operator++(int) {
    PyjsonArrayIterator pre(m_it);
    ++m_it;
    return pre;
  }
  const PyjsonArrayIterator& operator--() {
    --m_it;
    return *this;
  }
  void advance(std::ptrdiff_t n) { m_it += n; }

 private:
  pyjson::Array::const_iterator m_it;
};

class PyjsonObjectIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = PyjsonObjectMember;
  using difference_type = PyjsonObjectMember;
  using pointer = PyjsonObjectMember*;
  using reference = PyjsonObjectMember&;

  explicit PyjsonObjectIterator(pyjson::Object::const_iterator it) : m_it(it) {}
  PyjsonObjectMember operator*() const { return PyjsonObjectMember(m_it->key, PyjsonAdapter(m_it->value)); }
  valijson::adapters::DerefProxy<PyjsonObjectMember> operator->() const {
    return valijson::adapters::DerefProxy<PyjsonObjectMember>(**this);
  }
  bool operator==(const PyjsonObjectIterator& o) const { return m_it == o.m_it; }
  bool operator!=(const PyjsonObjectIterator& o) const { return m_it != o.m_it; }
  const PyjsonObjectIterator& operator++() {
    ++m_it;
    return *this;
  }
  PyjsonObjectIterator operator++(int) {
    PyjsonObjectIterator pre(m_it);
    ++m_it;
    return pre;
  }
  const PyjsonObjectIterator& operator--() {
    --m_it;
    return *this;
  }

 private:
  pyjson::Object::const_iterator m_it;
};

inline PyjsonArrayIterator PyjsonArray::begin() const { return PyjsonArrayIterator(m_value->as_array().begin()); }
inline PyjsonArrayIterator PyjsonArray::end() const { return PyjsonArrayIterator(m_value->as_array().end()); }
inline PyjsonObjectIterator PyjsonObject::begin() const { return PyjsonObjectIterator(m_value->as_object().begin()); }
inline PyjsonObjectIterator PyjsonObject::end() const { return PyjsonObjectIterator(m_value->as_object().end()); }
inline PyjsonObjectIterator PyjsonObject::find(const std::string& name) const {
  const pyjson::Object& members = m_value->as_object();
  for (auto it = members.end(); it != members.begin();) {
    --it;
    if (it->key == name) return PyjsonObjectIterator(it);
  }
  return end();
}

inline bool PyjsonFrozenValue::equalTo(const valijson::adapters::Adapter& other, bool strict) const {
  return PyjsonAdapter(m_value).equalTo(other, strict);
}

}  // namespace msdump::schema::valijson_adapter

template <>
struct valijson::adapters::AdapterTraits<msdump::schema::valijson_adapter::PyjsonAdapter> {
  using DocumentType = msdump::pyjson::Value;
  static std::string adapterName() { return "PyjsonAdapter"; }
};
