# Profile-guided optimization, in two stages in the same build directory (the profile files are
# named after the object files). scripts/build.sh --pgo runs both with scripts/pgo_train.sh in
# between; docs/performance.md "PGO build" has what it buys.
#   MSDUMP_PGO=generate  instrumented code; every run adds to the profiles in MSDUMP_PGO_DIR
#   MSDUMP_PGO=use       optimized with those profiles; functions the training never ran are
#                        optimized as in a plain build (-fprofile-partial-training)
set(MSDUMP_PGO "" CACHE STRING "Profile-guided optimization stage: generate, use, or empty (off)")
set_property(CACHE MSDUMP_PGO PROPERTY STRINGS "" generate use)
set(MSDUMP_PGO_DIR "${CMAKE_BINARY_DIR}/pgo-profile" CACHE PATH "Where PGO profiles are written (generate) and read (use)")

add_library(msdump_pgo INTERFACE)
if(MSDUMP_PGO STREQUAL "generate")
  target_compile_options(msdump_pgo INTERFACE -fprofile-generate -fprofile-update=atomic "-fprofile-dir=${MSDUMP_PGO_DIR}")
  target_link_options(msdump_pgo INTERFACE -fprofile-generate)
elseif(MSDUMP_PGO STREQUAL "use")
  if(NOT EXISTS "${MSDUMP_PGO_DIR}")
    message(FATAL_ERROR "MSDUMP_PGO=use: no profiles in ${MSDUMP_PGO_DIR} (build with MSDUMP_PGO=generate and run the training first)")
  endif()
  # Sources changed since the training only lose their profile: a warning, not an error.
  target_compile_options(msdump_pgo INTERFACE -fprofile-use -fprofile-partial-training -Wno-missing-profile
                         -Wno-error=coverage-mismatch "-fprofile-dir=${MSDUMP_PGO_DIR}")
elseif(NOT MSDUMP_PGO STREQUAL "")
  message(FATAL_ERROR "MSDUMP_PGO must be generate, use or empty, not '${MSDUMP_PGO}'")
endif()
