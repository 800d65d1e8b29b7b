list(APPEND MSDUMP_LIB_SOURCES
  lib/dump/entry_name.cpp
  lib/dump/data_name.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/dump/entry_name_test.cpp
  tests/dump/data_name_test.cpp)
