#include "tensor/tensor_reader.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <filesystem>

#include "tensor/raw_reader.h"
#include "tensor/tensor_test_util.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::tensor;

namespace {

ReadOptions options_for(const std::string& name) {
  ReadOptions o;
  if (name.find("V2") != std::string::npos) o.dtype_hint = DType::bfloat16;
  return o;
}

void check_against_manifest(const ByteSource& src, const std::string& name, const testing::ManifestEntry& e) {
  INFO(name);
  auto info = read_tensor_info(src, options_for(name));
  REQUIRE_MESSAGE(info, (info ? "" : info.error().message));
  CHECK(to_string(info->format) == e.format);
  CHECK(dtype_name(info->dtype) == e.dtype);
  CHECK(info->shape == e.shape);
  if (e.numel != 0) CHECK(info->strides == e.strides);
  CHECK(info->storage_offset == e.storage_offset);
  CHECK(info->requires_grad == e.requires_grad);
  CHECK(info->location == e.location);
  CHECK(info->big_endian == e.big_endian);
  CHECK(info->numel() == e.numel);
  auto t = load_tensor(src, *info);
  REQUIRE_MESSAGE(t, (t ? "" : t.error().message));
  CHECK(t->shape == e.shape);
  CHECK(t->requires_grad == e.requires_grad);
  CHECK(t->data.size() == static_cast<std::size_t>(e.numel) * itemsize(info->dtype));
  CHECK(testing::crc32_hex(t->data) == e.crc32);
}

}  // namespace

TEST_SUITE("msdump::tensor") {
  TEST_CASE("every good fixture reads from memory and matches the manifest") {
    const auto& manifest = testing::tensor_manifest();
    REQUIRE(manifest.size() > 90);
    for (const auto& [name, e] : manifest) {
      auto f = testing::fixture("good/tensors/" + name);
      check_against_manifest(*f.source, name, e);
    }
  }

  TEST_CASE("every good fixture reads from a file with pread") {
    for (const auto& [name, e] : testing::tensor_manifest()) {
      auto src = FileSource::open(testing::testdata("good/tensors/" + name).string());
      REQUIRE(src);
      check_against_manifest(**src, name, e);
    }
  }

  TEST_CASE("the format is detected by magic") {
    CHECK(*detect_tensor_format(*testing::fixture("good/tensors/f32.pt").source) == TensorFormat::pt);
    CHECK(*detect_tensor_format(*testing::fixture("good/tensors/legacy_f32.pt").source) == TensorFormat::pt);
    CHECK(*detect_tensor_format(*testing::fixture("good/tensors/f32.npy").source) == TensorFormat::npy);
    auto bad = read_tensor_info(*testing::fixture("bad/tensors/not_a_tensor.bin").source);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "unknown tensor format for 'not_a_tensor.bin' (tried: pt, npy)");
    const std::string empty;
    MemorySource nothing(as_bytes(empty), "empty.pt");
    auto none = read_tensor(nothing);
    REQUIRE_FALSE(none);
    CHECK(none.error().message == "unknown tensor format for 'empty.pt' (tried: pt, npy)");
  }

  TEST_CASE("storage bytes of a torch.save file start on a 64-byte boundary") {
    auto info = read_tensor_info(*testing::fixture("good/tensors/f32.pt").source);
    REQUIRE(info);
    CHECK(info->data_offset % 64 == 0);
    CHECK(info->storage_bytes == 48);
    CHECK(info->is_contiguous());
    CHECK(info->first_byte() == info->data_offset);
  }

  TEST_CASE("views gather strided, transposed and stride-0 elements in C order") {
    auto check_floats = [](const std::string& name, std::vector<float> want) {
      auto t = read_tensor(*testing::fixture("good/tensors/" + name).source);
      REQUIRE(t);
      std::vector<float> got(t->data.size() / 4);
      std::memcpy(got.data(), t->data.data(), t->data.size());
      CHECK(got == want);
    };
    check_floats("view_slice.pt", {5, 7, 9, 10, 12, 14});
    check_floats("view_transpose.pt", {0, 5, 10, 15, 1, 6, 11, 16, 2, 7, 12, 17, 3, 8, 13, 18, 4, 9, 14, 19});
    check_floats("view_expand_stride0.pt", {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
    check_floats("fortran_f32.npy", {0, 1, 2, 3, 4, 5});
    check_floats("byteorder_big_f32.pt", {1.5f, -2.0f, 3.25f});
    check_floats("be_f4.npy", {1.5f, -2.0f, 3.0f});
  }

  TEST_CASE("load_tensor refuses an inconsistent TensorInfo") {
    auto f = testing::fixture("good/tensors/f32.pt");
    auto info = read_tensor_info(*f.source);
    REQUIRE(info);
    TensorInfo bad = *info;
    bad.storage_offset = 1;
    auto r = load_tensor(*f.source, bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message ==
          "'f32.pt': view (storage offset 1, shape [3,4], strides [4,1]) reaches beyond its storage of 48 bytes");
    bad = *info;
    bad.strides = {4};
    r = load_tensor(*f.source, bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'f32.pt': shape [3,4] and strides [4] differ in length");
    bad = *info;
    bad.storage_bytes = 1 << 20;
    r = load_tensor(*f.source, bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'f32.pt': storage (1048576 bytes at offset 320) extends beyond the end (735 bytes)");
    bad = *info;
    bad.strides = {-4, 1};
    r = load_tensor(*f.source, bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'f32.pt': negative stride in [-4,1]");
    bad = *info;
    bad.shape = {1, 1};
    bad.strides = {INT64_MAX, INT64_MAX};
    CHECK(load_tensor(*f.source, bad));
  }

  TEST_CASE("byte swapping reverses each element, and each half of a complex") {
    std::vector<std::byte> data{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4},
                                std::byte{5}, std::byte{6}, std::byte{7}, std::byte{8}};
    auto copy = data;
    byte_swap_elements(copy, DType::complex64);
    CHECK(copy == std::vector<std::byte>{std::byte{4}, std::byte{3}, std::byte{2}, std::byte{1},
                                         std::byte{8}, std::byte{7}, std::byte{6}, std::byte{5}});
    copy = data;
    byte_swap_elements(copy, DType::int64);
    CHECK(copy == std::vector<std::byte>{std::byte{8}, std::byte{7}, std::byte{6}, std::byte{5},
                                         std::byte{4}, std::byte{3}, std::byte{2}, std::byte{1}});
    copy = data;
    byte_swap_elements(copy, DType::uint8);
    CHECK(copy == data);
  }

  TEST_CASE("real msprobe .pt dumps all read") {
    const auto root = testing::samples_dir() / "current";
    REQUIRE_MESSAGE(std::filesystem::is_directory(root), root.string() << " is missing");
    int count = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.path().extension() != ".pt") continue;
      auto src = FileSource::open(entry.path().string());
      REQUIRE(src);
      auto t = read_tensor(**src);
      INFO(entry.path().string());
      REQUIRE_MESSAGE(t, (t ? "" : t.error().message));
      CHECK(t->data.size() == static_cast<std::size_t>(t->numel()) * itemsize(t->dtype));
      ++count;
    }
    CHECK(count == 468);  // testdata/msprobe/README.md: the three tensor cases, two steps each
  }
}
