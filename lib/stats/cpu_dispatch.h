#pragma once
// Which SIMD kernels this process runs. The default build targets the x86-64 baseline; the hot
// kernels (statistics, CRC-32) are also compiled for higher instruction sets in separate
// translation units, and the best tier the CPU supports is chosen once, at first use.
//   sse2    the x86-64 baseline: every CPU (the statistics' portable lane loop, CRC-32 tables)
//   sse4.2  + SSE4.1/4.2, POPCNT and PCLMULQDQ (x86-64-v2 class): CRC-32 by carry-less multiply
//   avx2    + AVX2, FMA, F16C (x86-64-v3): xsimd statistics kernels
//   avx512  + AVX-512 F/BW/DQ/VL (x86-64-v4): the same kernels on 512-bit registers
// The environment variable MSDUMP_SIMD=<tier> caps the tier (to test a lower tier on a newer
// CPU); asking for a tier the CPU lacks is an error. Every tier gives bit-identical results:
// the kernels' summation order is defined by 32 lanes, whatever the register width.

#include <optional>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace msdump::stats {

enum class SimdTier { sse2, sse4_2, avx2, avx512 };

std::string_view simd_tier_name(SimdTier tier);
std::optional<SimdTier> parse_simd_tier(std::string_view name);

// The best tier this CPU (and this build) supports.
SimdTier detected_simd_tier();

// The tier for a value of MSDUMP_SIMD (nullptr or empty: unset) on a CPU whose best is
// `detected`. invalid_input naming the variable for an unknown name or a tier above `detected`.
Result<SimdTier> choose_simd_tier(const char* env_value, SimdTier detected);

// choose_simd_tier for this process's MSDUMP_SIMD and CPU (the CLI reports its error at start).
Result<SimdTier> configured_simd_tier();

// The tier the kernels use: configured_simd_tier(), or detected_simd_tier() when that failed.
SimdTier simd_tier();

// Tiers this CPU can run, lowest first (for tests that compare every tier).
std::vector<SimdTier> runnable_simd_tiers();

// Switches the kernels to `tier` (tests). invalid_input when the CPU cannot run it.
Result<void> use_simd_tier(SimdTier tier);

}  // namespace msdump::stats
