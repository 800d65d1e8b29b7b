#include "stats/crc32.h"

#include <array>
#include <cstring>

#if defined(__PCLMUL__) && defined(__SSE4_1__)
#include <immintrin.h>
#define MSDUMP_CRC32_PCLMUL 1
#endif

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

#ifdef MSDUMP_CRC32_PCLMUL
// Carry-less multiplication folding (Intel, "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ", 2009), four 128-bit lanes in flight; constants for the bit-reflected IEEE
// polynomial as in Chromium's zlib (crc32_simd.c). Needs n >= 64 and n % 16 == 0; works on
// the pre-inverted register value.
std::uint32_t pclmul_kernel(std::uint32_t c, const unsigned char* p, std::size_t n) {
  alignas(16) static constexpr std::uint64_t k1k2[] = {0x0154442bd4, 0x01c6e41596};
  alignas(16) static constexpr std::uint64_t k3k4[] = {0x01751997d0, 0x00ccaa009e};
  alignas(16) static constexpr std::uint64_t k5k0[] = {0x0163cd6124, 0x0000000000};
  alignas(16) static constexpr std::uint64_t poly[] = {0x01db710641, 0x01f7011641};
  auto load = [](const unsigned char* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); };
  auto fold = [](__m128i x, __m128i k, __m128i data) {
    const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
    const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(hi, lo), data);
  };

  __m128i x1 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(c)));
  __m128i x2 = load(p + 16);
  __m128i x3 = load(p + 32);
  __m128i x4 = load(p + 48);
  p += 64;
  n -= 64;
  const __m128i k12 = _mm_load_si128(reinterpret_cast<const __m128i*>(k1k2));
  while (n >= 64) {
    _mm_prefetch(reinterpret_cast<const char*>(p) + 8192, _MM_HINT_T0);  // stay ahead of DRAM
    x1 = fold(x1, k12, load(p));
    x2 = fold(x2, k12, load(p + 16));
    x3 = fold(x3, k12, load(p + 32));
    x4 = fold(x4, k12, load(p + 48));
    p += 64;
    n -= 64;
  }
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(k3k4));
  x1 = fold(x1, k34, x2);
  x1 = fold(x1, k34, x3);
  x1 = fold(x1, k34, x4);
  while (n >= 16) {
    x1 = fold(x1, k34, load(p));
    p += 16;
    n -= 16;
  }
  // 128 -> 64 bits
  __m128i x2b = _mm_clmulepi64_si128(x1, k34, 0x10);
  const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2b);
  const __m128i k50 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(k5k0));
  x2b = _mm_srli_si128(x1, 4);
  x1 = _mm_and_si128(x1, mask32);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k50, 0x00), x2b);
  // Barrett reduction to 32 bits
  const __m128i pl = _mm_load_si128(reinterpret_cast<const __m128i*>(poly));
  x2b = _mm_and_si128(x1, mask32);
  x2b = _mm_clmulepi64_si128(x2b, pl, 0x10);
  x2b = _mm_and_si128(x2b, mask32);
  x2b = _mm_clmulepi64_si128(x2b, pl, 0x00);
  x1 = _mm_xor_si128(x1, x2b);
  return static_cast<std::uint32_t>(_mm_extract_epi32(x1, 1));
}
#endif

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
#ifdef MSDUMP_CRC32_PCLMUL
  if (n >= 64) {
    const std::size_t folded = n & ~std::size_t{15};
    c = pclmul_kernel(c, p, folded);
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
