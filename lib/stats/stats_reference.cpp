// The scalar reference for the statistics kernels: one plain loop over the elements, sums in
// long double with Neumaier compensation, CRC from the byte table, XOR byte by byte. It shares
// only the per-element definitions (stats_element.h) with the fast path, so the tests that hold
// the two together check the SIMD kernels, the chunking, the block/lane bookkeeping and the
// exact summation independently.

#include <cmath>

#include "stats/accumulator.h"
#include "stats/crc32.h"
#include "stats/stats_element.h"
#include "stats/stats_kernel.h"

namespace msdump::stats {
namespace {

class CompensatedSum {
 public:
  void add(long double v) {
    const long double t = m_sum + v;
    if (std::isfinite(t)) {
      m_comp += std::fabs(m_sum) >= std::fabs(v) ? (m_sum - t) + v : (v - t) + m_sum;
    }
    m_sum = t;
  }
  double value() const {
    if (!std::isfinite(m_sum)) return static_cast<double>(m_sum);
    return static_cast<double>(m_sum + m_comp);
  }

 private:
  long double m_sum = 0.0L;
  long double m_comp = 0.0L;
};

}  // namespace

Moments reference_moments(DType dtype, std::span<const std::byte> bytes, const AccumulatorOptions& options) {
  const std::size_t isz = itemsize(dtype);
  const std::size_t n = bytes.size() / isz;
  std::int64_t max_key = detail::k_no_max_key;
  std::int64_t min_key = detail::k_no_min_key;
  CompensatedSum sum, sum_sq, sum_abs;
  for (std::size_t i = 0; i < n; ++i) {
    const auto e = detail::element_value(dtype, bytes.data() + i * isz, options.float32_elements);
    max_key = std::max(max_key, e.key);
    min_key = std::min(min_key, e.key);
    const long double v = e.value;
    sum.add(v);
    sum_sq.add(v * v);
    sum_abs.add(std::fabs(v));
  }
  Moments m;
  if (options.values) {
    m = detail::make_moments(dtype, n, bytes.size(), max_key, min_key, sum.value(), sum_sq.value(), sum_abs.value());
  } else {
    m.dtype = dtype;
    m.count = n;
    m.byte_count = bytes.size();
  }
  if (options.crc32) m.crc32 = crc32_update_table(0, bytes);
  if (options.xor_checksum) {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) word ^= static_cast<std::uint64_t>(bytes[i]) << (8 * (i % 8));
    m.xor_checksum = word;
  }
  return m;
}

}  // namespace msdump::stats
