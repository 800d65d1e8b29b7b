// pair_sums: the kernel of the SIMD tier cpu_dispatch.h chose.

#include "stats/pair_kernel.h"

#include "stats/cpu_dispatch.h"

namespace msdump::stats {

PairSums pair_sums(DType npu_dtype, std::span<const std::byte> npu, DType bench_dtype,
                   std::span<const std::byte> bench, std::size_t count, PairPrecision precision) {
  const std::byte* n = npu.data();
  const std::byte* b = bench.data();
  switch (simd_tier()) {
#if defined(MSDUMP_X86_TIERS)
    case SimdTier::avx512: return detail::tier_avx512::pair_sums_tier(npu_dtype, n, bench_dtype, b, count, precision);
    case SimdTier::avx2: return detail::tier_avx2::pair_sums_tier(npu_dtype, n, bench_dtype, b, count, precision);
#endif
    default: return detail::tier_sse2::pair_sums_tier(npu_dtype, n, bench_dtype, b, count, precision);
  }
}

}  // namespace msdump::stats
