#include "tensor/pt_reader.h"

#include <doctest/doctest.h>

#include "tensor/tensor_reader.h"
#include "tensor/tensor_test_util.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::tensor;

namespace {

std::string pt_error(const std::string& name) {
  auto f = testing::fixture("bad/tensors/" + name);
  auto r = read_pt_info(*f.source);
  REQUIRE_FALSE(r);
  return r.error().message;
}

TensorInfo pt_info(const std::string& name) {
  auto f = testing::fixture("good/tensors/" + name);
  auto r = read_pt_info(*f.source);
  REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
  return *r;
}

}  // namespace

TEST_SUITE("msdump::tensor") {
  TEST_CASE("pt: plain tensor metadata comes from data.pkl and the central directory") {
    const auto info = pt_info("f32.pt");
    CHECK(info.dtype == DType::float32);
    CHECK(info.shape == Shape{3, 4});
    CHECK(info.strides == std::vector<std::int64_t>{4, 1});
    CHECK(info.location == "cpu");
    CHECK(info.data_offset == 320);
    CHECK(info.storage_bytes == 48);
    CHECK_FALSE(info.big_endian);
  }

  TEST_CASE("pt: views keep storage offset and strides over the whole storage") {
    const auto slice = pt_info("view_slice.pt");
    CHECK(slice.storage_offset == 5);
    CHECK(slice.strides == std::vector<std::int64_t>{5, 2});
    CHECK(slice.storage_bytes == 80);
    CHECK_FALSE(slice.is_contiguous());
    const auto expand = pt_info("view_expand_stride0.pt");
    CHECK(expand.strides == std::vector<std::int64_t>{0, 1});
    CHECK(expand.storage_bytes == 16);
  }

  TEST_CASE("pt: parameters, requires_grad, location tags, 0-dim and empty tensors") {
    CHECK(pt_info("parameter.pt").requires_grad);
    CHECK(pt_info("requires_grad.pt").requires_grad);
    CHECK_FALSE(pt_info("f32.pt").requires_grad);
    CHECK(pt_info("location_npu0.pt").location == "npu:0");
    CHECK(pt_info("location_cuda1.pt").location == "cuda:1");
    const auto scalar = pt_info("scalar_f32.pt");
    CHECK(scalar.shape.empty());
    CHECK(scalar.numel() == 1);
    const auto empty = pt_info("empty_f32.pt");
    CHECK(empty.numel() == 0);
    CHECK(empty.storage_bytes == 0);
  }

  TEST_CASE("pt: torch 2.x records: byteorder, v3 dtypes, 2.7 layout, protocol 4/5") {
    CHECK(pt_info("byteorder_big_f32.pt").big_endian);
    CHECK(pt_info("byteorder_big_c64.pt").big_endian);
    CHECK_FALSE(pt_info("torch27_layout_f32.pt").big_endian);
    const auto u16 = pt_info("v3_uint16_view.pt");
    CHECK(u16.dtype == DType::uint16);
    CHECK(u16.storage_offset == 1);
    CHECK(u16.storage_bytes == 12);
    CHECK(pt_info("v3_float8_e4m3fn.pt").dtype == DType::float8_e4m3fn);
    CHECK(pt_info("v3_float8_e5m2.pt").dtype == DType::float8_e5m2);
    CHECK(pt_info("v3_uint64.pt").dtype == DType::uint64);
    CHECK(pt_info("pickle_protocol4.pt").shape == Shape{5});
    CHECK(pt_info("pickle_protocol5.pt").dtype == DType::int32);
  }

  TEST_CASE("pt: legacy (torch < 1.6) files are read") {
    const auto f32 = pt_info("legacy_f32.pt");
    CHECK(f32.dtype == DType::float32);
    CHECK(f32.shape == Shape{6});
    CHECK(f32.storage_bytes == 24);
    const auto view = pt_info("legacy_view_bf16.pt");
    CHECK(view.dtype == DType::bfloat16);
    CHECK(view.storage_offset == 2);
    CHECK(view.storage_bytes == 16);
  }

  TEST_CASE("pt: a legacy storage whose persistent-id size overflows 64 bits is rejected with its sizes") {
    // legacy_f32.pt says 6 elements with BININT1 6 ('K' 0x06) inside the persistent id; give it 2^62
    // float32 elements instead (LONG1, 8 bytes), so the byte count no longer fits in 64 bits.
    std::string bytes = *testing::fixture("good/tensors/legacy_f32.pt").bytes;
    const std::string cpu_then_numel = std::string("cpu", 3) + "q\x04K\x06N";
    const auto at = bytes.find(cpu_then_numel);
    REQUIRE(at != std::string::npos);
    const std::string huge("\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x40", 10);
    bytes.replace(at + 5, 2, huge);
    MemorySource src(as_bytes(bytes), "huge.pt");
    auto t = read_tensor(src);
    REQUIRE_FALSE(t);
    CHECK(t.error().code == ErrorCode::invalid_input);
    CHECK(t.error().message.find("4611686018427387904 float32 elements (more bytes than fit in 64 bits)") !=
          std::string::npos);
  }

  TEST_CASE("pt: magic tests") {
    const std::string zip = "PK\x03\x04rest";
    const std::string legacy("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 14);
    CHECK(is_pt_zip(as_bytes(zip)));
    CHECK_FALSE(is_pt_zip(as_bytes(legacy)));
    CHECK(is_legacy_pt(as_bytes(legacy)));
    CHECK_FALSE(is_legacy_pt(as_bytes(legacy.substr(0, 13))));
  }

  TEST_CASE("pt: every defect has its own message") {
    CHECK(pt_error("truncated_zip.pt") ==
          "'truncated_zip.pt': no end of central directory record found (truncated file or not a zip archive)");
    CHECK(pt_error("eocd_missing.pt") ==
          "'eocd_missing.pt': no end of central directory record found (truncated file or not a zip archive)");
    CHECK(pt_error("broken_central_directory.pt") ==
          "'broken_central_directory.pt': central directory entry 1 at offset 526 has a bad signature");
    CHECK(pt_error("zip64_offset_beyond_file.pt") ==
          "'zip64_offset_beyond_file.pt': central directory (offset 1099511627776, size 177) extends beyond the end "
          "of the file (741 bytes)");
    CHECK(pt_error("zip64_locator_beyond_file.pt") ==
          "'zip64_locator_beyond_file.pt': ZIP64 end of central directory locator points to offset 5000 beyond the "
          "end of the file (741 bytes)");
    CHECK(pt_error("local_header_offset_beyond_file.pt") ==
          "'local_header_offset_beyond_file.pt': local header of 'plain/data.pkl' at offset 100000 is beyond the "
          "end of the file (741 bytes)");
    CHECK(pt_error("evil_global.pt") ==
          "'evil_global.pt': pickle references global 'os.system', which is not allowed in a tensor file "
          "(nothing was executed)");
    CHECK(pt_error("storage_smaller_than_view.pt") ==
          "'storage_smaller_than_view.pt': view (storage offset 2, shape [2,3], strides [3,1]) reaches element 7 "
          "but storage 'data/0' holds 6 float32 elements");
    CHECK(pt_error("storage_record_size_mismatch.pt") ==
          "'storage_record_size_mismatch.pt': storage record 'data/0' has 24 bytes but its persistent id says 8 "
          "float32 elements (32 bytes)");
    CHECK(pt_error("storage_record_missing.pt") ==
          "'storage_record_missing.pt': storage record 'data/1' is missing");
    CHECK(pt_error("shape_product_overflow.pt") ==
          "'shape_product_overflow.pt': shape [1099511627776,1099511627776] has more elements than fit in 64 bits");
    CHECK(pt_error("unknown_storage_type.pt") == "'unknown_storage_type.pt': unknown storage type 'torch.FooStorage'");
    CHECK(pt_error("quantized_storage.pt") ==
          "'quantized_storage.pt': quantized storage type 'torch.QInt8Storage' is not supported");
    CHECK(pt_error("negative_stride.pt") == "'negative_stride.pt': negative stride in [-1]");
    CHECK(pt_error("byteorder_unknown.pt") ==
          "'byteorder_unknown.pt': byteorder record says 'middle' (expected 'little' or 'big')");
    CHECK(pt_error("dict_of_tensors.pt") == "'dict_of_tensors.pt': contains a dict, expected a single tensor");
    CHECK(pt_error("shared_storage_list.pt") == "'shared_storage_list.pt': contains a list, expected a single tensor");
    CHECK(pt_error("state_dict.pt") == "'state_dict.pt': contains an OrderedDict, expected a single tensor");
    CHECK(pt_error("deflated_record.pt") ==
          "'deflated_record.pt': compressed record 'plain/data.pkl' (method 8, deflate): re-zipped file not "
          "supported (torch.save stores records uncompressed)");
    CHECK(pt_error("torchscript_module.pt") ==
          "'torchscript_module.pt': TorchScript archive (torch.jit.save), not a torch.save tensor file");
  }

  TEST_CASE("pt: error codes separate malformed from unsupported input") {
    auto code = [](const std::string& name) {
      auto f = testing::fixture("bad/tensors/" + name);
      return read_pt_info(*f.source).error().code;
    };
    CHECK(code("evil_global.pt") == ErrorCode::invalid_input);
    CHECK(code("deflated_record.pt") == ErrorCode::unsupported);
    CHECK(code("torchscript_module.pt") == ErrorCode::unsupported);
    CHECK(code("truncated_zip.pt") == ErrorCode::invalid_input);
  }

  TEST_CASE("pt: every truncation of a valid file fails cleanly") {
    auto f = testing::fixture("good/tensors/view_slice.pt");
    const std::string& bytes = *f.bytes;
    for (std::size_t n = 0; n < bytes.size(); n += 7) {
      MemorySource cut(as_bytes(std::string_view(bytes).substr(0, n)), "cut.pt");
      CHECK_FALSE(read_tensor(cut));
    }
    auto legacy = testing::fixture("good/tensors/legacy_f32.pt");
    for (std::size_t n = 0; n < legacy.bytes->size(); ++n) {
      MemorySource cut(as_bytes(std::string_view(*legacy.bytes).substr(0, n)), "cut.pt");
      CHECK_FALSE(read_tensor(cut));
    }
  }

  TEST_CASE("single-byte corruptions of any format never crash") {
    for (const char* name : {"msprobe_like_sliced.pt", "legacy_view_bf16.pt", "pickle_protocol4.pt",
                             "v3_uint16_view.pt", "zip64_central_extra_i32.pt", "fortran_f32.npy"}) {
      INFO(name);
      auto f = testing::fixture(std::string("good/tensors/") + name);
      std::string bytes = *f.bytes;
      for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char saved = bytes[i];
        for (char flip : {'\xff', '\x00', '\x7f', '\x80', static_cast<char>(saved ^ 1)}) {
          bytes[i] = flip;
          MemorySource src(as_bytes(bytes), "x");
          auto t = read_tensor(src);
          if (t) CHECK(t->data.size() == static_cast<std::size_t>(t->numel()) * itemsize(t->dtype));
        }
        bytes[i] = saved;
      }
    }
  }
}
