#pragma once
// How far a statistic msprobe computed in finite precision can be from the exact one, derived
// from the accumulation model of docs/format.md §6.7. These bounds decide whether a recorded
// statistic is consistent with the other statistics of its leaf (verify's cross-statistic
// rules) and whether a non-finite or flushed statistic can come from a finite tensor.
//
// The model: the framework adds the n terms of a sum in an accumulation dtype A (float32 for
// float32, float16 and bfloat16 tensors; float64 for float64) in any order, so the computed
// sum is within gamma(n, A) * sum|x| of the exact one (Higham, "Accuracy and Stability of
// Numerical Algorithms", Lemma 3.1 and §4.2: any summation order that makes n-1 additions).
// The result then goes through at most three roundings to the statistic's dtype T (torch 1.13
// CPU's 16-bit mean rounds the sum, n and the quotient), each of relative size u(T).

#include <cstdint>

#include "core/dtype.h"

namespace msdump::stats {

// Unit roundoff u = 2^-p of a floating dtype (float32 2^-24, bfloat16 2^-8, float16 2^-11,
// float64 2^-53; complex: that of its parts); 0 for other dtypes.
double unit_roundoff(DType t);

// gamma_{n-1}(A) = (n-1) u / (1 - (n-1) u): the relative bound on any n-term sum in dtype A;
// +inf once (n-1) u >= 1, where no bound follows from the model.
double summation_gamma(std::uint64_t n, DType accumulation);

// The dtype msprobe's reductions accumulate in for a statistic of dtype T (see the model).
DType accumulation_dtype(DType statistic_dtype);

// Largest finite value and smallest positive subnormal of a floating dtype.
double largest_finite(DType t);
double smallest_subnormal(DType t);

// How far a computed Mean of n elements, all of magnitude <= max_abs, can lie outside
// [Min, Max]: gamma(n, A) * max_abs + 3 u(T) * max_abs + one subnormal of T. +inf when the
// model gives no bound.
double mean_range_slack(std::uint64_t n, double max_abs, DType statistic_dtype);
// The same with the sum accumulated in `accumulation` (torch 1.13 on CPU adds the elements of
// a non-contiguous 16-bit tensor in the 16-bit dtype itself).
double mean_range_slack(std::uint64_t n, double max_abs, DType statistic_dtype, DType accumulation);

// A float16 Mean of more than 65504 elements from torch 1.13 CPU is 0 or NaN: n converted to
// float16 is inf (https://github.com/pytorch/pytorch/issues/91597). True when `mean` is such a
// value.
bool is_float16_mean_overflow(double mean, std::uint64_t n, DType statistic_dtype);

// True when the reduction's partial results can leave T's (or A's) finite range, so a
// non-finite Mean (+-inf or NaN) or Norm (+inf) is what the framework produces for a tensor of
// finite values: sum_abs = sum|x| for a Mean, sum_sq = sum x^2 for a Norm (exact, in double).
bool can_overflow(double exact_sum, std::uint64_t n, DType statistic_dtype);

// Absolute error of a Norm from squares that underflow in the accumulation dtype A: each of
// the n squares loses at most half a subnormal, so sqrt(S) moves by at most
// sqrt(n * smallest_subnormal(A) / 2).
double norm_underflow_slack(std::uint64_t n, DType accumulation);

}  // namespace msdump::stats
