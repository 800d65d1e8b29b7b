// The pair kernel for x86-64-v4 (AVX-512 F/BW/DQ/VL), compiled with that tier's flags (cmake/SimdTiers.cmake).
#define MSDUMP_PAIR_TIER tier_avx512
#include "stats/pair_simd_kernels.inc"
