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
}
