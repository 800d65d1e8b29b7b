// The statistics kernels for the x86-64 baseline (and other architectures): the portable lane loop.
#define MSDUMP_STATS_TIER tier_sse2
#include "stats/stats_simd_kernels.inc"
