#include "tensor/npy_writer.h"
#include "tensor/pt_writer.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "tensor/tensor_reader.h"
#include "tensor/tensor_test_util.h"
#include "tensor/zip_writer.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::tensor;

namespace {

Tensor load(const std::string& rel) {
  auto f = testing::fixture(rel);
  auto t = read_tensor(*f.source, {DType::bfloat16});
  REQUIRE_MESSAGE(t, (t ? "" : t.error().message));
  return std::move(*t);
}

}  // namespace

TEST_SUITE("msdump::tensor") {
  TEST_CASE("write_pt reproduces torch.save byte for byte") {
    int compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(testing::testdata("good/tensors/written"))) {
      if (entry.path().extension() != ".pt") continue;
      const std::string rel = "good/tensors/written/" + entry.path().filename().string();
      INFO(rel);
      const Tensor t = load(rel);
      auto bytes = write_pt(t.view(), pt_archive_name(entry.path().string()), t.requires_grad);
      REQUIRE(bytes);
      CHECK(*bytes == testing::slurp(entry.path()));
      ++compared;
    }
    CHECK(compared == 15);
  }

  TEST_CASE("write_npy reproduces np.save byte for byte") {
    int compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(testing::testdata("good/tensors/written"))) {
      if (entry.path().extension() != ".npy") continue;
      const std::string rel = "good/tensors/written/" + entry.path().filename().string();
      INFO(rel);
      auto bytes = write_npy(load(rel).view());
      REQUIRE(bytes);
      CHECK(*bytes == testing::slurp(entry.path()));
      ++compared;
    }
    CHECK(compared == 9);
  }

  TEST_CASE("every good fixture round-trips through write_pt and write_npy") {
    for (const auto& [name, e] : testing::tensor_manifest()) {
      const std::string& file = name;  // clang 15 cannot capture a structured binding in INFO's lambda
      INFO(file);
      const Tensor t = load("good/tensors/" + name);
      auto pt = write_pt(t.view(), "roundtrip", t.requires_grad);
      REQUIRE(pt);
      MemorySource pt_src(as_bytes(*pt), "roundtrip.pt");
      auto back = read_tensor(pt_src);
      REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
      CHECK(back->dtype == t.dtype);
      CHECK(back->shape == t.shape);
      CHECK(back->requires_grad == t.requires_grad);
      CHECK(testing::crc32_hex(back->data) == e.crc32);
      auto npy = write_npy(t.view());
      if (dtype_info(t.dtype).npy_descr.empty()) {
        REQUIRE_FALSE(npy);
        CHECK(npy.error().message ==
              "numpy has no " + std::string(dtype_name(t.dtype)) + " dtype; convert the tensor before writing .npy");
        continue;
      }
      REQUIRE(npy);
      MemorySource npy_src(as_bytes(*npy), "roundtrip.npy");
      auto info = read_tensor_info(npy_src);
      REQUIRE(info);
      CHECK(info->data_offset % 64 == 0);
      auto from_npy = load_tensor(npy_src, *info);
      REQUIRE(from_npy);
      CHECK(from_npy->shape == t.shape);
      CHECK(testing::crc32_hex(from_npy->data) == e.crc32);
    }
  }

  TEST_CASE("writers reject data that does not match the shape") {
    const std::vector<std::byte> data(10);
    const Shape shape{3};
    const TensorView view{DType::float32, shape, data};
    auto pt = write_pt(view, "x");
    REQUIRE_FALSE(pt);
    CHECK(pt.error().message == "tensor [3] float32 has 10 bytes of data, expected numel * 4");
    auto npy = write_npy(view);
    REQUIRE_FALSE(npy);
    CHECK(npy.error().message == "tensor [3] float32 has 10 bytes of data, expected numel * 4");
    const std::vector<std::byte> twelve(12);
    auto bad_name = write_pt({DType::float32, shape, twelve}, "a/b");
    REQUIRE_FALSE(bad_name);
    CHECK(bad_name.error().message == "invalid torch.save archive name 'a/b'");
  }

  TEST_CASE("large counts use BININT and LONG1 like pickle does") {
    // A zero-size tensor with huge dims exercises every integer opcode without data.
    const Shape shape{0, 70000, 5000000000LL};
    const TensorView view{DType::int8, shape, {}};
    auto pt = write_pt(view, "big");
    REQUIRE(pt);
    MemorySource src(as_bytes(*pt), "big.pt");
    auto info = read_tensor_info(src);
    REQUIRE_MESSAGE(info, (info ? "" : info.error().message));
    CHECK(info->shape == shape);
    CHECK(info->strides == std::vector<std::int64_t>{350000000000000LL, 5000000000LL, 1});
  }

  TEST_CASE("archive names follow torch: basename without the last extension") {
    CHECK(pt_archive_name("dir/tensor.pt") == "tensor");
    CHECK(pt_archive_name("name.with.dots.pt") == "name.with.dots");
    CHECK(pt_archive_name("noextension") == "noextension");
  }

  TEST_CASE("zip_crc32 matches zlib") {
    CHECK(zip_crc32(as_bytes(std::string_view("123456789"))) == 0xCBF43926u);
    CHECK(zip_crc32({}) == 0u);
    const std::string long_text(1000, 'a');
    CHECK(zip_crc32(as_bytes(std::string_view(long_text).substr(500)),
                    zip_crc32(as_bytes(std::string_view(long_text).substr(0, 500)))) ==
          zip_crc32(as_bytes(long_text)));
  }
}
