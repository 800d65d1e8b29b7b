list(APPEND MSDUMP_LIB_SOURCES
  lib/schema/violation.cpp
  lib/schema/embedded_schemas.cpp
  lib/schema/schema_choice.cpp
  lib/schema/schema_regex.cpp
  lib/schema/schema_regex_set.cpp
  lib/schema/compiled_schema.cpp
  lib/schema/compiled_validator.cpp
  lib/schema/verdict_inputs.cpp
  lib/schema/schema_validator.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/schema/schema_regex_test.cpp
  tests/schema/state_numbers_test.cpp
  tests/schema/schema_regex_set_test.cpp
  tests/schema/embedded_schemas_test.cpp
  tests/schema/compiled_schema_test.cpp
  tests/schema/verdict_inputs_test.cpp
  tests/schema/samples_validate_test.cpp
  tests/schema/dump_mutations_test.cpp)
# The differential tests against valijson are tests/schema/reference/files.cmake, included by the
# top-level CMakeLists.txt when MSDUMP_REFERENCE_VALIDATOR finds valijson.
