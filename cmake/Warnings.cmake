# INTERFACE target carrying the project's warning flags (ccache's model).
add_library(msdump_warnings INTERFACE)
target_compile_options(msdump_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wnull-dereference
  -Wimplicit-fallthrough -Wformat=2)
if(MSDUMP_WERROR)
  target_compile_options(msdump_warnings INTERFACE -Werror)
endif()
