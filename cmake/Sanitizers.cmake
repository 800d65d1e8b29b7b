# INTERFACE target that turns on the sanitizers chosen for everything linking it:
#   MSDUMP_SANITIZE  AddressSanitizer + UndefinedBehaviorSanitizer
#   MSDUMP_TSAN      ThreadSanitizer (its own build directory: it cannot be combined with ASan);
#                    `ctest -L threaded` runs the tests that exercise threads.
option(MSDUMP_TSAN "Build with ThreadSanitizer" OFF)
if(MSDUMP_SANITIZE AND MSDUMP_TSAN)
  message(FATAL_ERROR "MSDUMP_SANITIZE and MSDUMP_TSAN cannot be combined: use two build directories")
endif()
add_library(msdump_sanitizers INTERFACE)
if(MSDUMP_SANITIZE)
  target_compile_options(msdump_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(msdump_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
if(MSDUMP_TSAN)
  # (g++ 12 sees "potential null pointer dereference" in std::string moves instrumented by TSan
  # at -O2, a false alarm that -Werror would turn into a failed build.)
  target_compile_options(msdump_sanitizers INTERFACE -fsanitize=thread -fno-omit-frame-pointer -Wno-null-dereference)
  target_link_options(msdump_sanitizers INTERFACE -fsanitize=thread)
endif()

# Runtime options for every test registered so far (called after the last add_test; the Python
# drivers pass them on to the msdump they start, sbatch to its jobs): a leak or any ASan/UBSan
# report ends the process with exit code 86, which no test mistakes for msdump's own 0/1/2.
function(msdump_sanitizer_test_environment)
  if(NOT MSDUMP_SANITIZE)
    return()
  endif()
  get_property(tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
  set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT
    "ASAN_OPTIONS=detect_leaks=1:exitcode=86"
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86")
endfunction()
