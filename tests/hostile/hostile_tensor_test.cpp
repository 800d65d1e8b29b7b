// Hostile tensor files (testdata/hostile/, written by gen_hostile.py): every one fails with a
// message naming its defect, without reading outside the source or allocating what the headers
// claim.

#include <doctest/doctest.h>

#include <string>

#include "core/byte_source.h"
#include "tensor/tensor_reader.h"
#include "test_util.h"

using namespace msdump;

namespace {

// The message of reading `name` (testdata/hostile/<name>) whole, or "ok".
std::string read_error(const std::string& name) {
  const std::string bytes = testing::slurp(testing::testdata("hostile/" + name));
  REQUIRE_FALSE(bytes.empty());
  const MemorySource src(as_bytes(bytes), name);
  auto t = tensor::read_tensor(src);
  return t ? "ok" : t.error().message;
}

}  // namespace

TEST_SUITE("msdump::hostile") {
  TEST_CASE("ZIP64 sizes and offsets beyond the file are refused") {
    CHECK(read_error("zip64_record_size_beyond_file.pt") ==
          "'zip64_record_size_beyond_file.pt': stored record 'zip64_record_size_beyond_file/data/0' has compressed size "
          "24 but uncompressed size 4611686018427387904");
    CHECK(read_error("zip64_compressed_size_beyond_file.pt") ==
          "'zip64_compressed_size_beyond_file.pt': stored record 'zip64_compressed_size_beyond_file/data/0' has "
          "compressed size 18446744073709551615 but uncompressed size 24");
    CHECK(read_error("zip64_local_offset_beyond_file.pt") ==
          "'zip64_local_offset_beyond_file.pt': local header of 'zip64_local_offset_beyond_file/data/0' at offset "
          "9223372036854775808 is beyond the end of the file (964 bytes)");
    CHECK(read_error("zip64_entry_count_huge.pt") ==
          "'zip64_entry_count_huge.pt': central directory declares 1152921504606846976 entries but entry 3 at offset "
          "758 is truncated");
    CHECK(read_error("zip64_cd_size_beyond_file.pt") ==
          "'zip64_cd_size_beyond_file.pt': central directory (offset 530, size 4611686018427387904) extends beyond the "
          "end of the file (865 bytes)");
    CHECK(read_error("zip64_cd_offset_wraps.pt") ==
          "'zip64_cd_offset_wraps.pt': central directory (offset 18446744073709551608, size 225) extends beyond the end "
          "of the file (789 bytes)");
  }

  TEST_CASE("storage offsets outside the storage are refused") {
    CHECK(read_error("storage_offset_beyond_storage.pt") ==
          "'storage_offset_beyond_storage.pt': view (storage offset 1099511627776, shape [2], strides [1]) reaches "
          "element 1099511627777 but storage 'data/0' holds 6 float32 elements");
    CHECK(read_error("storage_offset_int64_max.pt") ==
          "'storage_offset_int64_max.pt': view (storage offset 9223372036854775807, shape [2], strides [1]) overflows "
          "64 bits");
    CHECK(read_error("storage_numel_bytes_overflow.pt") ==
          "'storage_numel_bytes_overflow.pt': storage size 4611686018427387904 overflows");
  }

  TEST_CASE("shapes whose element count overflows 64 bits are refused") {
    CHECK(read_error("shape_numel_overflow.pt") ==
          "'shape_numel_overflow.pt': shape [4294967296,4294967296,4] has more elements than fit in 64 bits");
    CHECK(read_error("shape_numel_overflow.npy") ==
          "'shape_numel_overflow.npy': shape [4294967296,4294967296,4] has more elements than fit in 64 bits");
    CHECK(read_error("shape_nbytes_overflow.npy") ==
          "'shape_nbytes_overflow.npy': shape [2305843009213693952] has more elements than fit in 64 bits");
  }

  TEST_CASE("a stride-0 view is read but not materialized beyond the limit") {
    const std::string bytes = testing::slurp(testing::testdata("hostile/expand_stride0_4tib.pt"));
    const MemorySource src(as_bytes(bytes), "expand_stride0_4tib.pt");
    auto info = tensor::read_tensor_info(src);
    REQUIRE_MESSAGE(info, (info ? "" : info.error().message));
    CHECK(info->numel() == std::int64_t{1} << 40);
    auto t = tensor::load_tensor(src, *info);
    REQUIRE_FALSE(t);
    CHECK(t.error().code == ErrorCode::unsupported);
    CHECK(t.error().message ==
          "'expand_stride0_4tib.pt': view (shape [1099511627776], strides [0]) repeats its storage's elements: loading "
          "it takes 1099511627776 elements of 4 bytes, more than the 268435456-byte limit");
  }

  TEST_CASE("a stride-0 view whose byte count wraps 64 bits is refused") {
    CHECK(read_error("expand_stride0_nbytes_wrap.pt") ==
          "'expand_stride0_nbytes_wrap.pt': view (shape [4611686018427387904], strides [0]) repeats its storage's "
          "elements: loading it takes 4611686018427387904 elements of 16 bytes, more than the 268435456-byte limit");
  }
}
