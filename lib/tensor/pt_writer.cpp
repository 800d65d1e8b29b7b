#include "tensor/pt_writer.h"

#include <fmt/format.h>

#include <bit>
#include <vector>

#include "tensor/little_endian.h"
#include "tensor/tensor_reader.h"
#include "tensor/zip_writer.h"

namespace msdump::tensor {
namespace {

// Emits the opcodes Python's pickle (protocol 2) writes for torch's tensor reduce, including
// its memo: every non-empty tuple, string and global is followed by BINPUT n.
class PickleWriter {
 public:
  PickleWriter() { m_out = "\x80\x02"; }

  void global(std::string_view module, std::string_view name) {
    m_out += 'c';
    m_out += module;
    m_out += '\n';
    m_out += name;
    m_out += '\n';
    put();
  }
  void string(std::string_view s) {
    m_out += 'X';
    le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(s.size()));
    m_out += s;
    put();
  }
  // pickle.Pickler.save_long for protocol 2.
  void integer(std::int64_t v) {
    if (v >= 0 && v <= 0xFF) {
      m_out += 'K';
      m_out += static_cast<char>(v);
    } else if (v >= 0 && v <= 0xFFFF) {
      m_out += 'M';
      le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(v));
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      m_out += 'J';
      le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(v));
    } else {
      // encode_long: minimal little-endian two's complement.
      std::string raw;
      for (int k = 0; k < 8; ++k) raw += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * k)) & 0xFF);
      const char fill = v < 0 ? '\xff' : '\0';
      while (raw.size() > 1 && raw.back() == fill && ((raw[raw.size() - 2] & 0x80) != 0) == (v < 0)) raw.pop_back();
      m_out += '\x8a';
      m_out += static_cast<char>(raw.size());
      m_out += raw;
    }
  }
  void int_tuple(std::span<const std::int64_t> values) {
    if (values.empty()) {
      m_out += ')';  // the empty tuple is a singleton: never memoized
      return;
    }
    if (values.size() > 3) m_out += '(';
    for (auto v : values) integer(v);
    m_out += values.size() > 3 ? 't' : static_cast<char>(0x84 + values.size());
    put();
  }
  void op(char c) { m_out += c; }
  void put() {
    m_out += 'q';
    m_out += static_cast<char>(m_memo++);
  }
  std::string finish() {
    m_out += '.';
    return std::move(m_out);
  }

 private:
  std::string m_out;
  int m_memo = 0;  // at most 13 entries for one tensor: BINPUT always suffices
};

std::string tensor_pickle(const TensorView& t, bool requires_grad) {
  const DTypeInfo& d = dtype_info(t.dtype);
  const bool v3 = d.torch_storage.empty();
  const std::int64_t numel = t.numel();
  PickleWriter p;
  p.global("torch._utils", v3 ? "_rebuild_tensor_v3" : "_rebuild_tensor_v2");
  p.op('(');
  p.op('(');
  p.string("storage");
  p.global("torch", v3 ? "UntypedStorage" : d.torch_storage);
  p.string("0");
  p.string("cpu");
  p.integer(v3 ? numel * static_cast<std::int64_t>(d.itemsize) : numel);
  p.op('t');
  p.put();
  p.op('Q');
  p.integer(0);
  p.int_tuple(t.shape);
  p.int_tuple(contiguous_strides(t.shape));
  p.op(requires_grad ? '\x88' : '\x89');
  p.global("collections", "OrderedDict");
  p.op(')');
  p.op('R');
  p.put();
  if (v3) p.global("torch", d.torch_name.substr(6));  // "torch.uint16" -> GLOBAL torch uint16
  p.op('t');
  p.put();
  p.op('R');
  p.put();
  return p.finish();
}

}  // namespace

std::string pt_archive_name(std::string_view path) {
  const auto slash = path.rfind('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  const auto dot = path.rfind('.');
  if (dot != std::string_view::npos) path = path.substr(0, dot);
  return std::string(path);
}

Result<std::string> write_pt(const TensorView& t, std::string_view archive_name, bool requires_grad) {
  const auto numel = checked_numel(t.shape);
  if (!numel || t.data.size() != static_cast<std::uint64_t>(*numel) * itemsize(t.dtype))
    return invalid_input(fmt::format("tensor {} {} has {} bytes of data, expected numel * {}", format_shape(t.shape),
                                     dtype_name(t.dtype), t.data.size(), itemsize(t.dtype)));
  if (archive_name.empty() || archive_name.find('/') != std::string_view::npos)
    return invalid_input(fmt::format("invalid torch.save archive name '{}'", archive_name));
  const std::string pkl = tensor_pickle(t, requires_grad);
  TorchZipWriter zip{std::string(archive_name)};
  zip.add_record("data.pkl", as_bytes(pkl));
  if constexpr (std::endian::native == std::endian::big) {
    std::vector<std::byte> little(t.data.begin(), t.data.end());
    byte_swap_elements(little, t.dtype);
    zip.add_record("data/0", little);
  } else {
    zip.add_record("data/0", t.data);
  }
  zip.add_record("version", as_bytes(std::string_view("3\n")));
  return zip.finish();
}

}  // namespace msdump::tensor
