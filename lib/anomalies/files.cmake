list(APPEND MSDUMP_LIB_SOURCES
  lib/anomalies/leaf_verdict.cpp
  lib/anomalies/value_counts.cpp
  lib/anomalies/entry_scan.cpp
  lib/anomalies/clean_entry.cpp
  lib/anomalies/block_scan.cpp
  lib/anomalies/anomaly.cpp
  lib/anomalies/origin_tracker.cpp
  lib/anomalies/module_tree.cpp
  lib/anomalies/nested_origins.cpp
  lib/anomalies/dump_scan.cpp
  lib/anomalies/tree_summary.cpp
  lib/anomalies/tree_scan.cpp
  lib/anomalies/anomaly_report.cpp
  lib/anomalies/anomaly_report_json.cpp
  lib/anomalies/anomaly_report_junit.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/anomalies/leaf_verdict_test.cpp
  tests/anomalies/value_counts_test.cpp
  tests/anomalies/entry_scan_test.cpp
  tests/anomalies/clean_entry_test.cpp
  tests/anomalies/block_scan_test.cpp
  tests/anomalies/origin_tracker_test.cpp
  tests/anomalies/module_tree_test.cpp
  tests/anomalies/nested_origins_test.cpp
  tests/anomalies/tree_summary_test.cpp
  tests/anomalies/dump_scan_test.cpp
  tests/anomalies/anomaly_report_test.cpp)
