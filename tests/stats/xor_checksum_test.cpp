#include "stats/xor_checksum.h"

#include <doctest/doctest.h>

#include <random>
#include <vector>

using namespace msdump::stats;

TEST_SUITE("msdump::stats") {
  TEST_CASE("xor checksum of bool [[F,F,F],[T,T,T]] is 0x0000010101000000") {
    const std::uint8_t b[] = {0, 0, 0, 1, 1, 1};
    CHECK(xor_checksum(std::as_bytes(std::span(b))) == 0x0000010101000000ull);
  }

  TEST_CASE("xor checksum zero-pads the last word and xors little-endian words") {
    const std::uint8_t b[] = {1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0x10};
    CHECK(xor_checksum(std::as_bytes(std::span(b))) == (0x0807060504030201ull ^ 0x10ffull));
    CHECK(xor_checksum({}) == 0);
  }

  TEST_CASE("xor checksum is independent of chunking and of how parts are split") {
    std::mt19937_64 rng(7);
    std::vector<std::byte> data(1003);
    for (auto& x : data) x = static_cast<std::byte>(rng());
    const std::uint64_t whole = xor_checksum(data);
    XorChecksum chunked;
    for (std::size_t at = 0, step = 1; at < data.size(); at += step, step = step % 13 + 1)
      chunked.update(std::span(data).subspan(at, std::min(step, data.size() - at)));
    CHECK(chunked.value() == whole);
    for (std::size_t split : {0, 1, 5, 8, 500, 1003}) {
      XorChecksum a, b(split);
      a.update(std::span(data).first(split));
      b.update(std::span(data).subspan(split));
      a.merge(b);
      CHECK(a.value() == whole);
    }
  }
}
