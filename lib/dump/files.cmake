list(APPEND MSDUMP_LIB_SOURCES
  lib/dump/entry_name.cpp
  lib/dump/match_key.cpp
  lib/dump/data_name.cpp
  lib/dump/dump_paths.cpp
  lib/dump/entry_workers.cpp
  lib/dump/format_signals.cpp
  lib/dump/tensor_leaf.cpp
  lib/dump/leaf_walk.cpp
  lib/dump/frame_lists.cpp
  lib/dump/section_text.cpp
  lib/dump/stack_model.cpp
  lib/dump/construct_model.cpp
  lib/dump/dump_writer.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/dump/entry_name_test.cpp
  tests/dump/match_key_test.cpp
  tests/dump/data_name_test.cpp
  tests/dump/dump_paths_test.cpp
  tests/dump/entry_workers_test.cpp
  tests/dump/format_signals_test.cpp
  tests/dump/stack_model_test.cpp
  tests/dump/construct_model_test.cpp
  tests/dump/section_text_test.cpp
  tests/dump/leaf_walk_test.cpp
  tests/dump/dump_writer_test.cpp)
