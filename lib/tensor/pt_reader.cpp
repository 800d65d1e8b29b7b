#include "tensor/pt_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "tensor/little_endian.h"
#include "tensor/pickle_reader.h"
#include "tensor/source_error.h"
#include "tensor/zip_directory.h"

namespace msdump::tensor {
namespace {

using Kind = PickleValue::Kind;

constexpr std::array<std::uint8_t, 4> k_zip_magic{0x50, 0x4B, 0x03, 0x04};
// PROTO 2, LONG1 of 10 bytes, then 0x1950a86a20f9469cfc6c little-endian.
constexpr std::array<std::uint8_t, 14> k_legacy_magic{0x80, 0x02, 0x8A, 0x0A, 0x6C, 0xFC, 0x9C,
                                                      0x46, 0xF9, 0x20, 0x6A, 0xA8, 0x50, 0x19};

template <std::size_t N>
bool starts_with(std::span<const std::byte> head, const std::array<std::uint8_t, N>& magic) {
  if (head.size() < N) return false;
  for (std::size_t k = 0; k < N; ++k)
    if (std::to_integer<std::uint8_t>(head[k]) != magic[k]) return false;
  return true;
}

// torch dtypes msdump does not handle but whose names may appear in a v3 record; listed so
// the error says "unsupported dtype" rather than "global not allowed".
constexpr std::array<std::string_view, 19> k_other_torch_dtypes{
    "complex32", "chalf", "float8_e5m2fnuz", "float8_e4m3fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
    "bits8", "bits16", "bits1x8", "bits2x4", "bits4x2", "qint8", "quint8", "qint32", "quint4x2",
    "quint2x4", "int4", "uint4", "uint2"};

constexpr std::array<std::string_view, 5> k_quantized_storages{"QInt8Storage", "QUInt8Storage", "QInt32Storage",
                                                               "QUInt4x2Storage", "QUInt2x4Storage"};

bool is_rebuild_tensor(std::string_view n) { return n == "_rebuild_tensor_v2" || n == "_rebuild_tensor_v3"; }
bool is_rebuild_parameter(std::string_view n) {
  return n == "_rebuild_parameter" || n == "_rebuild_parameter_with_state";
}

// The whitelist of docs/tensor-formats.md §2.5, with specific messages for known tensor kinds that
// msdump does not decode.
Result<void> check_global(std::string_view module, std::string_view name) {
  if (module == "torch._utils") {
    if (is_rebuild_tensor(name) || is_rebuild_parameter(name)) return {};
    std::string_view what;
    if (name == "_rebuild_qtensor") what = "quantized tensor";
    else if (name.starts_with("_rebuild_sparse")) what = "sparse tensor";
    else if (name == "_rebuild_nested_tensor") what = "nested tensor";
    else if (name == "_rebuild_wrapper_subclass") what = "tensor subclass";
    else if (name == "_rebuild_meta_tensor_no_storage") what = "meta tensor without data";
    else if (name.starts_with("_rebuild_device_tensor") || name == "_rebuild_xla_tensor") what = "device tensor";
    if (!what.empty())
      return unsupported(fmt::format("unsupported tensor kind '{}.{}' ({})", module, name, what));
  }
  if (module == "torch._tensor" && name.starts_with("_rebuild_from_type"))
    return unsupported(fmt::format("unsupported tensor kind '{}.{}' (tensor subclass)", module, name));
  if (module == "collections" && name == "OrderedDict") return {};
  if (module == "torch") {
    if (name.ends_with("Storage") || dtype_from_torch_name(name)) return {};
    if (std::find(k_other_torch_dtypes.begin(), k_other_torch_dtypes.end(), name) != k_other_torch_dtypes.end())
      return {};
  }
  return invalid_input(fmt::format(
      "pickle references global '{}.{}', which is not allowed in a tensor file (nothing was executed)", module, name));
}

struct StorageRef {
  std::optional<DType> dtype;  // nullopt for torch.UntypedStorage
  std::string type_name;
  std::string key;
  std::string location;
  std::int64_t numel = 0;  // elements of `dtype`, or bytes for UntypedStorage
};

struct ParsedTensor {
  StorageRef storage;
  DType dtype = DType::float32;
  std::int64_t offset = 0;
  Shape size;
  std::vector<std::int64_t> stride;
  bool requires_grad = false;
};

Result<StorageRef> parse_storage(const PickleValue& v, bool legacy) {
  if (v.kind != Kind::persistent) return invalid_input(fmt::format("tensor storage is {}, expected a persistent id", describe(v)));
  const PickleValue& pid = *v.items[0];
  const std::size_t want = legacy ? 6 : 5;
  if (pid.kind != Kind::tuple || pid.items.size() != want || pid.items[0]->kind != Kind::string ||
      pid.items[0]->text != "storage")
    return invalid_input(fmt::format("persistent id is not a ('storage', type, key, location, numel{}) tuple",
                                     legacy ? ", view" : ""));
  const PickleValue& type = *pid.items[1];
  const PickleValue& key = *pid.items[2];
  const PickleValue& location = *pid.items[3];
  const PickleValue& numel = *pid.items[4];
  if (type.kind != Kind::global || type.text != "torch")
    return invalid_input(fmt::format("storage type is {}, expected a torch storage class", describe(type)));
  StorageRef s;
  s.type_name = "torch." + type.name;
  if (type.name != "UntypedStorage") {
    s.dtype = dtype_from_torch_storage(type.name);
    if (!s.dtype) {
      if (std::find(k_quantized_storages.begin(), k_quantized_storages.end(), type.name) != k_quantized_storages.end())
        return unsupported(fmt::format("quantized storage type '{}' is not supported", s.type_name));
      return invalid_input(fmt::format("unknown storage type '{}'", s.type_name));
    }
  }
  if (key.kind != Kind::string) return invalid_input(fmt::format("storage key is {}, expected a str", describe(key)));
  if (location.kind != Kind::string)
    return invalid_input(fmt::format("storage location is {}, expected a str", describe(location)));
  if (numel.kind != Kind::integer || numel.integer < 0)
    return invalid_input(fmt::format("storage size is {}, expected a non-negative int", describe(numel)));
  if (legacy && pid.items[5]->kind != Kind::none)
    return unsupported("legacy storage views (view metadata in the persistent id) are not supported");
  s.key = key.text;
  s.location = location.text;
  s.numel = numel.integer;
  return s;
}

Result<std::vector<std::int64_t>> int_tuple(const PickleValue& v, std::string_view what) {
  if (v.kind != Kind::tuple) return invalid_input(fmt::format("tensor {} is {}, expected a tuple", what, describe(v)));
  std::vector<std::int64_t> out;
  out.reserve(v.items.size());
  for (const auto* item : v.items) {
    if (item->kind != Kind::integer)
      return invalid_input(fmt::format("tensor {} holds {}, expected ints", what, describe(*item)));
    out.push_back(item->integer);
  }
  return out;
}

// A metadata dict (conj/neg bits, torch 2.x) with a true value changes what the bytes mean.
Result<void> check_metadata(const PickleValue& v) {
  if (v.kind != Kind::dict) return {};
  for (std::size_t k = 1; k < v.items.size(); k += 2)
    if (v.items[k]->kind == Kind::boolean && v.items[k]->boolean)
      return unsupported("tensors with a conjugate or negative bit set are not supported");
  return {};
}

Result<ParsedTensor> parse_tensor(const PickleValue& v, bool legacy, bool allow_parameter) {
  const std::string fn = v.kind == Kind::call ? v.items[0]->name : "";
  const bool is_call_of_utils = v.kind == Kind::call && v.items[0]->text == "torch._utils";
  const auto& args = v.kind == Kind::call ? v.items[1]->items : v.items;
  if (is_call_of_utils && allow_parameter && is_rebuild_parameter(fn)) {
    if (args.size() < 3) return invalid_input(fmt::format("{} has {} arguments, expected 3", fn, args.size()));
    auto t = parse_tensor(*args[0], legacy, false);
    if (!t) return t.error();
    if (args[1]->kind != Kind::boolean) return invalid_input(fmt::format("{} requires_grad is {}", fn, describe(*args[1])));
    t->requires_grad = args[1]->boolean;
    return t;
  }
  if (!is_call_of_utils || !is_rebuild_tensor(fn))
    return invalid_input(fmt::format("contains {}, expected a single tensor", describe(v)));
  const bool v3 = fn == "_rebuild_tensor_v3";
  const std::size_t need = v3 ? 7 : 6;
  if (args.size() < need || args.size() > need + 1)
    return invalid_input(fmt::format("{} has {} arguments, expected {}", fn, args.size(), need));
  ParsedTensor t;
  auto storage = parse_storage(*args[0], legacy);
  if (!storage) return storage.error();
  t.storage = std::move(*storage);
  if (args[1]->kind != Kind::integer || args[1]->integer < 0)
    return invalid_input(fmt::format("storage offset is {}, expected a non-negative int", describe(*args[1])));
  t.offset = args[1]->integer;
  auto size = int_tuple(*args[2], "size");
  if (!size) return size.error();
  auto stride = int_tuple(*args[3], "stride");
  if (!stride) return stride.error();
  t.size = std::move(*size);
  t.stride = std::move(*stride);
  if (args[4]->kind != Kind::boolean)
    return invalid_input(fmt::format("requires_grad is {}, expected a bool", describe(*args[4])));
  t.requires_grad = args[4]->boolean;
  if (args.size() == need + 1) MSDUMP_TRY(check_metadata(*args[need]));
  if (v3) {
    const PickleValue& d = *args[6];
    if (d.kind != Kind::global) return invalid_input(fmt::format("tensor dtype is {}, expected a torch dtype", describe(d)));
    auto dtype = dtype_from_torch_name(d.name);
    if (!dtype) return unsupported(fmt::format("unsupported dtype 'torch.{}'", d.name));
    t.dtype = *dtype;
  } else {
    if (!t.storage.dtype)
      return invalid_input("_rebuild_tensor_v2 with torch.UntypedStorage (the dtype needs _rebuild_tensor_v3)");
    t.dtype = *t.storage.dtype;
  }
  return t;
}

// Bytes the storage holds according to its persistent id.
Result<std::uint64_t> storage_bytes(const StorageRef& s) {
  const std::uint64_t n = static_cast<std::uint64_t>(s.numel);
  if (!s.dtype) return n;
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(n, itemsize(*s.dtype), &bytes))
    return invalid_input(fmt::format("storage size {} overflows", s.numel));
  return bytes;
}

std::string describe_storage_size(const StorageRef& s) {
  if (!s.dtype) return fmt::format("{} bytes ({})", s.numel, s.type_name);
  auto bytes = storage_bytes(s);
  if (!bytes) return fmt::format("{} {} elements (more bytes than fit in 64 bits)", s.numel, dtype_name(*s.dtype));
  return fmt::format("{} {} elements ({} bytes)", s.numel, dtype_name(*s.dtype), *bytes);
}

// Checks that the view (offset, size, stride) stays inside `bytes` bytes of storage.
Result<void> check_view(const ParsedTensor& t, std::uint64_t bytes, std::string_view record) {
  if (t.size.size() != t.stride.size())
    return invalid_input(fmt::format("tensor size {} and stride {} differ in length", format_shape(t.size),
                                     format_shape(t.stride)));
  for (auto s : t.stride)
    if (s < 0) return invalid_input(fmt::format("negative stride in {}", format_shape(t.stride)));
  for (auto d : t.size)
    if (d < 0) return invalid_input(fmt::format("negative size in {}", format_shape(t.size)));
  const auto numel = checked_numel(t.size);
  if (!numel) return invalid_input(fmt::format("shape {} has more elements than fit in 64 bits", format_shape(t.size)));
  if (*numel == 0) return {};
  std::int64_t last = t.offset;
  for (std::size_t k = 0; k < t.size.size(); ++k) {
    std::int64_t step = 0;
    if (__builtin_mul_overflow(t.size[k] - 1, t.stride[k], &step) || __builtin_add_overflow(last, step, &last))
      return invalid_input(fmt::format("view (storage offset {}, shape {}, strides {}) overflows 64 bits", t.offset,
                                       format_shape(t.size), format_shape(t.stride)));
  }
  const std::uint64_t have = bytes / itemsize(t.dtype);
  if (static_cast<std::uint64_t>(last) >= have)
    return invalid_input(fmt::format(
        "view (storage offset {}, shape {}, strides {}) reaches element {} but storage '{}' holds {} {} elements",
        t.offset, format_shape(t.size), format_shape(t.stride), last, record, have, dtype_name(t.dtype)));
  return {};
}

TensorInfo make_info(const ParsedTensor& t, std::uint64_t data_offset, std::uint64_t bytes, bool big_endian) {
  TensorInfo info;
  info.dtype = t.dtype;
  info.shape = t.size;
  info.strides = t.stride;
  info.storage_offset = t.offset;
  info.data_offset = data_offset;
  info.storage_bytes = bytes;
  info.big_endian = big_endian && itemsize(t.dtype) > 1;
  info.requires_grad = t.requires_grad;
  info.format = TensorFormat::pt;
  info.location = t.storage.location;
  return info;
}

// The "<archive>/" prefix: the folder of the single top-level "<archive>/data.pkl".
Result<std::string> archive_prefix(const ZipDirectory& dir) {
  std::vector<std::string> prefixes;
  for (const auto& e : dir.entries) {
    const auto slash = e.name.find('/');
    if (slash == std::string::npos) continue;
    const std::string_view rest = std::string_view(e.name).substr(slash + 1);
    if (rest == "constants.pkl" || rest.starts_with("code/"))
      return unsupported("TorchScript archive (torch.jit.save), not a torch.save tensor file");
    if (rest == "data.pkl") prefixes.push_back(e.name.substr(0, slash + 1));
  }
  if (prefixes.empty()) return invalid_input("zip archive has no '<archive>/data.pkl' record (not a torch.save file)");
  if (prefixes.size() > 1)
    return invalid_input(fmt::format("zip archive has {} data.pkl records ('{}data.pkl', '{}data.pkl', ...)",
                                     prefixes.size(), prefixes[0], prefixes[1]));
  return prefixes[0];
}

Result<bool> read_byteorder(const ByteSource& src, const ZipDirectory& dir, const std::string& prefix) {
  const ZipEntry* e = dir.find(prefix + "byteorder");
  if (e == nullptr) return false;
  if (e->uncompressed_size > 16)
    return invalid_input(fmt::format("byteorder record has {} bytes (expected 'little' or 'big')", e->uncompressed_size));
  auto bytes = read_zip_record(src, dir, *e);
  if (!bytes) return bytes.error();
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  if (text == "little") return false;
  if (text == "big") return true;
  return invalid_input(fmt::format("byteorder record says '{}' (expected 'little' or 'big')", text));
}

Result<TensorInfo> read_zip_pt(const ByteSource& src) {
  auto dir = read_zip_directory(src);
  if (!dir) return dir.error();
  auto prefix = archive_prefix(*dir);
  if (!prefix) return prefix.error();
  auto pkl = read_zip_record(src, *dir, *dir->find(*prefix + "data.pkl"));
  if (!pkl) return pkl.error();
  auto pickle = read_pickle(*pkl, check_global);
  if (!pickle) return pickle.error();
  auto t = parse_tensor(*pickle->root, false, true);
  if (!t) return t.error();
  auto big_endian = read_byteorder(src, *dir, *prefix);
  if (!big_endian) return big_endian.error();
  const std::string record = "data/" + t->storage.key;
  const ZipEntry* e = dir->find(*prefix + record);
  if (e == nullptr) return invalid_input(fmt::format("storage record '{}' is missing", record));
  auto rec = locate_zip_record(src, *dir, *e);
  if (!rec) return rec.error();
  auto expected = storage_bytes(t->storage);
  if (!expected) return expected.error();
  if (rec->size != *expected)
    return invalid_input(fmt::format("storage record '{}' has {} bytes but its persistent id says {}", record, rec->size,
                                     describe_storage_size(t->storage)));
  MSDUMP_TRY(check_view(*t, rec->size, record));
  return make_info(*t, rec->data_offset, rec->size, *big_endian);
}

// ---- legacy format (docs/tensor-formats.md §2.7): magic, protocol, sys_info, object, storage
// keys, then the storages ----

struct LegacyHeader {
  Pickle object;
  std::vector<std::string> keys;
  bool big_endian = false;
  std::uint64_t storages_offset = 0;
};

Result<LegacyHeader> parse_legacy_header(std::span<const std::byte> buf) {
  LegacyHeader h;
  std::size_t pos = 0;
  auto next = [&](std::string_view what) -> Result<Pickle> {
    auto p = read_pickle(buf.subspan(pos), check_global);
    if (!p) return p.error().with_context(fmt::format("legacy torch.save {}", what));
    pos += p->end;
    return p;
  };
  auto magic = next("magic number");
  if (!magic) return magic.error();
  auto protocol = next("protocol version");
  if (!protocol) return protocol.error();
  if (protocol->root->kind != Kind::integer || protocol->root->integer != 1001)
    return invalid_input("legacy torch.save protocol version is not 1001");
  auto sys_info = next("sys_info");
  if (!sys_info) return sys_info.error();
  const PickleValue& info = *sys_info->root;
  if (info.kind == Kind::dict)
    for (std::size_t k = 0; k + 1 < info.items.size(); k += 2)
      if (info.items[k]->kind == Kind::string && info.items[k]->text == "little_endian" &&
          info.items[k + 1]->kind == Kind::boolean)
        h.big_endian = !info.items[k + 1]->boolean;
  auto object = next("object");
  if (!object) return object.error();
  h.object = std::move(*object);
  auto keys = next("storage key list");
  if (!keys) return keys.error();
  if (keys->root->kind != Kind::list) return invalid_input("legacy torch.save storage key list is not a list");
  for (const auto* k : keys->root->items) {
    if (k->kind != Kind::string) return invalid_input("legacy torch.save storage key is not a str");
    h.keys.push_back(k->text);
  }
  h.storages_offset = pos;
  return h;
}

Result<TensorInfo> read_legacy_pt(const ByteSource& src) {
  // The pickles of one tensor are a few hundred bytes; grow the window only if they are not.
  constexpr std::uint64_t k_max_header = std::uint64_t{64} << 20;
  std::uint64_t window = std::min<std::uint64_t>(src.size(), 64 << 10);
  Result<LegacyHeader> header = invalid_input("");
  while (true) {
    auto buf = src.read_vector(0, static_cast<std::size_t>(window));
    if (!buf) return buf.error();
    header = parse_legacy_header(*buf);
    if (header || window >= std::min(src.size(), k_max_header)) break;
    window = std::min({window * 8, src.size(), k_max_header});
  }
  if (!header) return header.error();
  auto t = parse_tensor(*header->object.root, true, true);
  if (!t) return t.error();
  // Storages follow in key-list order, each as an int64 element count and the bytes.
  std::uint64_t pos = header->storages_offset;
  for (const auto& key : header->keys) {
    if (key != t->storage.key)
      return invalid_input(fmt::format("legacy torch.save file holds storage '{}' that the tensor does not use", key));
    std::byte count_bytes[8];
    if (pos > src.size() || src.size() - pos < 8)
      return invalid_input(fmt::format("legacy storage '{}' is truncated at offset {}", key, pos));
    MSDUMP_TRY(src.read_at(pos, count_bytes));
    std::uint64_t count = le::load<std::uint64_t>(count_bytes);
    if (header->big_endian) count = __builtin_bswap64(count);
    if (count != static_cast<std::uint64_t>(t->storage.numel))
      return invalid_input(fmt::format("legacy storage '{}' has {} elements but its persistent id says {}", key, count,
                                       describe_storage_size(t->storage)));
    auto bytes = storage_bytes(t->storage);
    if (!bytes) return bytes.error();
    const std::uint64_t data = pos + 8;
    if (data > src.size() || src.size() - data < *bytes)
      return invalid_input(fmt::format("legacy storage '{}' ({} bytes at offset {}) extends beyond the end of the file ({} bytes)",
                                       key, *bytes, data, src.size()));
    MSDUMP_TRY(check_view(*t, *bytes, key));
    return make_info(*t, data, *bytes, header->big_endian);
  }
  return invalid_input(fmt::format("legacy torch.save file lacks storage '{}'", t->storage.key));
}

}  // namespace

bool is_pt_zip(std::span<const std::byte> head) { return starts_with(head, k_zip_magic); }
bool is_legacy_pt(std::span<const std::byte> head) { return starts_with(head, k_legacy_magic); }

Result<TensorInfo> read_pt_info(const ByteSource& src) {
  std::byte head[16] = {};
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(src.size(), sizeof head));
  if (auto r = src.read_at(0, std::span(head, n)); !r) return source_error(src, r.error());
  auto info = is_legacy_pt(std::span(head, n)) ? read_legacy_pt(src) : read_zip_pt(src);
  if (!info) return source_error(src, info.error());
  return info;
}

}  // namespace msdump::tensor
