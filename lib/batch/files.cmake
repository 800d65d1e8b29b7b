list(APPEND MSDUMP_LIB_SOURCES
  lib/batch/work_list.cpp
  lib/batch/progress.cpp
  lib/batch/batch_runner.cpp
  lib/batch/run_identity.cpp
  lib/batch/batch_report.cpp
  lib/batch/report_merge.cpp
  lib/batch/batch.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/batch/work_list_test.cpp
  tests/batch/batch_report_test.cpp
  tests/batch/run_identity_test.cpp
  tests/batch/report_merge_test.cpp
  tests/batch/batch_runner_test.cpp)
