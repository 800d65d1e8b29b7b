#pragma once
// Python's float formatting as json.dump writes it (docs/format.md §9).

#include <cstddef>
#include <string>

namespace msdump::pyjson {

// Appends the text Python's json module writes for the float `x`: repr(x) for finite values —
// the shortest decimal that round-trips, positional when the decimal exponent e of the first
// significant digit satisfies -4 <= e < 16 (with ".0" appended when integral: "1.0", "-0.0",
// "9999999198822400.0"), otherwise scientific with a two-digit minimum exponent ("1e-05",
// "1e+16", "1.0000000272564224e+16", "5e-324") — and the bare tokens "NaN", "Infinity",
// "-Infinity" for non-finite values (allow_nan=True). Never fails.
void append_python_float(std::string& out, double x);

// The same text written to `out`, which must have room for k_max_python_float_chars bytes.
// Returns the end of the written text (not NUL-terminated).
inline constexpr std::size_t k_max_python_float_chars = 32;
char* format_python_float(char* out, double x);

// The same text by way of std::to_chars (the reference the fast path is tested against).
char* format_python_float_reference(char* out, double x);

}  // namespace msdump::pyjson
