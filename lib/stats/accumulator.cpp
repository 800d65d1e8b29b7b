#include "stats/accumulator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "stats/crc32.h"
#include "stats/stats_element.h"
#include "stats/stats_kernel.h"

namespace msdump::stats {
namespace {

// Checksums and element statistics are computed piece by piece, so a piece is still in L2
// cache when the second pass over it runs.
constexpr std::size_t k_piece_bytes = 256 * 1024;

}  // namespace

namespace detail {

Moments make_moments(DType dtype, std::uint64_t count, std::uint64_t byte_count, std::int64_t max_key,
                     std::int64_t min_key, double sum, double sum_sq, double sum_abs) {
  Moments m;
  m.dtype = dtype;
  m.count = count;
  m.byte_count = byte_count;
  m.sum = sum;
  m.sum_sq = sum_sq;
  m.sum_abs = sum_abs;
  if (count == 0) {
    m.all = true;
    return m;
  }
  switch (dtype_info(dtype).kind) {
    case DTypeKind::floating:
    case DTypeKind::float8:
    case DTypeKind::complex:
      m.max = float_from_key(dtype, max_key);
      m.min = float_from_key(dtype, min_key);
      m.has_nan = std::isnan(m.max) || std::isnan(m.min);
      if (m.has_nan) m.max = m.min = std::numeric_limits<double>::quiet_NaN();
      break;
    case DTypeKind::signed_int:
      m.max_int = max_key;
      m.min_int = min_key;
      m.max = static_cast<double>(max_key);
      m.min = static_cast<double>(min_key);
      break;
    case DTypeKind::unsigned_int:
      m.max_uint = dtype == DType::uint64 ? static_cast<std::uint64_t>(uint64_key(static_cast<std::uint64_t>(max_key)))
                                          : static_cast<std::uint64_t>(max_key);
      m.min_uint = dtype == DType::uint64 ? static_cast<std::uint64_t>(uint64_key(static_cast<std::uint64_t>(min_key)))
                                          : static_cast<std::uint64_t>(min_key);
      m.max = static_cast<double>(m.max_uint);
      m.min = static_cast<double>(m.min_uint);
      break;
    case DTypeKind::boolean:
      m.any = max_key != 0;
      m.all = min_key != 0;
      m.max = m.any ? 1.0 : 0.0;
      m.min = m.all ? 1.0 : 0.0;
      break;
  }
  return m;
}

}  // namespace detail

Accumulator::Accumulator(DType dtype, AccumulatorOptions options, std::uint64_t start_byte)
    : m_dtype(dtype),
      m_options(options),
      m_itemsize(itemsize(dtype)),
      m_start_byte(start_byte),
      m_max_key(detail::k_no_max_key),
      m_min_key(detail::k_no_min_key),
      m_xor(start_byte) {}

void Accumulator::update(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const auto piece = bytes.first(std::min(bytes.size(), k_piece_bytes));
    if (m_options.crc32) m_crc = crc32_update(m_crc, piece);
    if (m_options.xor_checksum) m_xor.update(piece);
    if (m_options.values) consume(piece.data(), piece.size());
    m_bytes += piece.size();
    bytes = bytes.subspan(piece.size());
  }
}

void Accumulator::consume(const std::byte* p, std::size_t n) {
  const std::size_t group_bytes = k_group_elements * m_itemsize;
  // Complete a group begun by an earlier chunk first, so groups stay at fixed positions.
  if (m_stage_len > 0) {
    const std::size_t take = std::min(group_bytes - m_stage_len, n);
    std::memcpy(m_stage.data() + m_stage_len, p, take);
    m_stage_len += take;
    p += take;
    n -= take;
    if (m_stage_len < group_bytes) return;
    run_groups(m_stage.data(), 1);
    m_stage_len = 0;
  }
  const std::size_t groups = n / group_bytes;
  run_groups(p, groups);
  p += groups * group_bytes;
  n -= groups * group_bytes;
  std::memcpy(m_stage.data(), p, n);
  m_stage_len = n;
}

void Accumulator::run_groups(const std::byte* p, std::uint64_t groups) {
  const detail::KernelState st{m_lane_sum.data(), m_lane_sq.data(), m_lane_abs.data(), &m_max_key, &m_min_key};
  while (groups > 0) {
    const std::uint64_t room = (k_block_elements - m_in_block) / k_group_elements;
    const std::uint64_t now = std::min(groups, room);
    if (m_options.reference_kernel) {
      detail::scalar_elements(m_dtype, m_options.float32_elements, p, now * k_group_elements, st);
    } else {
      detail::simd_groups(m_dtype, m_options.float32_elements, m_options.abs_sum, p, now, st);
    }
    m_in_block += now * k_group_elements;
    m_count += now * k_group_elements;
    p += now * k_group_elements * m_itemsize;
    groups -= now;
    if (m_in_block == k_block_elements) flush_block();
  }
}

// Folds the complete elements of a trailing partial group and closes the block.
void Accumulator::finish_partial() {
  const std::size_t elements = m_stage_len / m_itemsize;
  if (elements > 0) {
    const detail::KernelState st{m_lane_sum.data(), m_lane_sq.data(), m_lane_abs.data(), &m_max_key, &m_min_key};
    detail::scalar_elements(m_dtype, m_options.float32_elements, m_stage.data(), elements, st);
    m_count += elements;
    m_in_block += elements;
    const std::size_t rest = m_stage_len - elements * m_itemsize;
    std::memmove(m_stage.data(), m_stage.data() + elements * m_itemsize, rest);
    m_stage_len = rest;
  }
  if (m_in_block > 0) flush_block();
}

void Accumulator::flush_block() {
  // lanes are reduced in a fixed order, so the block partial depends only on the block's data
  double sum = 0.0, sq = 0.0, abs = 0.0;
  for (std::size_t k = 0; k < detail::k_lanes; ++k) {
    sum += m_lane_sum[k];
    sq += m_lane_sq[k];
    abs += m_lane_abs[k];
  }
  m_sum.add(sum);
  m_sum_sq.add(sq);
  m_sum_abs.add(abs);
  m_lane_sum.fill(0.0);
  m_lane_sq.fill(0.0);
  m_lane_abs.fill(0.0);
  m_in_block = 0;
}

Result<void> Accumulator::merge(const Accumulator& next) {
  if (next.m_dtype != m_dtype || next.m_start_byte != m_start_byte + m_bytes) {
    return internal_error("merging statistics accumulators: part at byte " + std::to_string(next.m_start_byte) +
                          " does not follow the part ending at byte " + std::to_string(m_start_byte + m_bytes));
  }
  if (m_options.values) {
    if (m_stage_len % m_itemsize != 0) {
      return internal_error("merging statistics accumulators: the part ending at byte " +
                            std::to_string(m_start_byte + m_bytes) + " ends inside an element");
    }
    finish_partial();
    m_sum.merge(next.m_sum);
    m_sum_sq.merge(next.m_sum_sq);
    m_sum_abs.merge(next.m_sum_abs);
    m_max_key = std::max(m_max_key, next.m_max_key);
    m_min_key = std::min(m_min_key, next.m_min_key);
    m_count += next.m_count;
    // continue with next's unfinished block and group
    m_lane_sum = next.m_lane_sum;
    m_lane_sq = next.m_lane_sq;
    m_lane_abs = next.m_lane_abs;
    m_in_block = next.m_in_block;
    m_stage = next.m_stage;
    m_stage_len = next.m_stage_len;
  }
  if (m_options.crc32) m_crc = crc32_combine(m_crc, next.m_crc, next.m_bytes);
  if (m_options.xor_checksum) m_xor.merge(next.m_xor);
  m_bytes += next.m_bytes;
  return {};
}

Moments Accumulator::moments() const {
  Accumulator done = *this;
  return done.take_moments();
}

Moments Accumulator::take_moments() {
  Moments m;
  if (m_options.values) {
    Accumulator& done = *this;
    done.finish_partial();
    m = detail::make_moments(m_dtype, done.m_count, m_bytes, done.m_max_key, done.m_min_key, done.m_sum.value(),
                             done.m_sum_sq.value(), done.m_sum_abs.value());
    if (!m_options.abs_sum) m.sum_abs = std::numeric_limits<double>::quiet_NaN();
  } else {
    m.dtype = m_dtype;
    m.count = m_bytes / m_itemsize;
    m.byte_count = m_bytes;
  }
  if (m_options.crc32) m.crc32 = m_crc;
  if (m_options.xor_checksum) m.xor_checksum = m_xor.value();
  return m;
}

namespace {

// What an Accumulator gives for `bytes` fed in one update, when they hold fewer elements than a
// block and fit in one piece: the same kernels on the same elements in the same order (full
// groups through the group kernel, the rest through the scalar one into lane 0, the lanes
// reduced in order, one add to each exact sum), without the accumulator's staging copy and its
// zeroed exact sums. Small tensors (most leaves of a capture) take this path.
Moments one_block_moments(DType dtype, std::span<const std::byte> bytes, const AccumulatorOptions& o) {
  const std::size_t isz = itemsize(dtype);
  Moments m;
  if (o.values) {
    const std::uint64_t n = bytes.size() / isz;
    const std::uint64_t groups = n / Accumulator::k_group_elements;
    const std::uint64_t grouped = groups * Accumulator::k_group_elements;
    std::int64_t max_key = detail::k_no_max_key, min_key = detail::k_no_min_key;
    double total = 0.0, total_sq = 0.0, total_abs = 0.0;
    if (groups == 0) {
      // Less than a group: only lane 0 is used, and flush_block's sum of the lanes is
      // 0.0 + lane 0 (the other lanes add +0.0, which changes nothing after that).
      double sum = 0.0, sq = 0.0, abs = 0.0;
      const detail::KernelState st{&sum, &sq, &abs, &max_key, &min_key};
      if (n > 0) {
        detail::scalar_elements(dtype, o.float32_elements, bytes.data(), n, st);
        total = 0.0 + sum;
        total_sq = 0.0 + sq;
        total_abs = 0.0 + abs;
      }
    } else {
      alignas(64) std::array<double, detail::k_lanes> sum{}, sq{}, abs{};
      const detail::KernelState st{sum.data(), sq.data(), abs.data(), &max_key, &min_key};
      if (o.reference_kernel) {
        detail::scalar_elements(dtype, o.float32_elements, bytes.data(), grouped, st);
      } else {
        detail::simd_groups(dtype, o.float32_elements, o.abs_sum, bytes.data(), groups, st);
      }
      if (n > grouped) detail::scalar_elements(dtype, o.float32_elements, bytes.data() + grouped * isz, n - grouped, st);
      for (std::size_t k = 0; k < detail::k_lanes; ++k) {  // flush_block
        total += sum[k];
        total_sq += sq[k];
        total_abs += abs[k];
      }
    }
    m = detail::make_moments(dtype, n, bytes.size(), max_key, min_key, ExactSum::of_one(total),
                             ExactSum::of_one(total_sq), ExactSum::of_one(total_abs));
    if (!o.abs_sum) m.sum_abs = std::numeric_limits<double>::quiet_NaN();
  } else {
    m.dtype = dtype;
    m.count = bytes.size() / isz;
    m.byte_count = bytes.size();
  }
  if (o.crc32) m.crc32 = crc32_update(0, bytes);
  if (o.xor_checksum) {
    XorChecksum x(0);
    x.update(bytes);
    m.xor_checksum = x.value();
  }
  return m;
}

}  // namespace

Moments compute_moments(DType dtype, std::span<const std::byte> bytes, const AccumulatorOptions& options) {
  if (bytes.size() < Accumulator::k_block_elements * itemsize(dtype) && bytes.size() <= k_piece_bytes)
    return one_block_moments(dtype, bytes, options);
  Accumulator acc(dtype, options);
  acc.update(bytes);
  return acc.take_moments();
}

}  // namespace msdump::stats
