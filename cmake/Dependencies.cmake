# All dependencies come from Debian packages (scripts/install-deps.sh installs them). The README's
# dependency table says what each is used for; simdjson and xtensor are not used (README).
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
# Debian's xsimd target names xtl as an interface library (headers only; xsimd does not need it
# otherwise): its package must be found for the target to resolve.
find_package(xtl CONFIG REQUIRED)
find_package(xsimd CONFIG REQUIRED)
find_package(fmt CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(doctest CONFIG REQUIRED)
# yaml-cpp: compare's mapping files (-dm, -cm, --api-mapping), read in lib/compare/yaml_tree.cpp only.
find_package(yaml-cpp CONFIG REQUIRED)
# valijson is test-only: the reference JSON Schema validator the compiled one is tested against
# (tests/schema/reference/, the differential tests and bench_schema's valijson run). AUTO builds
# it when valijson is installed (scripts/install-deps.sh --with-reference), ON requires valijson,
# OFF never builds it. msdump itself never links valijson.
set(MSDUMP_REFERENCE_VALIDATOR AUTO CACHE STRING
    "Build the valijson reference validator and the differential schema tests: AUTO, ON or OFF")
set_property(CACHE MSDUMP_REFERENCE_VALIDATOR PROPERTY STRINGS AUTO ON OFF)
if(MSDUMP_REFERENCE_VALIDATOR STREQUAL "ON")
  find_package(valijson CONFIG REQUIRED)
elseif(MSDUMP_REFERENCE_VALIDATOR STREQUAL "AUTO")
  find_package(valijson CONFIG QUIET)
elseif(NOT MSDUMP_REFERENCE_VALIDATOR STREQUAL "OFF")
  message(FATAL_ERROR "MSDUMP_REFERENCE_VALIDATOR must be AUTO, ON or OFF, not '${MSDUMP_REFERENCE_VALIDATOR}'")
endif()
if(TARGET valijson AND NOT MSDUMP_REFERENCE_VALIDATOR STREQUAL "OFF")
  set(MSDUMP_HAVE_REFERENCE_VALIDATOR ON)
  message(STATUS "valijson reference validator: built (differential schema tests included)")
else()
  set(MSDUMP_HAVE_REFERENCE_VALIDATOR OFF)
  message(STATUS "valijson reference validator: not built (MSDUMP_REFERENCE_VALIDATOR=${MSDUMP_REFERENCE_VALIDATOR})")
endif()
# libxlsxwriter writes `msdump compare --xlsx` workbooks (lib/compare/xlsx_writer.cpp); Debian
# ships a pkg-config file, no CMake package. zlib (which libxlsxwriter needs anyway) lets the
# unit tests read the written workbook back.
find_package(PkgConfig REQUIRED)
pkg_check_modules(xlsxwriter REQUIRED IMPORTED_TARGET xlsxwriter)
find_package(ZLIB REQUIRED)
# xxHash hashes compare's row keys and entry digests (lib/compare/row_match.cpp), compiled inline
# (XXH_INLINE_ALL): the header is needed to build, no library at run time.
find_path(MSDUMP_XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
