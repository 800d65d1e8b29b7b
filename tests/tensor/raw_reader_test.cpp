#include "tensor/raw_reader.h"

#include <doctest/doctest.h>

#include <cstring>

#include "tensor/tensor_reader.h"

using namespace msdump;
using namespace msdump::tensor;

TEST_SUITE("msdump::tensor") {
  TEST_CASE("raw: elements at an offset, with bounds and overflow checks") {
    std::string bytes = "hdr";
    const std::int16_t values[] = {1, -2, 3, 4, 5, 6};
    bytes.append(reinterpret_cast<const char*>(values), sizeof values);
    MemorySource src(as_bytes(bytes), "x.bin");
    auto info = raw_tensor_info(src, {DType::int16, {2, 3}, 3});
    REQUIRE(info);
    CHECK(info->format == TensorFormat::raw);
    CHECK(info->strides == std::vector<std::int64_t>{3, 1});
    auto t = load_tensor(src, *info);
    REQUIRE(t);
    CHECK(std::memcmp(t->data.data(), values, sizeof values) == 0);

    auto big = raw_tensor_info(src, {DType::int16, {2, 3}, 4});
    REQUIRE_FALSE(big);
    CHECK(big.error().message == "'x.bin': raw tensor [2,3] int16 needs 12 bytes at offset 4, the source has 15 bytes");
    auto overflow = raw_tensor_info(src, {DType::int64, {1LL << 40, 1LL << 30}, 0});
    REQUIRE_FALSE(overflow);
    CHECK(overflow.error().message ==
          "'x.bin': raw shape [1099511627776,1073741824] is negative or has more elements than fit in 64 bits");
    auto negative = raw_tensor_info(src, {DType::int8, {-1}, 0});
    REQUIRE_FALSE(negative);
    CHECK(negative.error().message == "'x.bin': raw shape [-1] is negative or has more elements than fit in 64 bits");
    auto swapped = raw_tensor_info(src, {DType::int16, {1}, 3, true});
    REQUIRE(swapped);
    auto s = load_tensor(src, *swapped);
    REQUIRE(s);
    std::int16_t v = 0;
    std::memcpy(&v, s->data.data(), 2);
    CHECK(v == 256);
  }

  TEST_CASE("raw: describe_raw into a reused TensorInfo leaves nothing of the previous tensor") {
    std::string bytes(64, '\0');
    MemorySource src(as_bytes(bytes), "blob.bin");
    TensorInfo info;
    info.format = TensorFormat::pt;  // what a .pt header left behind
    info.shape = {9, 9, 9};
    info.strides = {81, 9, 1};
    info.storage_offset = 5;
    info.requires_grad = true;
    info.location = "npu:0";
    REQUIRE(describe_raw(src, DType::float32, std::vector<std::int64_t>{2, 4}, 16, false, info));
    auto fresh = raw_tensor_info(src, {DType::float32, {2, 4}, 16});
    REQUIRE(fresh);
    CHECK(info.format == fresh->format);
    CHECK(info.dtype == fresh->dtype);
    CHECK(info.shape == fresh->shape);
    CHECK(info.strides == fresh->strides);
    CHECK(info.storage_offset == 0);
    CHECK(info.data_offset == 16);
    CHECK(info.storage_bytes == 32);
    CHECK_FALSE(info.requires_grad);
    CHECK(info.location.empty());
    // 0-dim, then a failure that names the source
    REQUIRE(describe_raw(src, DType::int64, std::vector<std::int64_t>{}, 8, false, info));
    CHECK(info.shape.empty());
    CHECK(info.strides.empty());
    CHECK(info.nbytes() == 8);
    auto beyond = describe_raw(src, DType::float64, std::vector<std::int64_t>{8}, 8, false, info);
    REQUIRE_FALSE(beyond);
    CHECK(beyond.error().message == "'blob.bin': raw tensor [8] float64 needs 64 bytes at offset 8, the source has 64 bytes");
  }
}

