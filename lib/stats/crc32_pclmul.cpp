// CRC-32 folding with PCLMULQDQ, compiled for the sse4.2 SIMD tier (cmake/SimdTiers.cmake).

#include "stats/crc32_pclmul.h"

#include <immintrin.h>

namespace msdump::stats::detail {

// Carry-less multiplication folding (Intel, "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ", 2009), four 128-bit lanes in flight; constants for the bit-reflected IEEE
// polynomial as in Chromium's zlib (crc32_simd.c). Needs n >= 64 and n % 16 == 0; works on
// the pre-inverted register value.
std::uint32_t crc32_pclmul_fold(std::uint32_t c, const unsigned char* p, std::size_t n) {
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

}  // namespace msdump::stats::detail
