list(APPEND MSDUMP_LIB_SOURCES
  lib/pyjson/json_value.cpp
  lib/pyjson/text_position.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/pyjson/json_value_test.cpp)
