#include "stats/crc32.h"

#include <array>
#include <cstring>

#include "stats/cpu_dispatch.h"
#include "stats/crc32_pclmul.h"

namespace msdump::stats {
namespace {

constexpr std::uint32_t k_polynomial = 0xedb88320u;

// k_tables[0] is the classic byte table; k_tables[k][b] is the CRC of byte b followed by k
// zero bytes, which lets slice-by-8 consume 8 bytes per step.
constexpr std::array<std::array<std::uint32_t, 256>, 8> make_tables() {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t c = b;
    for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? (c >> 1) ^ k_polynomial : c >> 1;
    t[0][b] = c;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (std::uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xffu];
  return t;
}
constexpr auto k_tables = make_tables();

// Works on the pre-inverted register value (zlib's internal crc).
std::uint32_t table_kernel(std::uint32_t c, const unsigned char* p, std::size_t n) {
  while (n >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);  // little-endian host
    word ^= c;
    c = k_tables[7][word & 0xffu] ^ k_tables[6][(word >> 8) & 0xffu] ^ k_tables[5][(word >> 16) & 0xffu] ^
        k_tables[4][(word >> 24) & 0xffu] ^ k_tables[3][(word >> 32) & 0xffu] ^
        k_tables[2][(word >> 40) & 0xffu] ^ k_tables[1][(word >> 48) & 0xffu] ^ k_tables[0][word >> 56];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) c = (c >> 8) ^ k_tables[0][(c ^ *p++) & 0xffu];
  return c;
}


// a * b modulo the CRC polynomial, both in the reflected representation (zlib's multmodp).
std::uint32_t multiply_mod_p(std::uint32_t a, std::uint32_t b) {
  std::uint32_t m = 1u << 31;
  std::uint32_t product = 0;
  for (;;) {
    if ((a & m) != 0) {
      product ^= b;
      if ((a & (m - 1)) == 0) break;
    }
    m >>= 1;
    b = (b & 1u) != 0 ? (b >> 1) ^ k_polynomial : b >> 1;
  }
  return product;
}

// k_x2n[k] = x^(2^k) mod p.
constexpr std::array<std::uint32_t, 32> make_x2n() {
  std::array<std::uint32_t, 32> t{};
  std::uint32_t p = 1u << 30;  // x^1
  t[0] = p;
  for (std::size_t k = 1; k < 32; ++k) {
    // square p (constexpr copy of multiply_mod_p)
    std::uint32_t a = p, b = p, m = 1u << 31, prod = 0;
    for (;;) {
      if ((a & m) != 0) {
        prod ^= b;
        if ((a & (m - 1)) == 0) break;
      }
      m >>= 1;
      b = (b & 1u) != 0 ? (b >> 1) ^ k_polynomial : b >> 1;
    }
    t[k] = p = prod;
  }
  return t;
}
constexpr auto k_x2n = make_x2n();

// x^(n * 2^k) mod p.
std::uint32_t x_pow_2n_mod_p(std::uint64_t n, unsigned k) {
  std::uint32_t p = 1u << 31;  // x^0
  while (n != 0) {
    if ((n & 1u) != 0) p = multiply_mod_p(k_x2n[k & 31u], p);
    n >>= 1;
    ++k;
  }
  return p;
}

}  // namespace

std::uint32_t crc32_update_table(std::uint32_t crc, std::span<const std::byte> bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  return ~table_kernel(~crc, p, bytes.size());
}

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::byte> bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  std::uint32_t c = ~crc;
#if defined(MSDUMP_X86_TIERS)
  if (n >= 64 && simd_tier() >= SimdTier::sse4_2) {
    const std::size_t folded = n & ~std::size_t{15};
    c = detail::crc32_pclmul_fold(c, p, folded);
    p += folded;
    n -= folded;
  }
#endif
  return ~table_kernel(c, p, n);
}

std::uint32_t crc32_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::uint64_t length_b) {
  // Appending length_b bytes multiplies a's contribution by x^(8 * length_b).
  return multiply_mod_p(x_pow_2n_mod_p(length_b, 3), crc_a) ^ crc_b;
}

}  // namespace msdump::stats
