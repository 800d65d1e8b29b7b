#pragma once
// Result<T>: a value or an Error (core/error.h). A ~60-line stand-in for std::expected (C++23),
// which g++ 12 lacks. Usage:
//   Result<int> r = parse(...);
//   if (!r) return r.error().with_context("reading 'x'");
//   use(*r);

#include <cassert>
#include <utility>
#include <variant>

#include "core/error.h"

namespace msdump {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : m_v(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  explicit operator bool() const { return m_v.index() == 0; }
  bool ok() const { return m_v.index() == 0; }

  T& value() & { assert(ok()); return std::get<0>(m_v); }
  const T& value() const& { assert(ok()); return std::get<0>(m_v); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(m_v)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(m_v); }

 private:
  std::variant<T, Error> m_v;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : m_error(std::move(error)), m_ok(false) {}  // NOLINT

  explicit operator bool() const { return m_ok; }
  bool ok() const { return m_ok; }
  const Error& error() const { assert(!m_ok); return m_error; }

 private:
  Error m_error;
  bool m_ok = true;
};

// Propagates an error out of the enclosing function: MSDUMP_TRY(r) returns r.error() if r failed.
#define MSDUMP_TRY(expr)                         \
  do {                                           \
    auto&& msdump_try_result_ = (expr);          \
    if (!msdump_try_result_) return msdump_try_result_.error(); \
  } while (0)

}  // namespace msdump
