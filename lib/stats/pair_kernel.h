#pragma once
// One pass over two equally long arrays (an NPU tensor and its bench partner) that gathers what
// the tensor-mode compare metrics need (compare/tensor_metrics.h): the dot product, both sums of
// squares, the sum of squared differences and the largest |n - b| (float64), and the relative
// error r = |(n - b) / b| (its maximum and how many elements are below 0.001 and 0.005).
//
// Elements are read in their own dtype (bool as 0/1) and converted block by block: no
// converted copy of a tensor is made. The relative error is computed in float32 or float64
// (PairPrecision); where b == 0, the machine epsilon of that precision is added to both n and b
// first. A position where both sides are NaN, or both infinite (either sign), counts as 0 on
// both sides; any other NaN/inf placement sets non_finite_mismatch (the other fields are then
// meaningless).
//
// The kernels are compiled once per SIMD tier (pair_simd_<tier>.cpp, cpu_dispatch.h picks one).
// Every tier gives bit-identical results: element i goes to accumulator lane i % 16, each lane
// sums a block of 1,024 elements from zero before adding it to its running total, and the
// lanes are added in lane order at the end (no fused multiply-add anywhere).

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/dtype.h"

namespace msdump::stats {

// The precision of the relative error. float32 is meant for dtypes float32 holds exactly
// (float16, bfloat16, float32, float8); other dtypes would be rounded to float32 first.
enum class PairPrecision : std::uint8_t { float32, float64 };

struct PairSums {
  double dot = 0.0;             // sum of n * b
  double npu_sq = 0.0;          // sum of n * n
  double bench_sq = 0.0;        // sum of b * b
  double diff_sq = 0.0;         // sum of (n - b)^2
  double max_abs_diff = 0.0;    // max |n - b| (0 for no elements)
  double max_relative = 0.0;    // max r, exactly as computed in the pair's precision
  std::uint64_t below_thousandth = 0;        // r < 0.001 (the threshold in the pair's precision)
  std::uint64_t below_five_thousandths = 0;  // r < 0.005
  bool non_finite = false;            // some element of either side is NaN or +-inf
  bool non_finite_mismatch = false;   // the NaN or the inf positions of the two sides differ
};

// The sums over `count` elements of `npu` (of npu_dtype) and `bench` (of bench_dtype), C order,
// native byte order; each span holds at least count * itemsize bytes. Complex dtypes are read
// as their real part.
PairSums pair_sums(DType npu_dtype, std::span<const std::byte> npu, DType bench_dtype,
                   std::span<const std::byte> bench, std::size_t count, PairPrecision precision);

namespace detail {
// The kernels of one tier (namespaces tier_sse2, tier_avx2, tier_avx512).
#define MSDUMP_PAIR_TIER_KERNEL(tier)                                                                   \
  namespace tier {                                                                                      \
  PairSums pair_sums_tier(DType npu_dtype, const std::byte* npu, DType bench_dtype, const std::byte* bench, \
                          std::size_t count, PairPrecision precision);                                  \
  }
MSDUMP_PAIR_TIER_KERNEL(tier_sse2)
MSDUMP_PAIR_TIER_KERNEL(tier_avx2)
MSDUMP_PAIR_TIER_KERNEL(tier_avx512)
#undef MSDUMP_PAIR_TIER_KERNEL
}  // namespace detail

}  // namespace msdump::stats
