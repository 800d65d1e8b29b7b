// The pair kernel for the x86-64 baseline (and other architectures).
#define MSDUMP_PAIR_TIER tier_sse2
#include "stats/pair_simd_kernels.inc"
