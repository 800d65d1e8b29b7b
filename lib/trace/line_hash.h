#pragma once
// A fast 64-bit hash of a trace line's bytes. Convert's index pass records it for each line it
// has scanned and found plain; the entry pass, which reads the same line again, compares it to
// tell that the bytes are still the ones scanned (the file did not change between the passes)
// and can then split the line without validating it a second time (trace::split_data_line).
// Not cryptographic: it detects accidental changes (a collision has odds of about 2^-64), and
// what follows it stays bounds-safe on any bytes.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace msdump::trace {

inline std::uint64_t line_hash(std::string_view s) {
  constexpr std::uint64_t k_mul = 0x9E3779B97F4A7C15ull;
  auto mix = [](std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * k_mul;
    return h ^ (h >> 32);
  };
  const char* p = s.data();
  std::size_t n = s.size();
  // Four independent lanes over 32-byte steps (the multiplies overlap), folded at the end.
  std::uint64_t a = 0x243F6A8885A308D3ull ^ n, b = 0x13198A2E03707344ull, c = 0xA4093822299F31D0ull,
                d = 0x082EFA98EC4E6C89ull;
  for (; n >= 32; p += 32, n -= 32) {
    std::uint64_t w[4];
    std::memcpy(w, p, 32);
    a = mix(a, w[0]);
    b = mix(b, w[1]);
    c = mix(c, w[2]);
    d = mix(d, w[3]);
  }
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    a = mix(a, w);
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    b = mix(b, w ^ (std::uint64_t{n} << 59));
  }
  return mix(mix(mix(mix(a, b), c), d), 0x452821E638D01377ull);
}

}  // namespace msdump::trace
