#pragma once
// The fused statistics pass: one walk over a tensor's contiguous, native-endian element bytes
// yields everything msprobe's statistics and checksums need (Moments). Incremental (feed the
// bytes chunk by chunk; a chunk may end inside an element) and mergeable (threads accumulate
// adjacent parts, then merge in order).
//
// Accuracy and determinism: max/min/count/any/all are exact. Sums are accumulated in double
// lanes per block of k_block_elements elements (SIMD order), and the block partials are added
// exactly (ExactSum), so the result depends only on the data, not on chunk sizes, and not on
// the thread split as long as parts are split at multiples of k_block_elements elements.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "core/dtype.h"
#include "core/result.h"
#include "stats/exact_sum.h"
#include "stats/xor_checksum.h"

namespace msdump::stats {

// What one pass over a tensor found. Which fields are meaningful depends on the dtype's kind.
struct Moments {
  DType dtype = DType::float32;  // the dtype the bytes were read as
  std::uint64_t count = 0;       // complete elements seen
  std::uint64_t byte_count = 0;  // bytes seen (a multiple of itemsize unless the input was cut)

  // Floating, float8 and complex (|z|) dtypes. max/min order -0.0 below +0.0. When has_nan,
  // max and min are NaN. Integer dtypes also fill max/min (converted to double).
  bool has_nan = false;
  double max = 0.0;
  double min = 0.0;
  // Signed integer dtypes: exact extremes. Unsigned: max_uint/min_uint.
  std::int64_t max_int = 0;
  std::int64_t min_int = 0;
  std::uint64_t max_uint = 0;
  std::uint64_t min_uint = 0;
  // bool: some element is true (any()) / every element is true (all(); true when empty).
  bool any = false;
  bool all = true;

  // Sums over the element values (|z| for complex, float32(x) when float32_elements), each the
  // correctly rounded double of the exact sum of per-block double partials. IEEE rules for
  // non-finite elements: a NaN makes all three NaN, +inf and -inf together make sum NaN.
  // sum_abs only feeds tolerances and is NaN unless AccumulatorOptions::abs_sum.
  double sum = 0.0;
  double sum_sq = 0.0;
  double sum_abs = 0.0;

  std::optional<std::uint32_t> crc32;         // when AccumulatorOptions::crc32
  std::optional<std::uint64_t> xor_checksum;  // when AccumulatorOptions::xor_checksum
};

struct AccumulatorOptions {
  bool values = true;         // max/min/any/all/sums (false: only the requested checksums)
  bool crc32 = false;         // CRC-32 of the bytes (zlib.crc32)
  bool xor_checksum = false;  // msprobe's XOR checksum of the bytes
  // Sums over float32(x) instead of x, as msprobe's `.float()` casts do (integer and float64
  // tensors in the legacy profile and MindSpore). Max/min stay exact in the native dtype.
  bool float32_elements = false;
  // Sums of |x| (Moments::sum_abs, which only tolerances use). Without them the kernels do a
  // quarter less arithmetic per element and Moments::sum_abs is NaN.
  bool abs_sum = true;
  // Use the scalar reference kernel instead of the SIMD one (tests, diagnosis).
  bool reference_kernel = false;
};

class Accumulator {
 public:
  static constexpr std::uint64_t k_group_elements = 64;
  static constexpr std::uint64_t k_block_elements = 32768;

  // `start_byte`: offset of the first byte this accumulator will see from the start of the
  // tensor (non-zero for the second and later parts of a split tensor).
  explicit Accumulator(DType dtype, AccumulatorOptions options = {}, std::uint64_t start_byte = 0);

  // Adds the next bytes of the tensor. Chunks may have any length.
  void update(std::span<const std::byte> bytes);

  // Appends `next`, which must have accumulated the bytes directly after this one's, with the
  // same dtype and options. Fails (internal error) when they are not adjacent or this part ends
  // inside an element.
  Result<void> merge(const Accumulator& next);

  // The statistics of everything seen so far. Bytes of a trailing incomplete element are
  // counted in byte_count (and checksums) but not as an element.
  Moments moments() const;
  // The same, finishing this accumulator in place (no copy): it must not be updated or merged
  // afterwards.
  Moments take_moments();

  DType dtype() const { return m_dtype; }
  std::uint64_t byte_count() const { return m_bytes; }

 private:
  void consume(const std::byte* p, std::size_t n);
  void run_groups(const std::byte* p, std::uint64_t groups);
  void finish_partial();
  void flush_block();

  DType m_dtype;
  AccumulatorOptions m_options;
  std::size_t m_itemsize;
  std::uint64_t m_start_byte;
  std::uint64_t m_bytes = 0;
  std::uint64_t m_count = 0;     // elements folded into keys/lanes/sums
  std::uint64_t m_in_block = 0;  // elements in the current block's lanes
  std::int64_t m_max_key;
  std::int64_t m_min_key;
  alignas(64) std::array<double, 32> m_lane_sum{};
  alignas(64) std::array<double, 32> m_lane_sq{};
  alignas(64) std::array<double, 32> m_lane_abs{};
  ExactSum m_sum;
  ExactSum m_sum_sq;
  ExactSum m_sum_abs;
  std::array<std::byte, k_group_elements * 16> m_stage{};  // bytes of an incomplete group
  std::size_t m_stage_len = 0;
  std::uint32_t m_crc = 0;
  XorChecksum m_xor;
};

// One-shot helpers over a whole buffer (tensor offset 0).
Moments compute_moments(DType dtype, std::span<const std::byte> bytes, const AccumulatorOptions& options = {});

// The scalar reference implementation (stats_reference.cpp): one plain loop over the elements
// with long double compensated sums. The SIMD accumulator must match it exactly on counts,
// max/min, any/all and checksums, and within rounding on the sums.
Moments reference_moments(DType dtype, std::span<const std::byte> bytes, const AccumulatorOptions& options = {});

}  // namespace msdump::stats
