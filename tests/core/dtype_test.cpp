#include "core/dtype.h"

#include <doctest/doctest.h>

using namespace msdump;

TEST_SUITE("msdump::core") {
  TEST_CASE("dtype table is in enum order and names round-trip") {
    for (const auto& info : all_dtypes()) {
      CHECK(&dtype_info(info.id) == &info);
      CHECK(dtype_from_name(info.name) == info.id);
      CHECK(dtype_from_torch_name(info.torch_name) == info.id);
      CHECK(dtype_from_mindspore_name(info.mindspore_name) == info.id);
      CHECK(dtype_from_any_name(info.mindspore_name) == info.id);
    }
  }
  TEST_CASE("torch aliases and storages resolve") {
    CHECK(dtype_from_torch_name("torch.half") == DType::float16);
    CHECK(dtype_from_torch_name("long") == DType::int64);
    CHECK(dtype_from_torch_storage("BFloat16Storage") == DType::bfloat16);
    CHECK(dtype_from_torch_storage("ComplexDoubleStorage") == DType::complex128);
    CHECK_FALSE(dtype_from_torch_storage("QInt8Storage").has_value());
    CHECK_FALSE(dtype_from_any_name("").has_value());
    CHECK_FALSE(dtype_from_any_name("Float33").has_value());
  }
  TEST_CASE("itemsizes") {
    CHECK(itemsize(DType::bfloat16) == 2);
    CHECK(itemsize(DType::complex128) == 16);
    CHECK(itemsize(DType::float8_e5m2) == 1);
  }
}
