# Hostile-input tests (tests/hostile/): included by the top CMakeLists.txt.
list(APPEND MSDUMP_TEST_SOURCES
  tests/hostile/hostile_tensor_test.cpp
  tests/hostile/hostile_json_test.cpp
  tests/hostile/hostile_convert_test.cpp
  tests/hostile/hostile_verify_test.cpp
  tests/hostile/hostile_anomalies_test.cpp)
