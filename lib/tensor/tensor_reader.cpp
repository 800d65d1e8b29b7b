#include "tensor/tensor_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "tensor/npy_reader.h"
#include "tensor/pt_reader.h"
#include "tensor/source_error.h"

namespace msdump::tensor {
namespace {

bool is_any_pt(std::span<const std::byte> head) { return is_pt_zip(head) || is_legacy_pt(head); }

constexpr std::array<TensorFormatProbe, 2> k_probes{{
    {TensorFormat::pt, "pt", &is_any_pt},
    {TensorFormat::npy, "npy", &is_npy},
}};

// Index of the last storage element the view touches, relative to storage_offset.
Result<std::int64_t> view_span(const TensorInfo& info) {
  std::int64_t span = 0;
  for (std::size_t k = 0; k < info.shape.size(); ++k) {
    std::int64_t step = 0;
    if (__builtin_mul_overflow(info.shape[k] - 1, info.strides[k], &step) || __builtin_add_overflow(span, step, &span))
      return invalid_input(fmt::format("view (shape {}, strides {}) overflows 64 bits", format_shape(info.shape),
                                       format_shape(info.strides)));
  }
  return span;
}

template <std::size_t N>
void gather_elements(std::byte* out, const std::byte* in, std::int64_t count, std::int64_t stride) {
  for (std::int64_t j = 0; j < count; ++j) std::memcpy(out + j * N, in + j * stride * static_cast<std::int64_t>(N), N);
}

// Copies the view out of `window` (which starts at the view's first element) in C order.
void gather(const TensorInfo& info, std::span<const std::byte> window, std::byte* out) {
  const std::size_t isz = itemsize(info.dtype);
  const std::size_t ndim = info.shape.size();
  // A size-1 dimension's stride is meaningless (and may be huge); zero it so the odometer
  // below never adds it.
  std::vector<std::int64_t> strides = info.strides;
  for (std::size_t k = 0; k < ndim; ++k)
    if (info.shape[k] == 1) strides[k] = 0;
  const std::int64_t inner = ndim == 0 ? 1 : info.shape[ndim - 1];
  const std::int64_t inner_stride = ndim == 0 ? 1 : strides[ndim - 1];
  const std::size_t outer = ndim == 0 ? 0 : ndim - 1;
  std::vector<std::int64_t> index(outer, 0);
  std::int64_t base = 0;
  while (true) {
    const std::byte* in = window.data() + base * static_cast<std::int64_t>(isz);
    if (inner_stride == 1) {
      std::memcpy(out, in, static_cast<std::size_t>(inner) * isz);
    } else {
      switch (isz) {
        case 1: gather_elements<1>(out, in, inner, inner_stride); break;
        case 2: gather_elements<2>(out, in, inner, inner_stride); break;
        case 4: gather_elements<4>(out, in, inner, inner_stride); break;
        case 8: gather_elements<8>(out, in, inner, inner_stride); break;
        default: gather_elements<16>(out, in, inner, inner_stride); break;
      }
    }
    out += static_cast<std::size_t>(inner) * isz;
    bool advanced = false;
    for (std::size_t k = outer; k-- > 0;) {
      base += strides[k];
      if (++index[k] < info.shape[k]) {
        advanced = true;
        break;
      }
      base -= strides[k] * info.shape[k];
      index[k] = 0;
    }
    if (!advanced) return;
  }
}

template <std::size_t N>
void swap_each(std::span<std::byte> data) {
  for (std::size_t i = 0; i + N <= data.size(); i += N) std::reverse(data.begin() + i, data.begin() + i + N);
}

}  // namespace

std::span<const TensorFormatProbe> tensor_format_probes() { return k_probes; }

Result<TensorFormat> detect_tensor_format(const ByteSource& src) {
  std::byte head[16] = {};
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(src.size(), sizeof head));
  if (auto r = src.read_at(0, std::span(head, n)); !r) return source_error(src, r.error());
  std::string tried;
  for (const auto& probe : k_probes) {
    if (probe.matches(std::span(head, n))) return probe.format;
    tried += tried.empty() ? "" : ", ";
    tried += probe.name;
  }
  return invalid_input(fmt::format("unknown tensor format for '{}' (tried: {})", src.name(), tried));
}

Result<TensorInfo> read_tensor_info(const ByteSource& src, const ReadOptions& options) {
  auto format = detect_tensor_format(src);
  if (!format) return format.error();
  switch (*format) {
    case TensorFormat::pt: return read_pt_info(src);
    case TensorFormat::npy: return read_npy_info(src, options.dtype_hint);
    case TensorFormat::raw: break;
  }
  return internal_error("raw tensors have no magic");
}

Result<void> check_tensor_bounds(const ByteSource& src, const TensorInfo& info) {
  if (info.strides.size() != info.shape.size())
    return source_error(src, invalid_input(fmt::format("shape {} and strides {} differ in length",
                                                       format_shape(info.shape), format_shape(info.strides))));
  const auto numel = checked_numel(info.shape);
  if (!numel)
    return source_error(src, invalid_input(fmt::format("shape {} is negative or has more elements than fit in 64 bits",
                                                       format_shape(info.shape))));
  if (info.data_offset > src.size() || info.storage_bytes > src.size() - info.data_offset)
    return source_error(src, invalid_input(fmt::format("storage ({} bytes at offset {}) extends beyond the end ({} bytes)",
                                                       info.storage_bytes, info.data_offset, src.size())));
  if (*numel == 0) return {};
  for (auto s : info.strides)
    if (s < 0) return source_error(src, invalid_input(fmt::format("negative stride in {}", format_shape(info.strides))));
  auto span = view_span(info);
  if (!span) return source_error(src, span.error());
  std::int64_t last = 0;
  std::uint64_t end_bytes = 0;
  if (info.storage_offset < 0 || __builtin_add_overflow(info.storage_offset, *span, &last) ||
      __builtin_mul_overflow(static_cast<std::uint64_t>(last) + 1, itemsize(info.dtype), &end_bytes) ||
      end_bytes > info.storage_bytes)
    return source_error(src, invalid_input(fmt::format(
                                 "view (storage offset {}, shape {}, strides {}) reaches beyond its storage of {} bytes",
                                 info.storage_offset, format_shape(info.shape), format_shape(info.strides),
                                 info.storage_bytes)));
  return {};
}

Result<Tensor> load_tensor(const ByteSource& src, const TensorInfo& info) {
  MSDUMP_TRY(check_tensor_bounds(src, info));
  Tensor t;
  t.dtype = info.dtype;
  t.shape = info.shape;
  t.requires_grad = info.requires_grad;
  const auto numel = *checked_numel(info.shape);
  if (numel == 0) return t;
  const std::size_t isz = itemsize(info.dtype);
  // A view that repeats storage elements (stride 0, overlapping strides) may describe far more
  // bytes than its file holds, even more than 64 bits count; every other view needs at most its
  // storage's bytes, which check_tensor_bounds kept inside the source.
  std::uint64_t nbytes = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(numel), isz, &nbytes) ||
      (nbytes > k_max_repeating_view_bytes && nbytes > (static_cast<std::uint64_t>(*view_span(info)) + 1) * isz))
    return source_error(src, unsupported(fmt::format(
                                 "view (shape {}, strides {}) repeats its storage's elements: loading it takes {} "
                                 "elements of {} bytes, more than the {}-byte limit",
                                 format_shape(info.shape), format_shape(info.strides), numel, isz,
                                 k_max_repeating_view_bytes)));
  t.data.resize(static_cast<std::size_t>(nbytes));
  const std::uint64_t first = info.first_byte();
  if (info.is_contiguous()) {
    if (auto r = src.read_at(first, t.data); !r) return source_error(src, r.error());
  } else {
    // Bounds were checked: the window [first, first + (span + 1) * itemsize) is inside storage.
    const std::size_t window_bytes = (static_cast<std::size_t>(*view_span(info)) + 1) * isz;
    std::vector<std::byte> buffer;
    std::span<const std::byte> window;
    if (const auto mem = src.memory(); !mem.empty()) {
      window = mem.subspan(static_cast<std::size_t>(first), window_bytes);
    } else {
      auto read = src.read_vector(first, window_bytes);
      if (!read) return source_error(src, read.error());
      buffer = std::move(*read);
      window = buffer;
    }
    gather(info, window, t.data.data());
  }
  if (info.big_endian != (std::endian::native == std::endian::big)) byte_swap_elements(t.data, info.dtype);
  return t;
}

Result<Tensor> read_tensor(const ByteSource& src, const ReadOptions& options) {
  auto info = read_tensor_info(src, options);
  if (!info) return info.error();
  return load_tensor(src, *info);
}

void byte_swap_elements(std::span<std::byte> data, DType dtype) {
  const DTypeInfo& d = dtype_info(dtype);
  const std::size_t unit = d.kind == DTypeKind::complex ? d.itemsize / 2 : d.itemsize;
  switch (unit) {
    case 2: swap_each<2>(data); break;
    case 4: swap_each<4>(data); break;
    case 8: swap_each<8>(data); break;
    default: break;
  }
}

}  // namespace msdump::tensor
