#include "stats/crc32.h"

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "core/byte_source.h"

using namespace msdump;
using namespace msdump::stats;

namespace {
std::vector<std::byte> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> v(n);
  for (auto& b : v) b = static_cast<std::byte>(rng());
  return v;
}
}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("crc32 of the standard check string is cbf43926") {
    CHECK(crc32(as_bytes("123456789")) == 0xcbf43926u);
    CHECK(crc32({}) == 0u);
    CHECK(crc32(as_bytes("a")) == 0xe8b7be43u);
    CHECK(crc32(as_bytes("The quick brown fox jumps over the lazy dog")) == 0x414fa339u);
  }

  TEST_CASE("crc32 of the Appendix A relu input is e2ca942d") {
    const float input[] = {-1.5f, 0.25f, 2.0f};
    CHECK(crc32(std::as_bytes(std::span(input))) == 0xe2ca942du);
  }

  TEST_CASE("crc32 folding path equals the table path for every length and alignment") {
    const auto data = random_bytes(4096 + 64, 1);
    for (std::size_t offset : {0, 1, 3, 8, 15}) {
      for (std::size_t n = 0; n <= 700; ++n) {
        const auto s = std::span(data).subspan(offset, n);
        REQUIRE_MESSAGE(crc32_update(0x12345678u, s) == crc32_update_table(0x12345678u, s), "n=" << n);
      }
      const auto s = std::span(data).subspan(offset, 4096);
      CHECK(crc32(s) == crc32_update_table(0, s));
    }
  }

  TEST_CASE("crc32 continues across chunks like zlib.crc32(data, value)") {
    const auto data = random_bytes(100000, 2);
    const std::uint32_t whole = crc32(data);
    std::uint32_t c = 0;
    std::size_t at = 0;
    for (std::size_t step = 1; at < data.size(); step = step * 3 + 1) {
      const std::size_t n = std::min(step, data.size() - at);
      c = crc32_update(c, std::span(data).subspan(at, n));
      at += n;
    }
    CHECK(c == whole);
  }

  TEST_CASE("crc32_combine joins the CRCs of adjacent parts") {
    const auto data = random_bytes(5000, 3);
    const std::uint32_t whole = crc32(data);
    for (std::size_t split : {0, 1, 7, 64, 1000, 4999, 5000}) {
      const auto a = std::span(data).first(split);
      const auto b = std::span(data).subspan(split);
      CHECK(crc32_combine(crc32(a), crc32(b), b.size()) == whole);
    }
  }
}
