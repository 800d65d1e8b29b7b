#include "compare/tensor_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>

#include "core/beneath.h"
#include "stats/float_convert.h"
#include "stats/pair_kernel.h"
#include "tensor/tensor_reader.h"

namespace msdump::compare {
namespace {

__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

// The cosine's "norm is zero" bound: float64's machine epsilon.
constexpr double k_norm_eps = 0x1p-52;
constexpr double k_cosine_six_decimals_above = 0.9999;

enum Column : std::size_t { cosine, euc_dist, max_abs, max_rel, thousandth, five_thousandths };

// Python's float('%.<digits>f' % x): the correctly rounded decimal, read back.
double round_decimals(double x, int digits) {
  if (!std::isfinite(x)) return x;
  const std::string s = fmt::format("{:.{}f}", x, digits);
  return std::strtod(s.c_str(), nullptr);
}

Cell rounded_or_nan(double x) {
  if (std::isnan(x)) return Cell::text(std::string(k_nan));
  return Cell::floating(round_decimals(x, 12));
}

tensor::Shape squeezed(const tensor::Shape& shape) {
  tensor::Shape out;
  std::copy_if(shape.begin(), shape.end(), std::back_inserter(out), [](std::int64_t d) { return d != 1; });
  return out;
}

// The dtype msprobe works with after reading: bfloat16 and float8 become float32.
DType read_as(DType d) {
  const DTypeKind kind = dtype_info(d).kind;
  if (d == DType::bfloat16 || kind == DTypeKind::float8) return DType::float32;
  return d;
}

bool is_float(DType d) { return dtype_info(d).kind == DTypeKind::floating; }

// ---- 0-d pairs ---------------------------------------------------------------------------------

// One scalar: a float (in `f`, exactly) or an integer (in `i`), with the dtype numpy sees.
struct Scalar0 {
  DType dtype = DType::float64;
  bool integral = false;
  double f = 0.0;
  int128 i = 0;
  double as_double() const { return integral ? static_cast<double>(i) : f; }
};

template <typename T>
T load_first(const tensor::Tensor& t) {
  T v{};
  std::memcpy(&v, t.data.data(), sizeof v);
  return v;
}

Scalar0 read_scalar(const tensor::Tensor& t) {
  Scalar0 s;
  s.dtype = read_as(t.dtype);
  s.integral = !is_float(s.dtype);
  switch (t.dtype) {
    case DType::float16: s.f = stats::half_to_float(load_first<std::uint16_t>(t)); break;
    case DType::bfloat16: s.f = stats::bfloat16_to_float(load_first<std::uint16_t>(t)); break;
    case DType::float8_e4m3fn: s.f = stats::float8_e4m3fn_to_float(load_first<std::uint8_t>(t)); break;
    case DType::float8_e5m2: s.f = stats::float8_e5m2_to_float(load_first<std::uint8_t>(t)); break;
    case DType::float32: s.f = load_first<float>(t); break;
    case DType::float64: s.f = load_first<double>(t); break;
    case DType::int8: s.i = load_first<std::int8_t>(t); break;
    case DType::int16: s.i = load_first<std::int16_t>(t); break;
    case DType::int32: s.i = load_first<std::int32_t>(t); break;
    case DType::int64: s.i = load_first<std::int64_t>(t); break;
    case DType::uint8: s.i = load_first<std::uint8_t>(t); break;
    case DType::uint16: s.i = load_first<std::uint16_t>(t); break;
    case DType::uint32: s.i = load_first<std::uint32_t>(t); break;
    case DType::uint64: s.i = load_first<std::uint64_t>(t); break;
    case DType::boolean: s.i = load_first<std::uint8_t>(t) != 0 ? 1 : 0; break;
    case DType::complex64:
    case DType::complex128: break;  // refused before
  }
  return s;
}

// Rank of the float dtypes for numpy's promotion.
int float_rank(DType d) { return d == DType::float16 ? 0 : d == DType::float32 ? 1 : 2; }
DType float_of_rank(int r) { return r == 0 ? DType::float16 : r == 1 ? DType::float32 : DType::float64; }

// The smallest float numpy promotes an integer (or bool) dtype to.
int float_rank_for_int(DType d) {
  const std::size_t size = itemsize(d);
  return size == 1 ? 0 : size == 2 ? 1 : 2;
}

// numpy's result dtype of two integer (or bool) dtypes; nullopt when it is float64 (uint64
// with a signed type).
std::optional<DType> int_result(DType a, DType b) {
  if (a == DType::boolean) return b;
  if (b == DType::boolean) return a;
  const bool sa = dtype_info(a).kind == DTypeKind::signed_int, sb = dtype_info(b).kind == DTypeKind::signed_int;
  const std::size_t za = itemsize(a), zb = itemsize(b);
  if (sa == sb) return za >= zb ? a : b;
  const std::size_t signed_size = sa ? za : zb, unsigned_size = sa ? zb : za;
  if (unsigned_size < signed_size) return sa ? a : b;
  if (unsigned_size == 8) return std::nullopt;
  const std::size_t size = 2 * unsigned_size;
  return size == 2 ? DType::int16 : size == 4 ? DType::int32 : DType::int64;
}

// |v| as numpy computes it in the integer dtype d: v wraps to d's width, and so does its
// absolute value (|min| is min).
double wrapped_abs(int128 v, DType d) {
  const unsigned bits = static_cast<unsigned>(8 * itemsize(d));
  const bool is_signed = dtype_info(d).kind == DTypeKind::signed_int;
  const auto wrap = [&](int128 x) {
    const uint128 mask = (static_cast<uint128>(1) << bits) - 1;
    auto u = static_cast<uint128>(x) & mask;
    if (is_signed && (u >> (bits - 1)) != 0) return static_cast<int128>(u) - (static_cast<int128>(1) << bits);
    return static_cast<int128>(u);
  };
  const int128 w = wrap(v);
  return static_cast<double>(w < 0 ? wrap(-w) : w);
}

// |n - b| for two scalars, in numpy's result type of the pair.
double scalar_abs_diff(const Scalar0& n, const Scalar0& b) {
  if (n.integral && b.integral) {
    if (auto d = int_result(n.dtype, b.dtype)) return wrapped_abs(n.i - b.i, *d);
  }
  int rank = 2;
  if (!n.integral && !b.integral) rank = std::max(float_rank(n.dtype), float_rank(b.dtype));
  else if (!n.integral) rank = std::max(float_rank(n.dtype), float_rank_for_int(b.dtype));
  else if (!b.integral) rank = std::max(float_rank(b.dtype), float_rank_for_int(n.dtype));
  const double x = n.as_double(), y = b.as_double();
  if (rank == 2) return std::fabs(x - y);
  // float16 arithmetic is float32 arithmetic rounded to float16, as numpy does it
  const float d = static_cast<float>(x) - static_cast<float>(y);
  return std::fabs(rank == 1 ? static_cast<double>(d) : stats::round_to_dtype(d, float_of_rank(rank)));
}

// r = |(n - b) / b| in T, with T's epsilon added to both where b == 0.
template <typename T>
double relative_error(double n, double b) {
  T x = static_cast<T>(n), y = static_cast<T>(b);
  if (y == T(0)) {
    x = x + std::numeric_limits<T>::epsilon();
    y = y + std::numeric_limits<T>::epsilon();
  }
  return static_cast<double>(std::fabs((x - y) / y));
}

bool beyond_float32(double v) { return std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max(); }

TensorMetrics zero_d_metrics(const tensor::Tensor& npu, const tensor::Tensor& bench) {
  Scalar0 n = read_scalar(npu), b = read_scalar(bench);
  if (n.dtype == DType::boolean) {  // a bool NPU scalar turns both sides into float64
    for (Scalar0* s : {&n, &b}) *s = Scalar0{DType::float64, false, s->as_double(), 0};
  }
  TensorMetrics m = uniform_metrics(k_unsupported);
  m.cells[max_abs] = rounded_or_nan(scalar_abs_diff(n, b));
  // numpy picks the relative error's type by value for 0-d arrays: float32 unless a value is
  // beyond its range.
  const double x = n.as_double(), y = b.as_double();
  const bool wide = beyond_float32(x) || beyond_float32(y);
  m.cells[max_rel] = rounded_or_nan(wide ? relative_error<double>(x, y) : relative_error<float>(x, y));
  return m;
}

// ---- arrays ------------------------------------------------------------------------------------

Cell cosine_cell(const stats::PairSums& s) {
  const double npu_norm = std::sqrt(s.npu_sq), bench_norm = std::sqrt(s.bench_sq);
  if (npu_norm <= k_norm_eps && bench_norm <= k_norm_eps) return Cell::floating(1.0);
  if (npu_norm <= k_norm_eps || bench_norm <= k_norm_eps) return Cell::text(std::string(k_nan));
  const double cos = s.dot / (npu_norm * bench_norm);
  if (std::isnan(cos)) return Cell::text(std::string(k_nan));
  const double r12 = round_decimals(cos, 12);
  return Cell::floating(r12 > k_cosine_six_decimals_above ? round_decimals(r12, 6) : r12);
}

TensorMetrics array_metrics(const tensor::Tensor& npu, const tensor::Tensor& bench) {
  const DType nd = read_as(npu.dtype), bd = read_as(bench.dtype);
  const bool narrow = (nd == DType::float16 || nd == DType::float32) && (bd == DType::float16 || bd == DType::float32);
  const auto count = static_cast<std::size_t>(npu.numel());
  const stats::PairSums s = stats::pair_sums(npu.dtype, npu.data, bench.dtype, bench.data, count,
                                             narrow ? stats::PairPrecision::float32 : stats::PairPrecision::float64);
  if (s.non_finite_mismatch) return uniform_metrics(k_na);
  TensorMetrics m;
  m.cells[cosine] = cosine_cell(s);
  m.cells[euc_dist] = Cell::floating(std::sqrt(s.diff_sq));
  m.cells[max_abs] = rounded_or_nan(s.max_abs_diff);
  m.cells[max_rel] = rounded_or_nan(s.max_relative);
  const auto size = static_cast<double>(count);
  m.cells[thousandth] = Cell::floating(round_decimals(static_cast<double>(s.below_thousandth) / size, 12));
  m.cells[five_thousandths] = Cell::floating(round_decimals(static_cast<double>(s.below_five_thousandths) / size, 12));
  return m;
}

bool is_complex(DType d) { return dtype_info(d).kind == DTypeKind::complex; }

}  // namespace

TensorMetrics uniform_metrics(std::string_view text) {
  TensorMetrics m;
  m.cells.fill(Cell::text(std::string(text)));
  return m;
}

Result<tensor::Tensor> load_compare_tensor(const std::string& dir, const std::string& data_name) {
  auto src = open_beneath(dir, data_name);
  if (!src) return src.error();
  return tensor::read_tensor(**src);
}

TensorMetrics compute_tensor_metrics(const tensor::Tensor& npu, const tensor::Tensor& bench) {
  if (npu.numel() == 0) return uniform_metrics(k_unsupported);
  const tensor::Shape shape = squeezed(npu.shape);
  if (shape != squeezed(bench.shape)) return uniform_metrics(k_shape_unmatched);
  if (is_complex(npu.dtype) || is_complex(bench.dtype)) return uniform_metrics(k_unsupported);
  if (shape.empty()) return zero_d_metrics(npu, bench);
  return array_metrics(npu, bench);
}

}  // namespace msdump::compare
