list(APPEND MSDUMP_LIB_SOURCES
  lib/convert/data_mode.cpp
  lib/convert/scope_filter.cpp
  lib/convert/risk_level.cpp
  lib/convert/entry_order.cpp
  lib/convert/tensor_source.cpp
  lib/convert/ndarray_stats.cpp
  lib/convert/leaf_converter.cpp
  lib/convert/capture_entry.cpp
  lib/convert/msprobe_dump_input.cpp
  lib/convert/tensor_summary.cpp
  lib/convert/plan.cpp
  lib/convert/capture_index.cpp
  lib/convert/capture_entries.cpp
  lib/convert/convert.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/convert/data_mode_test.cpp
  tests/convert/scope_filter_test.cpp
  tests/convert/risk_level_test.cpp
  tests/convert/many_batches_test.cpp
  tests/convert/tensor_source_test.cpp
  tests/convert/entry_order_test.cpp
  tests/convert/capture_entry_test.cpp
  tests/convert/msprobe_dump_input_test.cpp)
