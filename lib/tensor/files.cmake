list(APPEND MSDUMP_LIB_SOURCES
  lib/tensor/tensor.cpp
  lib/tensor/zip_directory.cpp
  lib/tensor/pickle_reader.cpp
  lib/tensor/pt_reader.cpp
  lib/tensor/npy_reader.cpp
  lib/tensor/raw_reader.cpp
  lib/tensor/tensor_reader.cpp
  lib/tensor/zip_writer.cpp
  lib/tensor/npy_writer.cpp
  lib/tensor/pt_writer.cpp)
list(APPEND MSDUMP_TEST_SOURCES
  tests/tensor/tensor_test_util.cpp
  tests/tensor/zip_directory_test.cpp
  tests/tensor/pickle_reader_test.cpp
  tests/tensor/pt_reader_test.cpp
  tests/tensor/npy_reader_test.cpp
  tests/tensor/raw_reader_test.cpp
  tests/tensor/tensor_reader_test.cpp
  tests/tensor/tensor_writer_test.cpp)
