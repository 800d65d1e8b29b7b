# The SIMD tiers of lib/stats/cpu_dispatch.h. The library is built for the x86-64 baseline;
# each lib/ folder lists the sources to compile again for a higher tier in
# MSDUMP_SIMD_<TIER>_SOURCES, and they become an object library with that tier's flags, linked
# into msdump_lib. Code in these files must stay in its tier's namespace: an inline function
# or template shared with baseline code could be emitted with the tier's instructions and
# picked by the linker for every caller (the simd_tier_symbols test checks this).
set(MSDUMP_SIMD_TIER_TARGETS "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  target_compile_definitions(msdump_lib PRIVATE MSDUMP_X86_TIERS=1)
  set(msdump_simd_flags_SSE42 -march=x86-64-v2 -mpclmul)
  set(msdump_simd_flags_AVX2 -march=x86-64-v3 -mpclmul)
  set(msdump_simd_flags_AVX512 -march=x86-64-v4 -mpclmul)
  foreach(tier SSE42 AVX2 AVX512)
    if(NOT MSDUMP_SIMD_${tier}_SOURCES)
      continue()
    endif()
    string(TOLOWER ${tier} lower)
    set(target msdump_simd_${lower})
    add_library(${target} OBJECT ${MSDUMP_SIMD_${tier}_SOURCES})
    target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/lib)
    target_compile_definitions(${target} PRIVATE MSDUMP_X86_TIERS=1)
    target_compile_options(${target} PRIVATE ${msdump_simd_flags_${tier}} -mtune=generic -ffp-contract=off)
    target_link_libraries(${target} PRIVATE msdump_warnings msdump_sanitizers msdump_pgo xsimd)
    target_sources(msdump_lib PRIVATE $<TARGET_OBJECTS:${target}>)
    list(APPEND MSDUMP_SIMD_TIER_TARGETS ${target})
  endforeach()
endif()
