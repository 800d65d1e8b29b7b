#include "stats/xor_checksum.h"

#include <cstring>

namespace msdump::stats {

void XorChecksum::update(std::span<const std::byte> bytes) {
  const std::byte* p = bytes.data();
  std::size_t n = bytes.size();
  // Bytes before the next 8-byte tensor boundary go into their lane one by one.
  while (n > 0 && (m_offset & 7u) != 0) {
    m_word ^= static_cast<std::uint64_t>(*p++) << (8 * (m_offset & 7u));
    ++m_offset;
    --n;
  }
  // Whole words: four independent accumulators so the compiler vectorises the loop.
  std::uint64_t acc[4] = {0, 0, 0, 0};
  const std::size_t words = n / 8;
  std::size_t w = 0;
  for (; w + 4 <= words; w += 4) {
    for (std::size_t k = 0; k < 4; ++k) {
      std::uint64_t word;
      std::memcpy(&word, p + 8 * (w + k), 8);  // little-endian host
      acc[k] ^= word;
    }
  }
  for (; w < words; ++w) {
    std::uint64_t word;
    std::memcpy(&word, p + 8 * w, 8);
    acc[0] ^= word;
  }
  m_word ^= acc[0] ^ acc[1] ^ acc[2] ^ acc[3];
  p += 8 * words;
  n -= 8 * words;
  m_offset += 8 * words;
  while (n > 0) {
    m_word ^= static_cast<std::uint64_t>(*p++) << (8 * (m_offset & 7u));
    ++m_offset;
    --n;
  }
}

std::uint64_t xor_checksum(std::span<const std::byte> bytes) {
  XorChecksum x;
  x.update(bytes);
  return x.value();
}

}  // namespace msdump::stats
