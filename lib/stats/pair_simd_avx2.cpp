// The pair kernel for x86-64-v3 (AVX2, FMA, F16C), compiled with that tier's flags (cmake/SimdTiers.cmake).
#define MSDUMP_PAIR_TIER tier_avx2
#include "stats/pair_simd_kernels.inc"
