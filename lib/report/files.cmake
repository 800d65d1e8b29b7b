list(APPEND MSDUMP_LIB_SOURCES
  lib/report/text_util.cpp
  lib/report/report_render.cpp)
list(APPEND MSDUMP_TEST_SOURCES)
