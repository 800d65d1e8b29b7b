// The vectorised statistics kernels. float32, bfloat16, float16 and float64 (the dtypes that
// dominate dumps) have xsimd kernels; the other dtypes use a lane-structured loop that the
// compiler vectorises. Every kernel accumulates in double: a float32 running sum stops growing
// at 2^24 when adding 1.0f, and msprobe's Mean/Norm must be reproduced to the last bit after
// rounding to the dtype.

#include "stats/stats_kernel.h"

// GCC 12's avx512fintrin.h initialises "undefined" registers with themselves (`__Y = __Y`),
// which -W(maybe-)uninitialized reports at every inlined use (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
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
// Software prefetch distance and target. The fused loop does several times the work per byte
// of a plain sum, so the out-of-order window alone does not run far enough ahead and the loop
// stalled on DRAM. Prefetching 8 KiB ahead fixes that; into L2 only (locality 2, prefetcht1)
// rather than L1, so the L1 fill buffers stay free for the demand loads (docs/performance.md
// "Statistics kernels").
constexpr std::size_t k_prefetch_bytes = 8192;
constexpr int k_prefetch_locality = 2;

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
// decoding inlines to straight-line code the compiler can vectorise. The lanes live in local
// arrays (not behind the state's pointers) so the compiler knows they do not alias.
template <DType D>
void lanes_loop(bool float32_elements, const std::byte* p, std::size_t groups, const KernelState& st) {
  constexpr std::size_t isz = size_of(D);
  alignas(64) double sum[k_lanes], sq[k_lanes], abs[k_lanes];
  std::int64_t kmax[k_lanes], kmin[k_lanes];
  for (std::size_t l = 0; l < k_lanes; ++l) {
    sum[l] = st.sum[l];
    sq[l] = st.sum_sq[l];
    abs[l] = st.sum_abs[l];
    kmax[l] = *st.max_key;
    kmin[l] = *st.min_key;
  }
  for (std::size_t g = 0; g < groups * (k_group / k_lanes); ++g) {
    const std::byte* q = p + g * k_lanes * isz;
    for (std::size_t line = 0; line < k_lanes * isz; line += 64) __builtin_prefetch(q + line + k_prefetch_bytes, 0, k_prefetch_locality);
    for (std::size_t l = 0; l < k_lanes; ++l) {
      const auto e = element_value(D, q + l * isz, float32_elements);
      sum[l] += e.value;
      sq[l] = std::fma(e.value, e.value, sq[l]);
      abs[l] += std::fabs(e.value);
      kmax[l] = std::max(kmax[l], e.key);
      kmin[l] = std::min(kmin[l], e.key);
    }
  }
  for (std::size_t l = 0; l < k_lanes; ++l) {
    st.sum[l] = sum[l];
    st.sum_sq[l] = sq[l];
    st.sum_abs[l] = abs[l];
    *st.max_key = std::max(*st.max_key, kmax[l]);
    *st.min_key = std::min(*st.min_key, kmin[l]);
  }
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

// k_doubles floats at f, converted to double (a memory-operand conversion: no extract).
inline DoubleBatch widen_load(const float* f) {
#if XSIMD_WITH_AVX512F
  return _mm512_cvtps_pd(_mm256_loadu_ps(f));
#elif XSIMD_WITH_AVX
  return _mm256_cvtps_pd(_mm_loadu_ps(f));
#else
  return _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(f))));
#endif
}

// stats_element.h's float_key on whole registers.
inline Int16Batch keys16(Int16Batch b) { return b ^ ((b >> 15) & Int16Batch(0x7fff)); }
inline Int32Batch keys32(Int32Batch b) { return b ^ ((b >> 31) & Int32Batch(0x7fffffff)); }
inline Int64Batch keys64(Int64Batch b) {
  return b ^ ((b >> 63) & Int64Batch(std::numeric_limits<std::int64_t>::max()));
}

// Max/min through the order-preserving integer keys of stats_element.h, in Key-sized lanes.
template <typename K>
struct KeyExtremes {
  using Key = K;
  using Ext = xsimd::batch<K>;
  static Ext ext_max(Ext a, Ext b) { return xsimd::max(a, b); }
  static Ext ext_min(Ext a, Ext b) { return xsimd::min(a, b); }
  static Ext max_identity() { return Ext(std::numeric_limits<K>::min()); }
  static Ext min_identity() { return Ext(std::numeric_limits<K>::max()); }
  // NaN elements are ordered by their keys, so `nan_seen` adds nothing.
  static void fold(Ext hi, Ext lo, bool /*nan_seen*/, const KernelState& st) {
    alignas(64) std::array<K, Ext::size> h{}, l{};
    hi.store_aligned(h.data());
    lo.store_aligned(l.data());
    for (std::size_t k = 0; k < Ext::size; ++k) {
      *st.max_key = std::max<std::int64_t>(*st.max_key, h[k]);
      *st.min_key = std::min<std::int64_t>(*st.min_key, l[k]);
    }
  }
};

// Per-dtype step: from the k_step elements at element index i, the step's max and min (in Ext
// lanes: keys, or floats for VRANGEPS), and the four double registers of values.
#if XSIMD_WITH_AVX512DQ
// float32 on AVX-512: max/min with VRANGEPS, which orders -0.0 below +0.0 like the keys do but
// ignores NaN operands; a NaN is detected instead from the sums of squares, which become NaN
// exactly when a NaN element was added (x*x is never -inf, so no inf - inf). Half the
// instructions of the key compare, and the loop is bound by its arithmetic (docs/performance.md
// "Statistics kernels").
#define MSDUMP_STATS_FLOAT32_RANGE 1
struct Float32Step {
  using Key = std::int32_t;  // the element size (the extremes themselves are floats)
  using Ext = FloatBatch;
  static Ext ext_max(Ext a, Ext b) { return _mm512_range_ps(a, b, 0x5); }
  static Ext ext_min(Ext a, Ext b) { return _mm512_range_ps(a, b, 0x4); }
  static Ext max_identity() { return Ext(-std::numeric_limits<float>::infinity()); }
  static Ext min_identity() { return Ext(std::numeric_limits<float>::infinity()); }
  static void load(const std::byte* p, std::size_t i, Ext& hi, Ext& lo, DoubleBatch (&d)[4]) {
    const auto* f = reinterpret_cast<const float*>(p) + i;
    const auto x0 = FloatBatch::load_unaligned(f);
    const auto x1 = FloatBatch::load_unaligned(f + k_floats);
    hi = ext_max(x0, x1);
    lo = ext_min(x0, x1);
    for (std::size_t j = 0; j < 4; ++j) d[j] = widen_load(f + j * k_doubles);
  }
  // Folds the lanes into the keys. `nan_seen`: some sum of squares of the block is NaN.
  static void fold(Ext hi, Ext lo, bool nan_seen, const KernelState& st) {
    alignas(64) std::array<float, k_floats> h{}, l{};
    hi.store_aligned(h.data());
    lo.store_aligned(l.data());
    for (std::size_t k = 0; k < k_floats; ++k) {
      *st.max_key = std::max(*st.max_key, float_key(std::bit_cast<std::uint32_t>(h[k])));
      *st.min_key = std::min(*st.min_key, float_key(std::bit_cast<std::uint32_t>(l[k])));
    }
    if (nan_seen) {
      const float nan = std::numeric_limits<float>::quiet_NaN();
      *st.max_key = std::max(*st.max_key, float_key(std::bit_cast<std::uint32_t>(nan)));
      *st.min_key = std::min(*st.min_key, float_key(std::bit_cast<std::uint32_t>(-nan)));
    }
  }
};
#else
struct Float32Step : KeyExtremes<std::int32_t> {
  static void load(const std::byte* p, std::size_t i, Ext& hi, Ext& lo,
                   DoubleBatch (&d)[4]) {
    const auto* f = reinterpret_cast<const float*>(p) + i;
    const auto x0 = FloatBatch::load_unaligned(f);
    const auto x1 = FloatBatch::load_unaligned(f + k_floats);
    const auto k0 = keys32(xsimd::bitwise_cast<Int32Batch>(x0));
    const auto k1 = keys32(xsimd::bitwise_cast<Int32Batch>(x1));
    hi = xsimd::max(k0, k1);
    lo = xsimd::min(k0, k1);
    // widen straight from memory (half-register loads hit L1) instead of extracting upper halves
    for (std::size_t j = 0; j < 4; ++j) d[j] = widen_load(f + j * k_doubles);
  }
};

#endif

struct BFloat16Step : KeyExtremes<std::int16_t> {
  static void load(const std::byte* p, std::size_t i, Ext& hi, Ext& lo,
                   DoubleBatch (&d)[4]) {
    // one register holds k_step bf16 values; widening to float is a shift (even elements) or
    // a mask (odd elements)
    const auto words = Int32Batch::load_unaligned(reinterpret_cast<const std::int32_t*>(p) + i / 2);
    hi = lo = keys16(xsimd::bitwise_cast<Int16Batch>(words));
    const auto even = xsimd::bitwise_cast<FloatBatch>(words << 16);
    const auto odd = xsimd::bitwise_cast<FloatBatch>(words & Int32Batch(static_cast<std::int32_t>(0xffff0000u)));
    d[0] = widen_lo(even);
    d[1] = widen_hi(even);
    d[2] = widen_lo(odd);
    d[3] = widen_hi(odd);
  }
};

#if defined(__F16C__) && (XSIMD_WITH_AVX512F || XSIMD_WITH_AVX)
#define MSDUMP_STATS_F16C 1
inline FloatBatch half_batch_to_float(const std::byte* p) {
#if XSIMD_WITH_AVX512F
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
#else
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#endif
}

struct Float16Step : KeyExtremes<std::int16_t> {
  static void load(const std::byte* p, std::size_t i, Ext& hi, Ext& lo,
                   DoubleBatch (&d)[4]) {
    hi = lo = keys16(Int16Batch::load_unaligned(reinterpret_cast<const std::int16_t*>(p) + i));
    const auto x0 = half_batch_to_float(p + 2 * i);
    const auto x1 = half_batch_to_float(p + 2 * (i + k_floats));
    d[0] = widen_lo(x0);
    d[1] = widen_hi(x0);
    d[2] = widen_lo(x1);
    d[3] = widen_hi(x1);
  }
};
#endif

struct Float64Step : KeyExtremes<std::int64_t> {
  static void load(const std::byte* p, std::size_t i, Ext& hi, Ext& lo,
                   DoubleBatch (&d)[4]) {
    const auto* f = reinterpret_cast<const double*>(p) + i;
    Int64Batch k[4];
    for (std::size_t j = 0; j < 4; ++j) {
      d[j] = DoubleBatch::load_unaligned(f + j * k_doubles);
      k[j] = keys64(xsimd::bitwise_cast<Int64Batch>(d[j]));
    }
    hi = xsimd::max(xsimd::max(k[0], k[1]), xsimd::max(k[2], k[3]));
    lo = xsimd::min(xsimd::min(k[0], k[1]), xsimd::min(k[2], k[3]));
  }
};

// The fused loop. Every accumulator is a named local so the compiler keeps all of them in
// registers (arrays of registers behind an object were spilled to the stack, halving speed).
// Without `Abs` the sums of |x| are skipped: only the verifier's tolerances use them.
template <typename Step, bool Abs>
void step_groups(const std::byte* p, std::size_t groups, const KernelState& st) {
  using Ext = typename Step::Ext;
  DoubleBatch s0 = DoubleBatch::load_unaligned(st.sum), s1 = DoubleBatch::load_unaligned(st.sum + k_doubles),
              s2 = DoubleBatch::load_unaligned(st.sum + 2 * k_doubles),
              s3 = DoubleBatch::load_unaligned(st.sum + 3 * k_doubles);
  DoubleBatch q0 = DoubleBatch::load_unaligned(st.sum_sq), q1 = DoubleBatch::load_unaligned(st.sum_sq + k_doubles),
              q2 = DoubleBatch::load_unaligned(st.sum_sq + 2 * k_doubles),
              q3 = DoubleBatch::load_unaligned(st.sum_sq + 3 * k_doubles);
  DoubleBatch a0 = DoubleBatch::load_unaligned(st.sum_abs), a1 = DoubleBatch::load_unaligned(st.sum_abs + k_doubles),
              a2 = DoubleBatch::load_unaligned(st.sum_abs + 2 * k_doubles),
              a3 = DoubleBatch::load_unaligned(st.sum_abs + 3 * k_doubles);
  Ext kmax = Step::max_identity(), kmin = Step::min_identity();
  const std::size_t n = groups * k_group;
  constexpr std::size_t step_bytes = k_step * sizeof(typename Step::Key);
  for (std::size_t i = 0; i < n; i += k_step) {
    Ext hi, lo;
    DoubleBatch d[4];
    for (std::size_t line = 0; line < step_bytes; line += 64)
      __builtin_prefetch(p + (i * sizeof(typename Step::Key) + line + k_prefetch_bytes), 0, k_prefetch_locality);
    Step::load(p, i, hi, lo, d);
    kmax = Step::ext_max(kmax, hi);
    kmin = Step::ext_min(kmin, lo);
    s0 += d[0];
    s1 += d[1];
    s2 += d[2];
    s3 += d[3];
    q0 = xsimd::fma(d[0], d[0], q0);
    q1 = xsimd::fma(d[1], d[1], q1);
    q2 = xsimd::fma(d[2], d[2], q2);
    q3 = xsimd::fma(d[3], d[3], q3);
    if constexpr (Abs) {
      a0 += xsimd::abs(d[0]);
      a1 += xsimd::abs(d[1]);
      a2 += xsimd::abs(d[2]);
      a3 += xsimd::abs(d[3]);
    }
  }
  s0.store_unaligned(st.sum);
  s1.store_unaligned(st.sum + k_doubles);
  s2.store_unaligned(st.sum + 2 * k_doubles);
  s3.store_unaligned(st.sum + 3 * k_doubles);
  q0.store_unaligned(st.sum_sq);
  q1.store_unaligned(st.sum_sq + k_doubles);
  q2.store_unaligned(st.sum_sq + 2 * k_doubles);
  q3.store_unaligned(st.sum_sq + 3 * k_doubles);
  a0.store_unaligned(st.sum_abs);
  a1.store_unaligned(st.sum_abs + k_doubles);
  a2.store_unaligned(st.sum_abs + 2 * k_doubles);
  a3.store_unaligned(st.sum_abs + 3 * k_doubles);
  const bool nan_seen = xsimd::any(xsimd::isnan(q0) || xsimd::isnan(q1) || xsimd::isnan(q2) || xsimd::isnan(q3));
  Step::fold(kmax, kmin, nan_seen, st);
}

template <typename Step>
void step_groups(bool abs_sum, const std::byte* p, std::size_t groups, const KernelState& st) {
  if (abs_sum) return step_groups<Step, true>(p, groups, st);
  step_groups<Step, false>(p, groups, st);
}

#endif  // MSDUMP_STATS_X86_KERNELS

}  // namespace

void simd_groups(DType dtype, bool float32_elements, bool abs_sum, const std::byte* p, std::size_t groups, const KernelState& st) {
  if (groups == 0) return;
  switch (dtype) {
#ifdef MSDUMP_STATS_X86_KERNELS
    case DType::float32: return step_groups<Float32Step>(abs_sum, p, groups, st);
    case DType::bfloat16: return step_groups<BFloat16Step>(abs_sum, p, groups, st);
#ifdef MSDUMP_STATS_F16C
    case DType::float16: return step_groups<Float16Step>(abs_sum, p, groups, st);
#else
    case DType::float16: return lanes_loop<DType::float16>(float32_elements, p, groups, st);
#endif
    case DType::float64:
      if (float32_elements) return lanes_loop<DType::float64>(true, p, groups, st);
      return step_groups<Float64Step>(abs_sum, p, groups, st);
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

namespace {

// scalar_elements' loop. Always inlined, so that a call with a constant dtype compiles to a loop
// without a dispatch per element.
[[gnu::always_inline]] inline void scalar_loop(DType dtype, bool float32_elements, const std::byte* p, std::size_t n,
                                               const KernelState& st) {
  const std::size_t isz = size_of(dtype);
  double sum = st.sum[0], sq = st.sum_sq[0], abs = st.sum_abs[0];
  std::int64_t max_key = *st.max_key, min_key = *st.min_key;
  for (std::size_t i = 0; i < n; ++i) {
    const auto e = element_value(dtype, p + i * isz, float32_elements);
    sum += e.value;
    sq = std::fma(e.value, e.value, sq);
    abs += std::fabs(e.value);
    max_key = std::max(max_key, e.key);
    min_key = std::min(min_key, e.key);
  }
  st.sum[0] = sum;
  st.sum_sq[0] = sq;
  st.sum_abs[0] = abs;
  *st.max_key = max_key;
  *st.min_key = min_key;
}

}  // namespace

void scalar_elements(DType dtype, bool float32_elements, const std::byte* p, std::size_t n, const KernelState& st) {
  switch (dtype) {  // the common dtypes as constants
    case DType::float32: return scalar_loop(DType::float32, float32_elements, p, n, st);
    case DType::float16: return scalar_loop(DType::float16, float32_elements, p, n, st);
    case DType::bfloat16: return scalar_loop(DType::bfloat16, float32_elements, p, n, st);
    case DType::float64: return scalar_loop(DType::float64, float32_elements, p, n, st);
    case DType::int64: return scalar_loop(DType::int64, float32_elements, p, n, st);
    case DType::int32: return scalar_loop(DType::int32, float32_elements, p, n, st);
    default: return scalar_loop(dtype, float32_elements, p, n, st);
  }
}

}  // namespace msdump::stats::detail
