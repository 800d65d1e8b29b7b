#include "convert/tensor_source.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/byte_source.h"
#include "pyjson/json_reader.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::convert;
namespace fs = std::filesystem;

namespace {
void write_file(const fs::path& p, const char* text) { std::ofstream(p, std::ios::binary) << text; }
}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("the source cache: leaves of one blob in a row, each described afresh, problems per leaf") {
    testing::TempDir tmp;
    const fs::path dir = tmp.path() / "capture";
    fs::create_directories(dir);
    write_file(dir / "blob.bin", "0123456789abcdef0123456789abcdef");  // 32 bytes
    TensorSourceCache cache;
    TensorSource src;
    auto locate = [&](const char* leaf_json) {
      auto leaf = pyjson::parse_json(leaf_json);
      REQUIRE(leaf);
      auto r = locate_tensor_source(*leaf, InputKind::capture, dir.string(), src);
      REQUIRE(r);
      return *r;
    };
    REQUIRE(locate(R"({"source": {"file": "blob.bin", "offset": 4}})"));
    CHECK(src.path == dir.string() + "/blob.bin");
    CHECK(src.offset == 4);
    auto a = cache.open(src, DType::float32, {2, 3});  // 24 bytes at 4
    REQUIRE(a);
    REQUIRE_FALSE(a->problem);
    REQUIRE(a->elements != nullptr);
    CHECK(src.info.shape == tensor::Shape{2, 3});
    CHECK(src.info.data_offset == 4);
    CHECK(a->elements->size() == 32);

    // the same blob again (a cache hit): a different leaf, no offset given means 0
    REQUIRE(locate(R"({"source": {"file": "blob.bin"}})"));
    CHECK(src.offset == 0);
    auto b = cache.open(src, DType::int16, {});
    REQUIRE(b);
    REQUIRE_FALSE(b->problem);
    CHECK(src.info.shape.empty());
    CHECK(src.info.strides.empty());
    CHECK(src.info.dtype == DType::int16);
    CHECK(src.info.data_offset == 0);

    // beyond the blob: a problem of this leaf only; the next leaf is fine again
    REQUIRE(locate(R"({"source": {"file": "blob.bin", "offset": 30}})"));
    auto c = cache.open(src, DType::float32, {1});
    REQUIRE(c);
    REQUIRE(c->problem);
    CHECK(c->problem->message.find("needs 4 bytes at offset 30") != std::string::npos);
    REQUIRE(locate(R"({"source": {"file": "blob.bin", "offset": 28}})"));
    auto d = cache.open(src, DType::float32, {1});
    REQUIRE(d);
    CHECK_FALSE(d->problem);

    // a missing file is a problem too; a path leaving the capture is an error; null: no bytes
    REQUIRE(locate(R"({"source": {"file": "missing.bin"}})"));
    auto e = cache.open(src, DType::float32, {1});
    REQUIRE(e);
    REQUIRE(e->problem);
    auto leaf = pyjson::parse_json(R"({"source": {"file": "../x.bin"}})");
    REQUIRE(leaf);
    CHECK_FALSE(locate_tensor_source(*leaf, InputKind::capture, dir.string(), src));
    CHECK_FALSE(locate(R"({"source": null})"));
  }
}

