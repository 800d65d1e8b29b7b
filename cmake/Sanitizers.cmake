# INTERFACE target that turns on ASan + UBSan for everything linking it.
add_library(msdump_sanitizers INTERFACE)
if(MSDUMP_SANITIZE)
  target_compile_options(msdump_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(msdump_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
