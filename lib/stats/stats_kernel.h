#pragma once
// Internal to lib/stats: the interface between the Accumulator and its kernels.
//   simd_groups      (stats_kernel.cpp)  whole groups of 64 elements, vectorised;
//   scalar_elements  (stats_kernel.cpp)  any number of elements, one by one (tails);
//   make_moments     (accumulator.cpp)   turns keys and sums into Moments (shared with the
//                                        reference so both report identically).
// The first two call the kernels of the SIMD tier cpu_dispatch.h chose; each tier's kernels are
// one compilation of stats_simd_kernels.inc (stats_simd_<tier>.cpp).

#include <cstddef>
#include <cstdint>

#include "core/dtype.h"
#include "stats/accumulator.h"

namespace msdump::stats::detail {

inline constexpr std::size_t k_lanes = 32;

// Where a kernel accumulates: k_lanes partial sums each (a kernel may use fewer lanes), and the
// running max/min keys (stats_element.h).
struct KernelState {
  double* sum;
  double* sum_sq;
  double* sum_abs;
  std::int64_t* max_key;
  std::int64_t* min_key;
};

// Folds `groups` * 64 elements starting at p into the state. The lane an element goes to
// depends only on its index within the group, so results do not depend on how the caller cut
// the stream. Without `abs_sum` the kernels may leave the sums of |x| alone.
void simd_groups(DType dtype, bool float32_elements, bool abs_sum, const std::byte* p, std::size_t groups, const KernelState& st);

// Folds n elements one by one into lane 0 of the state.
void scalar_elements(DType dtype, bool float32_elements, const std::byte* p, std::size_t n, const KernelState& st);

// The kernels of one tier (namespaces tier_sse2, tier_avx2, tier_avx512).
#define MSDUMP_STATS_TIER_KERNELS(tier)                                                                      \
  namespace tier {                                                                                         \
  void simd_groups(DType dtype, bool float32_elements, bool abs_sum, const std::byte* p, std::size_t groups, \
                   const KernelState& st);                                                                 \
  void scalar_elements(DType dtype, bool float32_elements, const std::byte* p, std::size_t n,              \
                       const KernelState& st);                                                             \
  }
MSDUMP_STATS_TIER_KERNELS(tier_sse2)
MSDUMP_STATS_TIER_KERNELS(tier_avx2)
MSDUMP_STATS_TIER_KERNELS(tier_avx512)
#undef MSDUMP_STATS_TIER_KERNELS

// Initial keys: the identities of max and min.
inline constexpr std::int64_t k_no_max_key = INT64_MIN;
inline constexpr std::int64_t k_no_min_key = INT64_MAX;

// Builds Moments from the extreme keys and the (rounded) sums.
Moments make_moments(DType dtype, std::uint64_t count, std::uint64_t byte_count, std::int64_t max_key,
                     std::int64_t min_key, double sum, double sum_sq, double sum_abs);

}  // namespace msdump::stats::detail
