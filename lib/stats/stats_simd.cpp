// The vectorised statistics kernels. float32, bfloat16, float16 and float64 (the dtypes that
// dominate dumps) have xsimd kernels; the other dtypes use a lane-structured loop that the
// compiler vectorises. Every kernel accumulates in double: a float32 running sum stops growing
// at 2^24 when adding 1.0f, and msprobe's Mean/Norm must be reproduced to the last bit after
// rounding to the dtype.

#include "stats/stats_kernel.h"

// GCC 12's avx512fintrin.h initialises "undefined" registers with themselves (`__Y = __Y`),
// which -Wmaybe-uninitialized reports at every inlined use (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "stats/stats_element.h"

#if XSIMD_WITH_SSE2
#include <immintrin.h>
#define MSDUMP_STATS_X86_KERNELS 1
#endif

namespace msdump::stats::detail {
namespace {

constexpr std::size_t k_group = Accumulator::k_group_elements;

constexpr std::size_t size_of(DType d) {
  switch (d) {
    case DType::int8:
    case DType::uint8:
    case DType::boolean:
    case DType::float8_e4m3fn:
    case DType::float8_e5m2: return 1;
    case DType::float16:
    case DType::bfloat16:
    case DType::int16:
    case DType::uint16: return 2;
    case DType::float32:
    case DType::int32:
    case DType::uint32: return 4;
    case DType::float64:
    case DType::int64:
    case DType::uint64:
    case DType::complex64: return 8;
    case DType::complex128: return 16;
  }
  return 1;
}

// Element j of a group goes to lane j % k_lanes; with D a template argument the element
// decoding inlines to straight-line code the compiler can vectorise.
template <DType D>
void lanes_loop(bool float32_elements, const std::byte* p, std::size_t groups, const KernelState& st) {
  constexpr std::size_t isz = size_of(D);
  std::int64_t kmax = *st.max_key, kmin = *st.min_key;
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t j = 0; j < k_group; ++j) {
      const auto e = element_value(D, p + (g * k_group + j) * isz, float32_elements);
      const std::size_t lane = j % k_lanes;
      st.sum[lane] += e.value;
      st.sum_sq[lane] = std::fma(e.value, e.value, st.sum_sq[lane]);
      st.sum_abs[lane] += std::fabs(e.value);
      kmax = std::max(kmax, e.key);
      kmin = std::min(kmin, e.key);
    }
  }
  *st.max_key = kmax;
  *st.min_key = kmin;
}

#ifdef MSDUMP_STATS_X86_KERNELS

using FloatBatch = xsimd::batch<float>;
using DoubleBatch = xsimd::batch<double>;
using Int16Batch = xsimd::batch<std::int16_t>;
using Int32Batch = xsimd::batch<std::int32_t>;
using Int64Batch = xsimd::batch<std::int64_t>;
constexpr std::size_t k_floats = FloatBatch::size;
constexpr std::size_t k_doubles = DoubleBatch::size;
// A step handles 2 float registers' worth of elements and feeds 4 double accumulators per sum.
constexpr std::size_t k_step = 2 * k_floats;
static_assert(k_floats == 2 * k_doubles && 4 * k_doubles == k_step);
static_assert(k_step <= k_lanes && k_group % k_step == 0);
static_assert(Int16Batch::size == k_step);

// float -> double of the lower / upper half of a float register (xsimd 8 has no widening).
inline DoubleBatch widen_lo(FloatBatch x) {
#if XSIMD_WITH_AVX512F
  return _mm512_cvtps_pd(_mm512_castps512_ps256(x));
#elif XSIMD_WITH_AVX
  return _mm256_cvtps_pd(_mm256_castps256_ps128(x));
#else
  return _mm_cvtps_pd(x);
#endif
}
inline DoubleBatch widen_hi(FloatBatch x) {
#if XSIMD_WITH_AVX512F
  return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)));
#elif XSIMD_WITH_AVX
  return _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
#else
  return _mm_cvtps_pd(_mm_movehl_ps(x, x));
#endif
}

// The three sums in 4 registers each (4 independent add chains hide the add latency).
class Sums {
 public:
  explicit Sums(const KernelState& st) : m_st(st) {
    for (std::size_t k = 0; k < 4; ++k) {
      m_sum[k] = DoubleBatch::load_unaligned(st.sum + k * k_doubles);
      m_sq[k] = DoubleBatch::load_unaligned(st.sum_sq + k * k_doubles);
      m_abs[k] = DoubleBatch::load_unaligned(st.sum_abs + k * k_doubles);
    }
  }
  ~Sums() {
    for (std::size_t k = 0; k < 4; ++k) {
      m_sum[k].store_unaligned(m_st.sum + k * k_doubles);
      m_sq[k].store_unaligned(m_st.sum_sq + k * k_doubles);
      m_abs[k].store_unaligned(m_st.sum_abs + k * k_doubles);
    }
  }
  Sums(const Sums&) = delete;
  Sums& operator=(const Sums&) = delete;

  void add(std::size_t k, DoubleBatch d) {
    m_sum[k] += d;
    m_sq[k] = xsimd::fma(d, d, m_sq[k]);
    m_abs[k] += xsimd::abs(d);
  }
  void add_floats(FloatBatch lo_pair, FloatBatch hi_pair) {
    add(0, widen_lo(lo_pair));
    add(1, widen_hi(lo_pair));
    add(2, widen_lo(hi_pair));
    add(3, widen_hi(hi_pair));
  }

 private:
  const KernelState& m_st;
  DoubleBatch m_sum[4], m_sq[4], m_abs[4];
};

// Running max/min of keys in a register of T lanes, folded into the int64 keys at the end.
template <typename T>
class Extremes {
 public:
  using Batch = xsimd::batch<T>;
  explicit Extremes(const KernelState& st)
      : m_st(st), m_max(std::numeric_limits<T>::min()), m_min(std::numeric_limits<T>::max()) {}
  ~Extremes() {
    alignas(64) std::array<T, Batch::size> hi{}, lo{};
    m_max.store_aligned(hi.data());
    m_min.store_aligned(lo.data());
    for (std::size_t k = 0; k < Batch::size; ++k) {
      *m_st.max_key = std::max<std::int64_t>(*m_st.max_key, hi[k]);
      *m_st.min_key = std::min<std::int64_t>(*m_st.min_key, lo[k]);
    }
  }
  Extremes(const Extremes&) = delete;
  Extremes& operator=(const Extremes&) = delete;
  void add(Batch key) {
    m_max = xsimd::max(m_max, key);
    m_min = xsimd::min(m_min, key);
  }

 private:
  const KernelState& m_st;
  Batch m_max, m_min;
};

// stats_element.h's float_key on whole registers.
inline Int16Batch keys16(Int16Batch b) { return b ^ ((b >> 15) & Int16Batch(0x7fff)); }
inline Int32Batch keys32(Int32Batch b) { return b ^ ((b >> 31) & Int32Batch(0x7fffffff)); }
inline Int64Batch keys64(Int64Batch b) {
  return b ^ ((b >> 63) & Int64Batch(std::numeric_limits<std::int64_t>::max()));
}

void float32_groups(const std::byte* p, std::size_t groups, const KernelState& st) {
  const auto* f = reinterpret_cast<const float*>(p);
  Sums sums(st);
  Extremes<std::int32_t> ext(st);
  const std::size_t n = groups * k_group;
  for (std::size_t i = 0; i < n; i += k_step) {
    const auto x0 = FloatBatch::load_unaligned(f + i);
    const auto x1 = FloatBatch::load_unaligned(f + i + k_floats);
    const auto k0 = keys32(xsimd::bitwise_cast<Int32Batch>(x0));
    const auto k1 = keys32(xsimd::bitwise_cast<Int32Batch>(x1));
    ext.add(xsimd::max(k0, k1));  // max(max(a, b)) and min(min(a, b)) equal max/min over both
    ext.add(xsimd::min(k0, k1));
    sums.add_floats(x0, x1);
  }
}

void bfloat16_groups(const std::byte* p, std::size_t groups, const KernelState& st) {
  const auto* w = reinterpret_cast<const std::int32_t*>(p);
  Sums sums(st);
  Extremes<std::int16_t> ext(st);
  const std::size_t n = groups * k_group;
  const Int32Batch high_half(static_cast<std::int32_t>(0xffff0000u));
  for (std::size_t i = 0; i < n; i += k_step) {
    // one register holds k_step bf16 values; widening is a shift (even) or a mask (odd)
    const auto words = Int32Batch::load_unaligned(w + i / 2);
    ext.add(keys16(xsimd::bitwise_cast<Int16Batch>(words)));
    const auto even = xsimd::bitwise_cast<FloatBatch>(words << 16);
    const auto odd = xsimd::bitwise_cast<FloatBatch>(words & high_half);
    sums.add_floats(even, odd);
  }
}

#if defined(__F16C__) && (XSIMD_WITH_AVX512F || XSIMD_WITH_AVX)
#define MSDUMP_STATS_F16C 1
inline FloatBatch half_batch_to_float(const std::byte* p) {
#if XSIMD_WITH_AVX512F
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
#else
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#endif
}

void float16_groups(const std::byte* p, std::size_t groups, const KernelState& st) {
  const auto* h = reinterpret_cast<const std::int16_t*>(p);
  Sums sums(st);
  Extremes<std::int16_t> ext(st);
  const std::size_t n = groups * k_group;
  for (std::size_t i = 0; i < n; i += k_step) {
    ext.add(keys16(Int16Batch::load_unaligned(h + i)));
    sums.add_floats(half_batch_to_float(p + 2 * i), half_batch_to_float(p + 2 * (i + k_floats)));
  }
}
#endif

void float64_groups(const std::byte* p, std::size_t groups, const KernelState& st) {
  const auto* d = reinterpret_cast<const double*>(p);
  Sums sums(st);
  Extremes<std::int64_t> ext(st);
  const std::size_t n = groups * k_group;
  for (std::size_t i = 0; i < n; i += k_step) {
    DoubleBatch x[4];
    for (std::size_t k = 0; k < 4; ++k) {
      x[k] = DoubleBatch::load_unaligned(d + i + k * k_doubles);
      sums.add(k, x[k]);
    }
    const auto k01 = xsimd::max(keys64(xsimd::bitwise_cast<Int64Batch>(x[0])),
                                keys64(xsimd::bitwise_cast<Int64Batch>(x[1])));
    const auto k23 = xsimd::max(keys64(xsimd::bitwise_cast<Int64Batch>(x[2])),
                                keys64(xsimd::bitwise_cast<Int64Batch>(x[3])));
    const auto m01 = xsimd::min(keys64(xsimd::bitwise_cast<Int64Batch>(x[0])),
                                keys64(xsimd::bitwise_cast<Int64Batch>(x[1])));
    const auto m23 = xsimd::min(keys64(xsimd::bitwise_cast<Int64Batch>(x[2])),
                                keys64(xsimd::bitwise_cast<Int64Batch>(x[3])));
    ext.add(xsimd::max(k01, k23));
    ext.add(xsimd::min(m01, m23));
  }
}

#endif  // MSDUMP_STATS_X86_KERNELS

}  // namespace

void simd_groups(DType dtype, bool float32_elements, const std::byte* p, std::size_t groups, const KernelState& st) {
  if (groups == 0) return;
  switch (dtype) {
#ifdef MSDUMP_STATS_X86_KERNELS
    case DType::float32: return float32_groups(p, groups, st);
    case DType::bfloat16: return bfloat16_groups(p, groups, st);
#ifdef MSDUMP_STATS_F16C
    case DType::float16: return float16_groups(p, groups, st);
#else
    case DType::float16: return lanes_loop<DType::float16>(float32_elements, p, groups, st);
#endif
    case DType::float64:
      if (float32_elements) return lanes_loop<DType::float64>(true, p, groups, st);
      return float64_groups(p, groups, st);
#else
    case DType::float32: return lanes_loop<DType::float32>(float32_elements, p, groups, st);
    case DType::bfloat16: return lanes_loop<DType::bfloat16>(float32_elements, p, groups, st);
    case DType::float16: return lanes_loop<DType::float16>(float32_elements, p, groups, st);
    case DType::float64: return lanes_loop<DType::float64>(float32_elements, p, groups, st);
#endif
    case DType::int8: return lanes_loop<DType::int8>(float32_elements, p, groups, st);
    case DType::int16: return lanes_loop<DType::int16>(float32_elements, p, groups, st);
    case DType::int32: return lanes_loop<DType::int32>(float32_elements, p, groups, st);
    case DType::int64: return lanes_loop<DType::int64>(float32_elements, p, groups, st);
    case DType::uint8: return lanes_loop<DType::uint8>(float32_elements, p, groups, st);
    case DType::uint16: return lanes_loop<DType::uint16>(float32_elements, p, groups, st);
    case DType::uint32: return lanes_loop<DType::uint32>(float32_elements, p, groups, st);
    case DType::uint64: return lanes_loop<DType::uint64>(float32_elements, p, groups, st);
    case DType::boolean: return lanes_loop<DType::boolean>(float32_elements, p, groups, st);
    case DType::complex64: return lanes_loop<DType::complex64>(float32_elements, p, groups, st);
    case DType::complex128: return lanes_loop<DType::complex128>(float32_elements, p, groups, st);
    case DType::float8_e4m3fn: return lanes_loop<DType::float8_e4m3fn>(float32_elements, p, groups, st);
    case DType::float8_e5m2: return lanes_loop<DType::float8_e5m2>(float32_elements, p, groups, st);
  }
}

void scalar_elements(DType dtype, bool float32_elements, const std::byte* p, std::size_t n, const KernelState& st) {
  const std::size_t isz = size_of(dtype);
  for (std::size_t i = 0; i < n; ++i) {
    const auto e = element_value(dtype, p + i * isz, float32_elements);
    st.sum[0] += e.value;
    st.sum_sq[0] = std::fma(e.value, e.value, st.sum_sq[0]);
    st.sum_abs[0] += std::fabs(e.value);
    *st.max_key = std::max(*st.max_key, e.key);
    *st.min_key = std::min(*st.min_key, e.key);
  }
}

}  // namespace msdump::stats::detail
