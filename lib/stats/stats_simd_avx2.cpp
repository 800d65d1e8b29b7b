// The statistics kernels for x86-64-v3 (AVX2, FMA, F16C), compiled with that tier's flags (cmake/SimdTiers.cmake).
#define MSDUMP_STATS_TIER tier_avx2
#include "stats/stats_simd_kernels.inc"
