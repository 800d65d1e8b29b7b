#pragma once
// Conversions between the narrow floating formats msprobe dumps hold (float16, bfloat16,
// float8_e4m3fn, float8_e5m2) and float/double, and rounding of a double to a dtype's precision.
// These are the scalar definitions; the SIMD kernels must agree with them bit for bit.

#include <cstdint>

#include "core/dtype.h"

namespace msdump::stats {

// IEEE binary16 bits -> float (exact; NaN payloads keep their quiet bit).
float half_to_float(std::uint16_t bits);
// bfloat16 bits -> float (exact: the bits are the top half of a float32).
float bfloat16_to_float(std::uint16_t bits);
// float8_e4m3fn bits -> float (exact; 0x7f/0xff are NaN, there is no infinity).
float float8_e4m3fn_to_float(std::uint8_t bits);
// float8_e5m2 bits -> float (exact; IEEE-like, with infinities and NaNs).
float float8_e5m2_to_float(std::uint8_t bits);

// Rounds `v` once, to nearest with ties to even, to the precision and range of `dtype` and
// returns the result as a double (exactly the value the dtype would hold). Handles subnormals,
// overflow to +-inf (float8_e4m3fn, which has no infinity, gives NaN), NaN and signed zero.
// Integer, bool and complex dtypes are returned unchanged; complex64 rounds like float32.
double round_to_dtype(double v, DType dtype);

// True if `v` is exactly a value of `dtype` (NaN and +-inf count as representable where the
// dtype has them). Used to check that a recorded statistic was produced in the assumed dtype.
bool representable_in(double v, DType dtype);

// Spacing of `dtype`'s values at |v| (the ULP used by the tolerances): 2^(e-p+1) for
// |v| in [2^e, 2^(e+1)), the subnormal spacing below the normal range; +inf for non-finite v.
double ulp_of(double v, DType dtype);

}  // namespace msdump::stats
