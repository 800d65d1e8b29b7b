# INTERFACE target carrying the project's warning flags (ccache's model).
add_library(msdump_warnings INTERFACE)
target_compile_options(msdump_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wnull-dereference
  -Wimplicit-fallthrough -Wformat=2)
# GCC 12 reports -Wrestrict false positives inside libstdc++'s std::string concatenation at -O3
# (GCC bug 105329); they fire in unrelated code as inlining changes, so the check is off for g++.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(msdump_warnings INTERFACE -Wno-restrict)
endif()
if(MSDUMP_WERROR)
  target_compile_options(msdump_warnings INTERFACE -Werror)
endif()
