#include "anomalies/value_counts.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <vector>

#include "pyjson/json_reader.h"
#include "tensor/npy_writer.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

template <typename T>
tensor::Tensor make(DType dtype, const std::vector<T>& values, std::size_t parts = 1) {
  tensor::Tensor t;
  t.dtype = dtype;
  t.shape = {static_cast<std::int64_t>(values.size() / parts)};
  t.data.resize(values.size() * sizeof(T));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("exact counts per dtype") {
    const float inf = INFINITY, nan = NAN;
    auto f32 = count_values(make<float>(DType::float32, {1, -inf, -inf, nan, 2, -inf, -7}).view());
    CHECK(f32 == ValueCounts{1, 0, 3, 7, 7.0});
    CHECK(describe_counts(f32) == "3 of 7 values -Inf, 1 NaN");
    // float16: 0x7c00 +inf, 0xfc00 -inf, 0x7e00 NaN, 0x7bff 65504
    auto f16 = count_values(make<std::uint16_t>(DType::float16, {0x7c00, 0xfc00, 0x7e00, 0x7bff}).view());
    CHECK(f16 == ValueCounts{1, 1, 1, 4, 65504.0});
    CHECK(describe_counts(f16) == "1 of 4 values NaN, 1 +Inf, 1 -Inf");
    auto bf16 = count_values(make<std::uint16_t>(DType::bfloat16, {0x7f80, 0x3f80}).view());
    CHECK(bf16 == ValueCounts{0, 1, 0, 2, 1.0});
    auto c64 = count_values(make<float>(DType::complex64, {1, nan, -inf, 0, 3, 4}, 2).view());
    CHECK(c64 == ValueCounts{1, 0, 1, 3, 4.0});
    auto ints = count_values(make<std::int32_t>(DType::int32, {1, 2, 3}).view());
    CHECK(ints.total == 3);
    CHECK_FALSE(ints.flags().any());
    CHECK(describe_counts(ints).empty());
    CHECK(describe_counts(ValueCounts{1, 0, 0, 1, 0}) == "1 of 1 value NaN");
  }

  TEST_CASE("counts from a leaf's tensor file; missing and mismatched files are errors naming the file") {
    testing::TempDir dir;
    const auto tdir = dir.path() / "dump_tensor_data";
    std::filesystem::create_directories(tdir);
    const float nan = NAN;
    auto t = make<float>(DType::float32, {nan, 1, 2});
    auto npy = tensor::write_npy(t.view());
    REQUIRE(npy);
    std::ofstream((tdir / "x.npy").string(), std::ios::binary) << *npy;
    auto leaf = *pyjson::parse_json(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3], "data_name": "x.npy"})");
    auto c = count_leaf_file(leaf, tdir.string());
    REQUIRE(c);
    REQUIRE(*c);
    CHECK(**c == ValueCounts{1, 0, 0, 3, 2.0});

    auto no_file = *pyjson::parse_json(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3]})");
    auto none = count_leaf_file(no_file, tdir.string());
    REQUIRE(none);
    CHECK_FALSE(*none);

    auto missing = *pyjson::parse_json(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3], "data_name": "gone.npy"})");
    auto m = count_leaf_file(missing, tdir.string());
    REQUIRE_FALSE(m);
    CHECK(m.error().message.find("gone.npy") != std::string::npos);

    auto shape = *pyjson::parse_json(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "data_name": "x.npy"})");
    auto s = count_leaf_file(shape, tdir.string());
    REQUIRE_FALSE(s);
    CHECK(s.error().message.find("x.npy") != std::string::npos);
  }
}
