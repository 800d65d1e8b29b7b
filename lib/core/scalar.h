#pragma once
// Scalar: one JSON scalar as msprobe's writer would produce it from a Python value. The kind
// matters for the bytes: Python int 3 prints "3", float 3.0 prints "3.0" (docs/format.md §9).

#include <cstdint>
#include <string>

namespace msdump {

struct Scalar {
  enum class Kind : std::uint8_t { null, boolean, integer, unsigned_integer, floating, string };
  Kind kind = Kind::null;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0.0;
  std::string s;  // Kind::string only (e.g. a checksum "e2ca942d")

  static Scalar null() { return {}; }
  static Scalar boolean(bool v) { Scalar x; x.kind = Kind::boolean; x.b = v; return x; }
  static Scalar integer(std::int64_t v) { Scalar x; x.kind = Kind::integer; x.i = v; return x; }
  static Scalar unsigned_integer(std::uint64_t v) { Scalar x; x.kind = Kind::unsigned_integer; x.u = v; return x; }
  static Scalar floating(double v) { Scalar x; x.kind = Kind::floating; x.d = v; return x; }
  static Scalar string(std::string v) { Scalar x; x.kind = Kind::string; x.s = std::move(v); return x; }

  bool is_null() const { return kind == Kind::null; }
  // Exact equality of kind and value; NaN equals NaN, -0.0 differs from 0.0 (byte identity).
  bool identical(const Scalar& o) const;
};

}  // namespace msdump
