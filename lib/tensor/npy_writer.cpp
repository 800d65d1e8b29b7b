#include "tensor/npy_writer.h"

#include <fmt/format.h>

#include <bit>
#include <vector>

#include "tensor/little_endian.h"
#include "tensor/tensor_reader.h"

namespace msdump::tensor {
namespace {

constexpr std::size_t k_growth_axis_max_digits = 21;  // numpy's GROWTH_AXIS_MAX_DIGITS
constexpr std::size_t k_array_align = 64;

// Python's repr() of a tuple of ints: "()", "(5,)", "(2, 3)".
std::string python_tuple(std::span<const std::int64_t> shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k != 0) s += ", ";
    s += std::to_string(shape[k]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

}  // namespace

Result<std::string> write_npy(const TensorView& t) {
  const DTypeInfo& d = dtype_info(t.dtype);
  if (d.npy_descr.empty())
    return unsupported(fmt::format("numpy has no {} dtype; convert the tensor before writing .npy", d.name));
  const auto numel = checked_numel(t.shape);
  if (!numel || t.data.size() != static_cast<std::uint64_t>(*numel) * d.itemsize)
    return invalid_input(fmt::format("tensor {} {} has {} bytes of data, expected numel * {}", format_shape(t.shape),
                                     d.name, t.data.size(), d.itemsize));
  // _write_array_header(): sorted keys, repr values, then spare spaces for in-place growth.
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", d.npy_descr,
                                   python_tuple(t.shape));
  if (!t.shape.empty()) header.append(k_growth_axis_max_digits - std::to_string(t.shape[0]).size(), ' ');
  // _wrap_header(): pad with 1..64 spaces plus "\n" so magic + length + header is aligned.
  const std::size_t hlen = header.size() + 1;
  std::size_t pad = k_array_align - (6 + 2 + 2 + hlen) % k_array_align;
  const bool v1 = hlen + pad <= 0xFFFF;
  if (!v1) pad = k_array_align - (6 + 2 + 4 + hlen) % k_array_align;
  std::string out = "\x93NUMPY";
  out += static_cast<char>(v1 ? 1 : 2);
  out += '\0';
  if (v1) le::append<std::uint16_t>(out, static_cast<std::uint16_t>(hlen + pad));
  else le::append<std::uint32_t>(out, static_cast<std::uint32_t>(hlen + pad));
  out += header;
  out.append(pad, ' ');
  out += '\n';
  const std::size_t data_at = out.size();
  out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size());
  if constexpr (std::endian::native == std::endian::big)
    byte_swap_elements({reinterpret_cast<std::byte*>(out.data() + data_at), t.data.size()}, t.dtype);
  return out;
}

}  // namespace msdump::tensor
