#include "anomalies/value_counts.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "convert/tensor_source.h"
#include "stats/float_convert.h"
#include "tensor/tensor_reader.h"

namespace msdump::anomalies {
namespace {

void add(ValueCounts& c, double v) {
  if (std::isnan(v)) ++c.nan;
  else if (std::isinf(v)) ++(v > 0 ? c.pos_inf : c.neg_inf);
  else c.max_abs = std::max(c.max_abs, std::fabs(v));
}

template <typename T, typename Convert>
void count_as(std::span<const std::byte> data, ValueCounts& c, Convert convert) {
  const std::size_t n = data.size() / sizeof(T);
  for (std::size_t i = 0; i < n; ++i) {
    T raw;
    std::memcpy(&raw, data.data() + i * sizeof(T), sizeof(T));
    add(c, convert(raw));
  }
}

// A complex element: its real and imaginary parts, judged together.
template <typename T>
void count_complex(std::span<const std::byte> data, ValueCounts& c) {
  const std::size_t n = data.size() / (2 * sizeof(T));
  for (std::size_t i = 0; i < n; ++i) {
    T part[2];
    std::memcpy(part, data.data() + i * 2 * sizeof(T), sizeof(part));
    const double re = part[0], im = part[1];
    if (std::isnan(re) || std::isnan(im)) ++c.nan;
    else if (std::isinf(re)) ++(re > 0 ? c.pos_inf : c.neg_inf);
    else if (std::isinf(im)) ++(im > 0 ? c.pos_inf : c.neg_inf);
    else c.max_abs = std::max({c.max_abs, std::fabs(re), std::fabs(im)});
  }
}

std::string plural_values(std::uint64_t n) { return n == 1 ? "value" : "values"; }

}  // namespace

ValueCounts count_values(const tensor::TensorView& view) {
  ValueCounts c;
  c.total = static_cast<std::uint64_t>(view.numel());
  const auto d = view.data;
  switch (view.dtype) {
    case DType::float16: count_as<std::uint16_t>(d, c, stats::half_to_float); break;
    case DType::bfloat16: count_as<std::uint16_t>(d, c, stats::bfloat16_to_float); break;
    case DType::float8_e4m3fn: count_as<std::uint8_t>(d, c, stats::float8_e4m3fn_to_float); break;
    case DType::float8_e5m2: count_as<std::uint8_t>(d, c, stats::float8_e5m2_to_float); break;
    case DType::float32: count_as<float>(d, c, [](float f) { return double{f}; }); break;
    case DType::float64: count_as<double>(d, c, [](double f) { return f; }); break;
    case DType::complex64: count_complex<float>(d, c); break;
    case DType::complex128: count_complex<double>(d, c); break;
    default: break;  // integers and booleans: all finite
  }
  return c;
}

std::string describe_counts(const ValueCounts& c) {
  struct Part { std::uint64_t n; const char* name; };
  std::vector<Part> parts;
  for (Part p : {Part{c.nan, "NaN"}, Part{c.pos_inf, "+Inf"}, Part{c.neg_inf, "-Inf"}})
    if (p.n > 0) parts.push_back(p);
  if (parts.empty()) return "";
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.n > b.n; });
  std::string s = fmt::format("{} of {} {} {}", parts[0].n, c.total, plural_values(c.total), parts[0].name);
  for (std::size_t i = 1; i < parts.size(); ++i) s += fmt::format(", {} {}", parts[i].n, parts[i].name);
  return s;
}

Result<std::optional<ValueCounts>> count_leaf_file(const pyjson::Value& leaf, const std::string& tensor_dir,
                                                   OpenBeneath beneath) {
  convert::TensorSource src;
  auto located = convert::locate_tensor_source(leaf, convert::InputKind::msprobe_dump, tensor_dir, src);
  if (!located) return located.error();
  if (!*located) return std::optional<ValueCounts>{};
  if (beneath == OpenBeneath::tensor_dir) {
    src.base = tensor_dir;
    src.name = leaf.find("data_name")->as_string();  // a plain file name: locate_tensor_source checked it
  }
  const pyjson::Value* dt = leaf.find("dtype");
  const auto dtype = dt != nullptr && dt->is_string() ? dtype_from_any_name(dt->as_string()) : std::nullopt;
  tensor::Shape shape;
  if (!dtype || !convert::shape_from_value(leaf.find("shape"), shape))
    return invalid_input(fmt::format("'{}': the leaf naming it has no usable dtype and shape", src.path));
  auto opened = convert::open_tensor_source(src, *dtype, shape);
  if (!opened) return opened.error();
  if (opened->problem) return *opened->problem;
  auto t = tensor::load_tensor(*opened->opened->source, opened->opened->info);
  if (!t) return t.error();
  return std::optional<ValueCounts>{count_values(t->view())};
}

}  // namespace msdump::anomalies
