#include "tensor/npy_reader.h"

#include <doctest/doctest.h>

#include "tensor/tensor_reader.h"
#include "tensor/tensor_test_util.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::tensor;

namespace {

// A v1.0 .npy with `header` (padded like numpy) followed by `data`.
std::string npy(std::string header, const std::string& data = "") {
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

Result<TensorInfo> info_of(const std::string& bytes, std::optional<DType> hint = std::nullopt) {
  MemorySource src(as_bytes(bytes), "x.npy");
  return read_npy_info(src, hint);
}

std::string error_of(const std::string& bytes) {
  auto r = info_of(bytes);
  REQUIRE_FALSE(r);
  return r.error().message;
}

std::string bad_file_error(const std::string& name) {
  auto f = testing::fixture("bad/tensors/" + name);
  auto r = read_npy_info(*f.source);
  REQUIRE_FALSE(r);
  return r.error().message;
}

}  // namespace

TEST_SUITE("msdump::tensor") {
  TEST_CASE("npy: every numeric descr maps to a dtype") {
    const std::pair<const char*, DType> cases[] = {
        {"<f2", DType::float16}, {"<f4", DType::float32},   {"<f8", DType::float64},     {"|i1", DType::int8},
        {"<i2", DType::int16},   {"<i4", DType::int32},     {"<i8", DType::int64},       {"|u1", DType::uint8},
        {"<u2", DType::uint16},  {"<u4", DType::uint32},    {"<u8", DType::uint64},      {"|b1", DType::boolean},
        {"<c8", DType::complex64}, {"<c16", DType::complex128}, {"f4", DType::float32}, {"=i8", DType::int64}};
    for (const auto& [descr, dtype] : cases) {
      const char* const shown = descr;  // clang 15 cannot capture a structured binding in INFO's lambda
      INFO(shown);
      auto d = parse_npy_descr(descr);
      REQUIRE(d);
      CHECK(d->dtype == dtype);
      CHECK_FALSE(d->big_endian);
    }
    CHECK(parse_npy_descr(">f4")->big_endian);
    CHECK(parse_npy_descr(">c8")->big_endian);
    CHECK_FALSE(parse_npy_descr(">i1")->big_endian);
    CHECK_FALSE(parse_npy_descr("|u1")->big_endian);
  }

  TEST_CASE("npy: non-numeric descrs are rejected with the reason") {
    auto why = [](const char* descr, std::optional<DType> hint = std::nullopt) {
      auto d = parse_npy_descr(descr, hint);
      REQUIRE_FALSE(d);
      CHECK(d.error().code == ErrorCode::unsupported);
      return d.error().message;
    };
    CHECK(why("<U3") == "unsupported numpy dtype '<U3' (string arrays are not tensors)");
    CHECK(why("|S3") == "unsupported numpy dtype '|S3' (string arrays are not tensors)");
    CHECK(why("|O") == "unsupported numpy dtype '|O' (object arrays are pickles, not tensors)");
    CHECK(why("<M8[ns]") == "unsupported numpy dtype '<M8[ns]' (datetime arrays are not tensors)");
    CHECK(why("<m8[s]") == "unsupported numpy dtype '<m8[s]' (datetime arrays are not tensors)");
    CHECK(why("<f16") == "unsupported numpy dtype '<f16' (long double is not supported)");
    CHECK(why("<c32") == "unsupported numpy dtype '<c32' (complex long double is not supported)");
    CHECK(why("<V2") == "unsupported numpy dtype '<V2' (raw void type; pass a dtype hint such as bfloat16 to read it)");
    CHECK(why("|V4", DType::bfloat16) ==
          "unsupported numpy dtype '|V4' (void type of 4 bytes does not match the dtype hint bfloat16)");
    CHECK(why("<f3") == "unsupported numpy dtype '<f3'");
    CHECK(why("") == "unsupported numpy dtype ''");
    CHECK(why("<x4") == "unsupported numpy dtype '<x4'");
    CHECK(parse_npy_descr("<V2", DType::bfloat16)->dtype == DType::bfloat16);
  }

  TEST_CASE("npy: header forms numpy and older writers produce") {
    auto r = info_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", std::string(24, '\0')));
    REQUIRE(r);
    CHECK(r->shape == Shape{2, 3});
    CHECK(r->strides == std::vector<std::int64_t>{3, 1});
    CHECK(r->data_offset == 128);
    CHECK(r->storage_bytes == 24);
    CHECK(r->format == TensorFormat::npy);
    r = info_of(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 4), }", std::string(96, '\0')));
    REQUIRE(r);
    CHECK(r->strides == std::vector<std::int64_t>{1, 2, 6});
    r = info_of(npy("{\"shape\": (), \"descr\": \"<i8\", \"fortran_order\": False}", std::string(8, '\0')));
    REQUIRE(r);
    CHECK(r->shape.empty());
    CHECK(r->numel() == 1);
    r = info_of(npy("{'descr': '<i8', 'fortran_order': False, 'shape': (5L, 0L)}"));
    REQUIRE(r);
    CHECK(r->shape == Shape{5, 0});
    CHECK(r->numel() == 0);
    r = info_of(npy("{'descr': '<i8', 'fortran_order': True, 'shape': (0, 4611686018427387904)}"));
    REQUIRE(r);
    CHECK(r->numel() == 0);
  }

  TEST_CASE("npy: fixtures: unaligned data, versions 2 and 3, bf16 as V2 with a hint") {
    auto f = testing::fixture("good/tensors/unaligned.npy");
    auto r = read_npy_info(*f.source);
    REQUIRE(r);
    CHECK(r->data_offset == 10 + 51);
    auto v2 = testing::fixture("good/tensors/version2.npy");
    CHECK(read_npy_info(*v2.source)->data_offset == 128);
    auto v3 = testing::fixture("good/tensors/version3.npy");
    CHECK(read_npy_info(*v3.source)->data_offset == 128);
    auto bf = testing::fixture("good/tensors/ml_dtypes_bf16_as_V2.npy");
    CHECK_FALSE(read_npy_info(*bf.source));
    auto hinted = read_npy_info(*bf.source, DType::bfloat16);
    REQUIRE(hinted);
    CHECK(hinted->dtype == DType::bfloat16);
  }

  TEST_CASE("npy: malformed headers name the defect") {
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", std::string(20, '\0'))) ==
          "'x.npy': data is shorter than the header says: shape [2,3] float32 needs 24 bytes, the file has 20 after "
          "the header");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False}")) == "'x.npy': .npy header lacks the key 'shape'");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}")) ==
          "'x.npy': .npy header has an unexpected key 'x'");
    CHECK(error_of(npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}")) ==
          "'x.npy': .npy header repeats the key 'descr'");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}")) ==
          "'x.npy': .npy header 'fortran_order' is not True or False");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': [1]}")) ==
          "'x.npy': .npy header 'shape' is not a tuple");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}")) ==
          "'x.npy': .npy header 'shape' must hold non-negative integers");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}")) ==
          "'x.npy': malformed .npy header: integer too large at column 52");
    CHECK(error_of(npy("{'descr': '<f4' 'fortran_order': False}")) ==
          "'x.npy': malformed .npy header: expected ',' or '}' at column 17");
    CHECK(error_of(npy("{'descr: '<f4'}")) == "'x.npy': malformed .npy header: expected ':' at column 11");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x")) ==
          "'x.npy': malformed .npy header: unexpected text after the dict at column 59");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': Maybe, 'shape': ()}")) ==
          "'x.npy': malformed .npy header: unexpected character at column 35");
    CHECK(error_of(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::string(40, '(') + ")}")) ==
          "'x.npy': malformed .npy header: nesting too deep at column 68");
    CHECK(error_of(std::string("\x93NUMPY\x02\x00\x00\x00\x00\x10", 12)) ==
          "'x.npy': .npy header of 268435456 bytes is too large (limit 16777216)");
    CHECK(error_of(std::string("\x93NUMPY\x04\x00\x00\x00", 10)) == "'x.npy': unsupported .npy version 4.0");
    CHECK(error_of(std::string("\x93NUMPY\x02\x00\x00", 9)) == "'x.npy': truncated .npy header (file has 9 bytes)");
    CHECK(error_of("\x93NUMPY") == "'x.npy': truncated .npy header (file has 6 bytes)");
  }

  TEST_CASE("npy: bad fixture files") {
    CHECK(bad_file_error("npy_truncated_header.npy") ==
          "'npy_truncated_header.npy': truncated .npy header: it declares 118 bytes, the file has 30 after the "
          "preamble");
    CHECK(bad_file_error("npy_data_short.npy") ==
          "'npy_data_short.npy': data is shorter than the header says: shape [2,3] float32 needs 24 bytes, the file "
          "has 20 after the header");
    CHECK(bad_file_error("npy_object.npy") ==
          "'npy_object.npy': unsupported numpy dtype '|O' (object arrays are pickles, not tensors)");
    CHECK(bad_file_error("npy_string.npy") ==
          "'npy_string.npy': unsupported numpy dtype '<U3' (string arrays are not tensors)");
    CHECK(bad_file_error("npy_structured.npy") ==
          "'npy_structured.npy': unsupported numpy dtype [('a', '<f4'), ('b', '<i2')] (structured arrays are not "
          "tensors)");
    CHECK(bad_file_error("npy_datetime.npy") ==
          "'npy_datetime.npy': unsupported numpy dtype '<M8[ns]' (datetime arrays are not tensors)");
    CHECK(bad_file_error("npy_longdouble.npy") ==
          "'npy_longdouble.npy': unsupported numpy dtype '<f16' (long double is not supported)");
    CHECK(bad_file_error("npy_bad_magic.npy") == "'npy_bad_magic.npy': not a .npy file (bad magic)");
    CHECK(bad_file_error("npy_shape_overflow.npy") ==
          "'npy_shape_overflow.npy': shape [4294967296,4294967296] has more elements than fit in 64 bits");
  }

  TEST_CASE("npy: every truncation of a valid file fails cleanly") {
    auto f = testing::fixture("good/tensors/fortran_f32.npy");
    for (std::size_t n = 0; n < f.bytes->size(); ++n) {
      MemorySource cut(as_bytes(std::string_view(*f.bytes).substr(0, n)), "cut.npy");
      CHECK_FALSE(read_tensor(cut));
    }
  }
}
