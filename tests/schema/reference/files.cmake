# The valijson reference validator (test-only) and the differential tests that use it; included by
# the top-level CMakeLists.txt after msdump_tests is defined, when MSDUMP_HAVE_REFERENCE_VALIDATOR
# (cmake/Dependencies.cmake). msdump itself never links it.
add_library(msdump_reference_validator STATIC tests/schema/reference/reference_validator.cpp)
target_include_directories(msdump_reference_validator PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/tests/schema/reference)
target_link_libraries(msdump_reference_validator PUBLIC msdump_lib PRIVATE valijson)
target_compile_definitions(msdump_reference_validator PUBLIC MSDUMP_HAVE_REFERENCE_VALIDATOR=1)

target_sources(msdump_tests PRIVATE
  tests/schema/reference/reference_engine_test.cpp
  tests/schema/reference/engines_agree_test.cpp)
target_link_libraries(msdump_tests PRIVATE msdump_reference_validator)
