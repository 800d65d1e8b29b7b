list(APPEND MSDUMP_LIB_SOURCES
  lib/trace/event_scan.cpp
  lib/trace/line_reader.cpp
  lib/trace/meta_event_parse.cpp
  lib/trace/trace_event.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/trace/event_scan_test.cpp
  tests/trace/line_reader_test.cpp
  tests/trace/meta_event_parse_test.cpp
  tests/trace/trace_event_test.cpp)
