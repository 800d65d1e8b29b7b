#include "tensor/npy_reader.h"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "tensor/little_endian.h"
#include "tensor/source_error.h"

namespace msdump::tensor {
namespace {

constexpr std::string_view k_magic = "\x93NUMPY";

// One value of the header's dict literal. Lists (structured dtypes) are kept only as text.
struct Literal {
  enum class Kind { string, boolean, none, integer, tuple, list } kind = Kind::none;
  std::string text;  // string contents; for a list, its source text
  bool boolean = false;
  std::int64_t integer = 0;
  std::vector<Literal> items;
};

// Recursive-descent parser for the subset of Python literals np.save writes.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view s) : m_s(s) {}

  Result<std::vector<std::pair<std::string, Literal>>> parse_dict() {
    std::vector<std::pair<std::string, Literal>> out;
    MSDUMP_TRY(expect('{'));
    while (true) {
      skip_space();
      if (peek() == '}') break;
      auto key = parse_value(0);
      if (!key) return key.error();
      if (key->kind != Literal::Kind::string) return error("expected a quoted key");
      MSDUMP_TRY(expect(':'));
      auto value = parse_value(0);
      if (!value) return value.error();
      out.emplace_back(std::move(key->text), std::move(*value));
      skip_space();
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      if (peek() != '}') return error("expected ',' or '}'");
    }
    ++m_pos;
    skip_space();
    if (m_pos != m_s.size()) return error("unexpected text after the dict");
    return out;
  }

 private:
  char peek() const { return m_pos < m_s.size() ? m_s[m_pos] : '\0'; }
  void skip_space() {
    while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\n' || m_s[m_pos] == '\t' || m_s[m_pos] == '\r'))
      ++m_pos;
  }
  Error error(std::string_view what) const {
    return invalid_input(fmt::format("malformed .npy header: {} at column {}", what, m_pos + 1));
  }
  Result<void> expect(char c) {
    skip_space();
    if (peek() != c) return error(fmt::format("expected '{}'", c));
    ++m_pos;
    return {};
  }

  Result<Literal> parse_value(int depth) {
    if (depth > 16) return error("nesting too deep");
    skip_space();
    const char c = peek();
    const std::size_t start = m_pos;
    Literal v;
    if (c == '\'' || c == '"') {
      ++m_pos;
      v.kind = Literal::Kind::string;
      while (m_pos < m_s.size() && m_s[m_pos] != c) {
        if (m_s[m_pos] == '\\' && m_pos + 1 < m_s.size()) ++m_pos;
        v.text += m_s[m_pos++];
      }
      if (m_pos >= m_s.size()) return error("unterminated string");
      ++m_pos;
      return v;
    }
    if (c == '(' || c == '[') {
      const char close = c == '(' ? ')' : ']';
      ++m_pos;
      v.kind = c == '(' ? Literal::Kind::tuple : Literal::Kind::list;
      while (true) {
        skip_space();
        if (peek() == close) break;
        auto item = parse_value(depth + 1);
        if (!item) return item.error();
        v.items.push_back(std::move(*item));
        skip_space();
        if (peek() == ',') {
          ++m_pos;
          continue;
        }
        if (peek() != close) return error(fmt::format("expected ',' or '{}'", close));
      }
      ++m_pos;
      if (v.kind == Literal::Kind::list) v.text = std::string(m_s.substr(start, m_pos - start));
      return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      const bool negative = c == '-';
      if (negative) ++m_pos;
      const char* b = m_s.data() + m_pos;
      const char* e = m_s.data() + m_s.size();
      std::uint64_t u = 0;
      auto [p, ec] = std::from_chars(b, e, u);
      if (ec == std::errc::result_out_of_range || u > static_cast<std::uint64_t>(INT64_MAX))
        return error("integer too large");
      if (ec != std::errc()) return error("expected a digit");
      m_pos += static_cast<std::size_t>(p - b);
      if (peek() == 'L' || peek() == 'l') ++m_pos;  // Python 2 long literal ("3L")
      v.kind = Literal::Kind::integer;
      v.integer = negative ? -static_cast<std::int64_t>(u) : static_cast<std::int64_t>(u);
      return v;
    }
    for (std::string_view word : {"True", "False", "None"}) {
      if (m_s.substr(m_pos, word.size()) == word) {
        m_pos += word.size();
        v.kind = word == "None" ? Literal::Kind::none : Literal::Kind::boolean;
        v.boolean = word == "True";
        return v;
      }
    }
    return error("unexpected character");
  }

  std::string_view m_s;
  std::size_t m_pos = 0;
};

Error unsupported_descr(std::string_view descr, std::string_view why) {
  if (why.empty()) return unsupported(fmt::format("unsupported numpy dtype '{}'", descr));
  return unsupported(fmt::format("unsupported numpy dtype '{}' ({})", descr, why));
}

}  // namespace

bool is_npy(std::span<const std::byte> head) {
  return head.size() >= k_magic.size() &&
         std::string_view(reinterpret_cast<const char*>(head.data()), k_magic.size()) == k_magic;
}

Result<NpyDescr> parse_npy_descr(std::string_view descr, std::optional<DType> void_hint) {
  std::string_view s = descr;
  char order = '|';
  if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=')) {
    order = s[0];
    s.remove_prefix(1);
  }
  if (s.empty()) return unsupported_descr(descr, "");
  const char kind = s[0];
  const std::string_view size_text = s.substr(1);
  std::size_t size = 0;
  const auto [p, ec] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size);
  const bool plain_size = ec == std::errc() && p == size_text.data() + size_text.size();
  switch (kind) {
    case 'U':
    case 'S':
    case 'a': return unsupported_descr(descr, "string arrays are not tensors");
    case 'O': return unsupported_descr(descr, "object arrays are pickles, not tensors");
    case 'M':
    case 'm': return unsupported_descr(descr, "datetime arrays are not tensors");
    default: break;
  }
  if (!plain_size) return unsupported_descr(descr, "");
  std::optional<DType> dtype;
  switch (kind) {
    case 'b':
      if (size == 1) dtype = DType::boolean;
      break;
    case 'i':
      if (size == 1) dtype = DType::int8;
      if (size == 2) dtype = DType::int16;
      if (size == 4) dtype = DType::int32;
      if (size == 8) dtype = DType::int64;
      break;
    case 'u':
      if (size == 1) dtype = DType::uint8;
      if (size == 2) dtype = DType::uint16;
      if (size == 4) dtype = DType::uint32;
      if (size == 8) dtype = DType::uint64;
      break;
    case 'f':
      if (size == 2) dtype = DType::float16;
      if (size == 4) dtype = DType::float32;
      if (size == 8) dtype = DType::float64;
      if (size == 12 || size == 16) return unsupported_descr(descr, "long double is not supported");
      break;
    case 'c':
      if (size == 8) dtype = DType::complex64;
      if (size == 16) dtype = DType::complex128;
      if (size == 24 || size == 32) return unsupported_descr(descr, "complex long double is not supported");
      break;
    case 'V':
      if (!void_hint)
        return unsupported_descr(descr, "raw void type; pass a dtype hint such as bfloat16 to read it");
      if (itemsize(*void_hint) != size)
        return unsupported_descr(descr, fmt::format("void type of {} bytes does not match the dtype hint {}", size,
                                                    dtype_name(*void_hint)));
      dtype = void_hint;
      break;
    default: break;
  }
  if (!dtype) return unsupported_descr(descr, "");
  NpyDescr out;
  out.dtype = *dtype;
  const bool big = order == '>' || (order == '=' && std::endian::native == std::endian::big);
  out.big_endian = big && itemsize(*dtype) > 1;
  return out;
}

namespace {

// The header dictionary of a .npy file and where its data starts.
struct NpyHeader {
  std::vector<std::pair<std::string, Literal>> dict;
  std::uint64_t data_offset = 0;
};

// The preamble (magic, version 1.0 to 3.0, header length) and the header dictionary.
Result<NpyHeader> read_header(const ByteSource& src) {
  const std::uint64_t size = src.size();
  std::byte pre[12] = {};
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(size, sizeof pre));
  MSDUMP_TRY(src.read_at(0, std::span(pre, n)));
  if (!is_npy(std::span(pre, n))) return invalid_input("not a .npy file (bad magic)");
  if (n < 10) return invalid_input(fmt::format("truncated .npy header (file has {} bytes)", size));
  const int major = std::to_integer<int>(pre[6]);
  const int minor = std::to_integer<int>(pre[7]);
  if (major < 1 || major > 3 || minor != 0)
    return unsupported(fmt::format("unsupported .npy version {}.{}", major, minor));
  const std::uint64_t prefix = major == 1 ? 10 : 12;
  if (size < prefix) return invalid_input(fmt::format("truncated .npy header (file has {} bytes)", size));
  const std::uint64_t header_len =
      major == 1 ? le::load<std::uint16_t>(pre + 8) : static_cast<std::uint64_t>(le::load<std::uint32_t>(pre + 8));
  // numpy >= 1.24.4 refuses headers above 10000 bytes by default; allow far more, but never
  // let a corrupt length field allocate gigabytes.
  constexpr std::uint64_t k_max_header = 16u << 20;
  if (header_len > k_max_header)
    return invalid_input(fmt::format(".npy header of {} bytes is too large (limit {})", header_len, k_max_header));
  if (header_len > size - prefix)
    return invalid_input(fmt::format("truncated .npy header: it declares {} bytes, the file has {} after the preamble",
                                     header_len, size - prefix));
  auto text = src.read_vector(prefix, static_cast<std::size_t>(header_len));
  if (!text) return text.error();
  auto dict = HeaderParser(std::string_view(reinterpret_cast<const char*>(text->data()), text->size())).parse_dict();
  if (!dict) return dict.error();
  return NpyHeader{std::move(*dict), prefix + header_len};
}

// The three keys of a .npy header, each present once, of the kind numpy writes.
struct NpyFields {
  const Literal* descr = nullptr;
  const Literal* fortran = nullptr;
  const Literal* shape = nullptr;
};

Result<NpyFields> header_fields(const std::vector<std::pair<std::string, Literal>>& dict) {
  NpyFields f;
  for (const auto& [key, value] : dict) {
    const Literal** slot =
        key == "descr" ? &f.descr : key == "fortran_order" ? &f.fortran : key == "shape" ? &f.shape : nullptr;
    if (slot == nullptr) return invalid_input(fmt::format(".npy header has an unexpected key '{}'", key));
    if (*slot != nullptr) return invalid_input(fmt::format(".npy header repeats the key '{}'", key));
    *slot = &value;
  }
  for (auto [p, name] : {std::pair{f.descr, "descr"}, {f.fortran, "fortran_order"}, {f.shape, "shape"}})
    if (p == nullptr) return invalid_input(fmt::format(".npy header lacks the key '{}'", name));
  if (f.descr->kind == Literal::Kind::list)
    return unsupported(fmt::format("unsupported numpy dtype {} (structured arrays are not tensors)", f.descr->text));
  if (f.descr->kind != Literal::Kind::string) return invalid_input(".npy header 'descr' is not a string");
  if (f.fortran->kind != Literal::Kind::boolean) return invalid_input(".npy header 'fortran_order' is not True or False");
  if (f.shape->kind != Literal::Kind::tuple) return invalid_input(".npy header 'shape' is not a tuple");
  return f;
}

// Sets info.shape, info.strides (column-major for fortran_order) and info.storage_bytes, which
// must fit in the `available` bytes after the header.
Result<void> set_layout(TensorInfo& info, const Literal& shape, bool fortran, std::uint64_t available) {
  for (const auto& dim : shape.items) {
    if (dim.kind != Literal::Kind::integer || dim.integer < 0)
      return invalid_input(".npy header 'shape' must hold non-negative integers");
    info.shape.push_back(dim.integer);
  }
  const auto numel = checked_numel(info.shape);
  std::uint64_t nbytes = 0;
  if (!numel || __builtin_mul_overflow(static_cast<std::uint64_t>(*numel), itemsize(info.dtype), &nbytes))
    return invalid_input(fmt::format("shape {} has more elements than fit in 64 bits", format_shape(info.shape)));
  if (fortran && *numel != 0) {
    info.strides.resize(info.shape.size());
    std::int64_t s = 1;
    for (std::size_t k = 0; k < info.shape.size(); ++k) {
      info.strides[k] = s;
      s *= info.shape[k];  // cannot overflow: the product of the shape was checked
    }
  } else {
    info.strides = contiguous_strides(info.shape);
  }
  info.storage_bytes = nbytes;
  if (nbytes > available)
    return invalid_input(fmt::format("data is shorter than the header says: shape {} {} needs {} bytes, the file has {} after the header",
                                     format_shape(info.shape), dtype_name(info.dtype), nbytes, available));
  return {};
}

Result<TensorInfo> read_npy(const ByteSource& src, std::optional<DType> void_hint) {
  auto header = read_header(src);
  if (!header) return header.error();
  auto fields = header_fields(header->dict);
  if (!fields) return fields.error();
  auto d = parse_npy_descr(fields->descr->text, void_hint);
  if (!d) return d.error();
  TensorInfo info;
  info.format = TensorFormat::npy;
  info.dtype = d->dtype;
  info.big_endian = d->big_endian;
  info.data_offset = header->data_offset;
  MSDUMP_TRY(set_layout(info, *fields->shape, fields->fortran->boolean, src.size() - info.data_offset));
  return info;
}

}  // namespace

Result<TensorInfo> read_npy_info(const ByteSource& src, std::optional<DType> void_hint) {
  auto info = read_npy(src, void_hint);
  if (!info) return source_error(src, info.error());
  return info;
}

}  // namespace msdump::tensor
