#include "tensor/zip_directory.h"

#include <doctest/doctest.h>

#include "tensor/tensor_test_util.h"

using namespace msdump;
using namespace msdump::tensor;

TEST_SUITE("msdump::tensor") {
  TEST_CASE("zip: torch.save's directory: ZIP64 end records, aligned stored records") {
    auto f = testing::fixture("good/tensors/f32.pt");
    auto dir = read_zip_directory(*f.source);
    REQUIRE_MESSAGE(dir, (dir ? "" : dir.error().message));
    REQUIRE(dir->entries.size() == 3);
    CHECK(dir->entries[0].name == "f32/data.pkl");
    CHECK(dir->entries[1].name == "f32/data/0");
    CHECK(dir->entries[2].name == "f32/version");
    CHECK(dir->entries[1].flags == 0x0808);
    for (const auto& e : dir->entries) {
      auto rec = locate_zip_record(*f.source, *dir, e);
      REQUIRE(rec);
      CHECK(rec->data_offset % 64 == 0);
      CHECK(rec->size == e.uncompressed_size);
    }
    auto version = read_zip_record(*f.source, *dir, *dir->find("f32/version"));
    REQUIRE(version);
    CHECK(std::string(reinterpret_cast<const char*>(version->data()), version->size()) == "3\n");
    CHECK(dir->find("f32/nothing") == nullptr);
  }

  TEST_CASE("zip: a Python zipfile archive (no ZIP64 records) also reads") {
    auto f = testing::fixture("bad/tensors/deflated_record.pt");
    auto dir = read_zip_directory(*f.source);
    REQUIRE(dir);
    CHECK(dir->entries.size() == 3);
    auto rec = locate_zip_record(*f.source, *dir, dir->entries[0]);
    REQUIRE_FALSE(rec);
    CHECK(rec.error().code == ErrorCode::unsupported);
  }

  TEST_CASE("zip: tiny and garbage inputs") {
    for (const std::string& bytes : {std::string(), std::string("PK\x05\x06"), std::string(21, 'x'), std::string(100, '\0')}) {
      MemorySource src(as_bytes(bytes));
      auto dir = read_zip_directory(src);
      REQUIRE_FALSE(dir);
      CHECK(dir.error().message == "no end of central directory record found (truncated file or not a zip archive)");
    }
    // An EOCD claiming a central directory beyond the file.
    std::string eocd("PK\x05\x06\0\0\0\0\x01\0\x01\0\x2e\0\0\0\xff\xff\0\0\0\0", 22);
    MemorySource src(as_bytes(eocd));
    auto dir = read_zip_directory(src);
    REQUIRE_FALSE(dir);
    CHECK(dir.error().message == "central directory (offset 65535, size 46) extends beyond the end of the file (22 bytes)");
  }
}
