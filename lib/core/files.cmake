list(APPEND MSDUMP_LIB_SOURCES
  lib/core/error.cpp
  lib/core/dtype.cpp
  lib/core/byte_source.cpp
  lib/core/beneath.cpp
  lib/core/temp_dir.cpp
  lib/core/atomic_file.cpp
  lib/core/logger.cpp
  lib/core/profile.cpp
  lib/core/scalar.cpp
  lib/core/shape_table.cpp
  lib/core/heap_growth.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/core/dtype_test.cpp
  tests/core/byte_source_test.cpp
  tests/core/beneath_test.cpp
  tests/core/temp_dir_test.cpp
  tests/core/atomic_file_test.cpp
  tests/core/name_table_test.cpp
  tests/core/ordered_pool_test.cpp
  tests/core/heap_growth_test.cpp)
