list(APPEND MSDUMP_LIB_SOURCES
  lib/pyjson/json_value.cpp
  lib/pyjson/text_position.cpp
  lib/pyjson/pyfloat.cpp
  lib/pyjson/json_writer.cpp
  lib/pyjson/json_cursor.cpp
  lib/pyjson/json_reader.cpp
  lib/pyjson/plain_reader.cpp
  lib/pyjson/source_window.cpp
  lib/pyjson/dump_json_stream.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/pyjson/json_value_test.cpp
  tests/pyjson/tree_arena_test.cpp
  tests/pyjson/pyfloat_test.cpp
  tests/pyjson/eight_digits_test.cpp
  tests/pyjson/size_hints_test.cpp
  tests/pyjson/json_writer_test.cpp
  tests/pyjson/json_reader_test.cpp
  tests/pyjson/plain_reader_test.cpp
  tests/pyjson/plain_scanner_test.cpp
  tests/pyjson/number_tokens_test.cpp
  tests/pyjson/text_shape_test.cpp
  tests/pyjson/container_skip_test.cpp
  tests/pyjson/plain_ascii_test.cpp
  tests/pyjson/dump_json_stream_test.cpp
  tests/pyjson/samples_roundtrip_test.cpp)
