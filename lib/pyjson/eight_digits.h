#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace msdump::pyjson {

// If the 8 bytes at p are all ASCII digits, folds their value into `acc` (acc * 10^8 + value)
// and returns true; false, `acc` unchanged, otherwise. SWAR: one 8-byte load and three
// multiplications instead of eight steps. Little-endian only (the byte order of the
// arithmetic); false on other machines, whose callers then take the digits one at a time.
inline bool eight_digits(const char* p, std::uint64_t& acc) {
  if constexpr (std::endian::native != std::endian::little) {
    return false;
  } else {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if ((((w & 0xF0F0F0F0F0F0F0F0ull) | (((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4))) !=
        0x3333333333333333ull) {
      return false;
    }
    w = ((w & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
    w = ((w & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
    acc = acc * 100000000 + (((w & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32);
    return true;
  }
}

}  // namespace msdump::pyjson
