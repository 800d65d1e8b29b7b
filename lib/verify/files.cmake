list(APPEND MSDUMP_LIB_SOURCES
  lib/verify/finding.cpp
  lib/verify/finding_sink.cpp
  lib/verify/leaf_rules.cpp
  lib/verify/entry_checks.cpp
  lib/verify/profile_checks.cpp
  lib/verify/tensor_checks.cpp
  lib/verify/golden.cpp
  lib/verify/capture_golden.cpp
  lib/verify/cross_file.cpp
  lib/verify/schema_check.cpp
  lib/verify/event_pipe.cpp
  lib/verify/shape_store.cpp
  lib/verify/checked_shapes.cpp
  lib/verify/parallel_checks.cpp
  lib/verify/verify.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/verify/parallel_checks_test.cpp
  tests/verify/checked_shapes_test.cpp
  tests/verify/cross_file_test.cpp
  tests/verify/profile_checks_test.cpp
  tests/verify/capture_golden_test.cpp
  tests/verify/golden_outputs_verify_test.cpp)
