list(APPEND MSDUMP_LIB_SOURCES
  lib/stats/float_convert.cpp
  lib/stats/crc32.cpp
  lib/stats/xor_checksum.cpp
  lib/stats/exact_sum.cpp
  lib/stats/accumulator.cpp
  lib/stats/cpu_dispatch.cpp
  lib/stats/stats_kernel.cpp
  lib/stats/stats_simd_sse2.cpp
  lib/stats/pair_kernel.cpp
  lib/stats/pair_simd_sse2.cpp
  lib/stats/stats_reference.cpp
  lib/stats/leaf_stats.cpp
  lib/stats/compute_stats.cpp
  lib/stats/tolerance.cpp
  lib/stats/rounding_bounds.cpp)
# Compiled again for higher SIMD tiers (cmake/SimdTiers.cmake).
list(APPEND MSDUMP_SIMD_SSE42_SOURCES lib/stats/crc32_pclmul.cpp)
list(APPEND MSDUMP_SIMD_AVX2_SOURCES lib/stats/stats_simd_avx2.cpp lib/stats/pair_simd_avx2.cpp)
list(APPEND MSDUMP_SIMD_AVX512_SOURCES lib/stats/stats_simd_avx512.cpp lib/stats/pair_simd_avx512.cpp)
# The pair kernel's selections become blends only when floating-point operations may be
# assumed not to trap (no value changes: the program never reads the exception flags).
set_source_files_properties(lib/stats/pair_simd_sse2.cpp lib/stats/pair_simd_avx2.cpp lib/stats/pair_simd_avx512.cpp
                            PROPERTIES COMPILE_OPTIONS -fno-trapping-math)
list(APPEND MSDUMP_TEST_SOURCES
  tests/stats/cpu_dispatch_test.cpp
  tests/stats/crc32_test.cpp
  tests/stats/xor_checksum_test.cpp
  tests/stats/float_convert_test.cpp
  tests/stats/exact_sum_test.cpp
  tests/stats/accumulator_test.cpp
  tests/stats/leaf_stats_test.cpp
  tests/stats/tolerance_test.cpp
  tests/stats/rounding_bounds_test.cpp
  tests/stats/manifest_test.cpp)
