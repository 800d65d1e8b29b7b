#include "stats/leaf_stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "stats/crc32.h"
#include "stats/float_convert.h"

namespace msdump::stats {
namespace {


bool is_kind(DType d, DTypeKind k) { return dtype_info(d).kind == k; }
bool is_half_or_single(DType d) { return d == DType::float16 || d == DType::bfloat16 || d == DType::float32; }

// msprobe casts with `.float()` before the reduction (docs/format.md §6.2, §6.3).
bool casts_to_float32(DType reported, const StatsOptions& o) {
  if (o.framework == Framework::pytorch && o.profile == Profile::current) return false;
  const auto kind = dtype_info(reported).kind;
  const bool integer = kind == DTypeKind::signed_int || kind == DTypeKind::unsigned_int;
  return o.precision == Precision::high || integer || reported == DType::float64 || kind == DTypeKind::float8;
}

std::string hex64(std::uint64_t v) {
  std::array<char, 24> buf{};
  std::snprintf(buf.data(), buf.size(), "0x%016llx", static_cast<unsigned long long>(v));
  return buf.data();
}

std::string hex32(std::uint32_t v) {
  std::array<char, 12> buf{};
  std::snprintf(buf.data(), buf.size(), "%08x", static_cast<unsigned>(v));
  return buf.data();
}

Scalar unsigned_scalar(std::uint64_t v) {
  if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return Scalar::integer(static_cast<std::int64_t>(v));
  return Scalar::unsigned_integer(v);
}

// Max (or min) in the reported dtype's own kind: Python int for integers, float otherwise.
Scalar native_extreme(const Moments& m, DType reported, bool max) {
  const auto stored_kind = dtype_info(m.dtype).kind;
  switch (dtype_info(reported).kind) {
    case DTypeKind::boolean: return Scalar::boolean(max ? m.any : m.all);
    case DTypeKind::signed_int:
    case DTypeKind::unsigned_int:
      if (stored_kind == DTypeKind::signed_int) return Scalar::integer(max ? m.max_int : m.min_int);
      if (stored_kind == DTypeKind::unsigned_int) return unsigned_scalar(max ? m.max_uint : m.min_uint);
      break;
    default: break;
  }
  return Scalar::floating(max ? m.max : m.min);
}

// The extreme after `.float()`: integers convert directly (one rounding), floats from double.
Scalar float32_extreme(const Moments& m, bool max) {
  switch (dtype_info(m.dtype).kind) {
    case DTypeKind::signed_int: return Scalar::floating(static_cast<float>(max ? m.max_int : m.min_int));
    case DTypeKind::unsigned_int: return Scalar::floating(static_cast<float>(max ? m.max_uint : m.min_uint));
    case DTypeKind::boolean: return Scalar::floating(max ? (m.any ? 1.0 : 0.0) : (m.all ? 1.0 : 0.0));
    default: return Scalar::floating(static_cast<float>(max ? m.max : m.min));
  }
}

double mean_in(const Moments& m, DType stat_dtype) {
  if (m.has_nan) return std::numeric_limits<double>::quiet_NaN();
  return round_to_dtype(m.sum / static_cast<double>(m.count), stat_dtype);
}

double norm_in(const Moments& m, DType stat_dtype) {
  if (m.has_nan) return std::numeric_limits<double>::quiet_NaN();
  return round_to_dtype(std::sqrt(m.sum_sq), stat_dtype);
}

// All four in stat_dtype (torch.max/min/mean/norm on a tensor of that dtype).
void all_four(const Moments& m, DType stat_dtype, bool cast_float32, LeafStats& out) {
  out.max = cast_float32 ? float32_extreme(m, true) : Scalar::floating(m.max);
  out.min = cast_float32 ? float32_extreme(m, false) : Scalar::floating(m.min);
  out.mean = Scalar::floating(mean_in(m, stat_dtype));
  out.norm = Scalar::floating(norm_in(m, stat_dtype));
}

// Complex: max/min/mean of |z| (numpy, float32 for complex64); Norm = L2 of |z| or null.
void complex_stats(const Moments& m, DType reported, bool with_norm, LeafStats& out) {
  out.max = Scalar::floating(m.max);
  out.min = Scalar::floating(m.min);
  out.mean = Scalar::floating(mean_in(m, reported));
  if (with_norm) out.norm = Scalar::floating(norm_in(m, reported));
}

// A 0-dim tensor: its value four times, Norm signed (rule 8).
void scalar_stats(const Moments& m, DType reported, LeafStats& out) {
  out.max = out.min = out.mean = out.norm = native_extreme(m, reported, true);
}

Scalar xor_scalar(const Moments& m, DType reported, bool zero_dim) {
  if (m.count == 0) return Scalar::null();
  if (zero_dim) {
    switch (dtype_info(reported).kind) {
      case DTypeKind::floating:
      case DTypeKind::float8: return Scalar::floating(m.max);
      case DTypeKind::signed_int: return Scalar::string(hex64(static_cast<std::uint64_t>(m.max_int)));
      case DTypeKind::unsigned_int: return Scalar::string(hex64(m.max_uint));
      case DTypeKind::boolean: return Scalar::string(hex64(m.any ? 1 : 0));
      case DTypeKind::complex: break;
    }
  }
  return Scalar::string(hex64(m.xor_checksum.value_or(0)));
}

void pytorch_current(const Moments& m, DType reported, bool zero_dim, Precision precision, LeafStats& out) {
  if (is_kind(reported, DTypeKind::float8)) return;  // rule 4: null
  if (is_kind(reported, DTypeKind::complex)) return complex_stats(m, reported, false, out);
  if (is_kind(reported, DTypeKind::boolean)) {
    out.max = Scalar::boolean(m.any);
    out.min = Scalar::boolean(m.all);
    return;
  }
  if (zero_dim) return scalar_stats(m, reported, out);
  if (is_half_or_single(reported) && precision == Precision::low) return all_four(m, reported, false, out);
  out.max = native_extreme(m, reported, true);  // rule 9b: Mean/Norm null
  out.min = native_extreme(m, reported, false);
}

void legacy_or_mindspore(const Moments& m, DType reported, bool zero_dim, const StatsOptions& o, LeafStats& out) {
  const bool mindspore = o.framework != Framework::pytorch;
  if (is_kind(reported, DTypeKind::complex) && (!mindspore || !zero_dim))
    return complex_stats(m, reported, mindspore, out);
  if (is_kind(reported, DTypeKind::boolean)) {
    out.max = Scalar::boolean(m.any);
    out.min = Scalar::boolean(m.all);
    return;
  }
  if (zero_dim) {
    if (is_kind(reported, DTypeKind::complex)) return complex_stats(m, reported, true, out);
    return scalar_stats(m, reported, out);
  }
  if (casts_to_float32(reported, o)) return all_four(m, DType::float32, true, out);
  all_four(m, reported, false, out);
}

}  // namespace

DType statistic_dtype(DType reported, const StatsOptions& o) {
  if (reported == DType::complex64) return DType::float32;
  if (reported == DType::complex128) return DType::float64;
  if (casts_to_float32(reported, o)) return DType::float32;
  if (is_half_or_single(reported) || reported == DType::float64) return reported;
  return DType::float32;
}

bool crc_of_widened_bfloat16(DType stored, const StatsOptions& o) {
  return o.summary_mode == SummaryMode::md5 && o.framework != Framework::pytorch && stored == DType::bfloat16;
}

std::uint32_t crc32_bf16_as_float32(std::uint32_t crc, std::span<const std::byte> bf16_bytes) {
  std::array<std::uint32_t, 1024> wide{};
  std::size_t n = bf16_bytes.size() / 2;
  const std::byte* p = bf16_bytes.data();
  while (n > 0) {
    const std::size_t now = std::min(n, wide.size());
    for (std::size_t k = 0; k < now; ++k) {
      std::uint16_t bits;
      std::memcpy(&bits, p + 2 * k, 2);
      wide[k] = static_cast<std::uint32_t>(bits) << 16;
    }
    crc = crc32_update(crc, std::as_bytes(std::span(wide.data(), now)));
    p += 2 * now;
    n -= now;
  }
  return crc;
}

AccumulatorOptions leaf_accumulator_options(DType stored, std::span<const std::int64_t> shape, const StatsOptions& o) {
  const DType reported = o.reported_dtype.value_or(stored);
  AccumulatorOptions a;
  a.values = o.summary_mode != SummaryMode::xor_checksum || shape.empty();
  a.crc32 = o.summary_mode == SummaryMode::md5 && !crc_of_widened_bfloat16(stored, o);
  a.xor_checksum = o.summary_mode == SummaryMode::xor_checksum;
  a.float32_elements = casts_to_float32(reported, o);
  return a;
}

LeafStats leaf_stats_from_moments(const Moments& m, std::span<const std::int64_t> shape, const StatsOptions& o) {
  const DType reported = o.reported_dtype.value_or(m.dtype);
  const bool zero_dim = shape.empty();
  LeafStats out;
  if (o.summary_mode == SummaryMode::xor_checksum) {
    out.has_value_stats = false;
    // get_stat_info's rules come in order and the first match wins: float8 (rule 4) returns
    // before the xor checksum (rule 5) is taken, so float8 tensors get "md5": null.
    const bool float8 = is_kind(reported, DTypeKind::float8);
    out.md5 = float8 ? Scalar::null() : xor_scalar(m, reported, zero_dim);
    return out;
  }
  if (o.summary_mode == SummaryMode::md5) out.md5 = Scalar::string(hex32(m.crc32.value_or(0)));
  if (m.count == 0) return out;  // rule 3: empty tensors have null statistics
  if (o.framework == Framework::pytorch && o.profile == Profile::current) {
    pytorch_current(m, reported, zero_dim, o.precision, out);
  } else {
    legacy_or_mindspore(m, reported, zero_dim, o, out);
  }
  return out;
}

}  // namespace msdump::stats
