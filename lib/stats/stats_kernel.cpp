// simd_groups and scalar_elements: the kernels of the tier cpu_dispatch.h chose.

#include "stats/stats_kernel.h"

#include "stats/cpu_dispatch.h"

namespace msdump::stats::detail {

void simd_groups(DType dtype, bool float32_elements, bool abs_sum, const std::byte* p, std::size_t groups,
                 const KernelState& st) {
  switch (simd_tier()) {
#if defined(MSDUMP_X86_TIERS)
    case SimdTier::avx512: return tier_avx512::simd_groups(dtype, float32_elements, abs_sum, p, groups, st);
    case SimdTier::avx2: return tier_avx2::simd_groups(dtype, float32_elements, abs_sum, p, groups, st);
#endif
    default: return tier_sse2::simd_groups(dtype, float32_elements, abs_sum, p, groups, st);
  }
}

void scalar_elements(DType dtype, bool float32_elements, const std::byte* p, std::size_t n, const KernelState& st) {
  switch (simd_tier()) {
#if defined(MSDUMP_X86_TIERS)
    case SimdTier::avx512: return tier_avx512::scalar_elements(dtype, float32_elements, p, n, st);
    case SimdTier::avx2: return tier_avx2::scalar_elements(dtype, float32_elements, p, n, st);
#endif
    default: return tier_sse2::scalar_elements(dtype, float32_elements, p, n, st);
  }
}

}  // namespace msdump::stats::detail
