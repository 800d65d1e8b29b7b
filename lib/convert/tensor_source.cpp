#include "convert/tensor_source.h"

#include <filesystem>
#include <fmt/format.h>

#include "core/beneath.h"
#include "dump/data_name.h"
#include "tensor/raw_reader.h"
#include "tensor/tensor_reader.h"

namespace msdump::convert {
namespace {

namespace fs = std::filesystem;

// A relative path that stays below its base: no absolute path, no "..", no empty component.
bool stays_inside(std::string_view rel) {
  if (rel.empty() || rel.front() == '/') return false;
  std::size_t start = 0;
  while (start <= rel.size()) {
    const auto end = std::min(rel.find('/', start), rel.size());
    const auto part = rel.substr(start, end - start);
    if (part.empty() || part == "..") return false;
    start = end + 1;
  }
  return rel.find('\0') == std::string_view::npos;
}

bool holds_16bit_or_fp8_as_float32(DType leaf, DType file) {
  return file == DType::float32 && (leaf == DType::bfloat16 || leaf == DType::float8_e4m3fn ||
                                    leaf == DType::float8_e5m2);
}

}  // namespace

bool shape_from_value(const pyjson::Value* shape, tensor::Shape& out) {
  if (shape == nullptr || !shape->is_array()) return false;
  out.clear();
  for (const auto& d : shape->as_array()) {
    if (d.kind() != pyjson::Kind::integer || d.as_int() < 0) return false;
    out.push_back(d.as_int());
  }
  return true;
}

Result<bool> locate_tensor_source(const pyjson::Value& leaf, InputKind kind, const std::string& dir,
                                  TensorSource& out) {
  out.offset = 0;
  if (kind == InputKind::msprobe_dump) {
    const auto* dn = leaf.find("data_name");
    if (dn == nullptr) return false;
    if (!dn->is_string()) return invalid_input("/data_name: expected a string");
    if (!dump::is_plain_file_name(dn->as_string()))
      return invalid_input(fmt::format("/data_name: \"{}\" is not a file name inside dump_tensor_data/", dn->as_string()));
    out.path.assign(dir).append("/").append(dn->as_string());
    // The dump's directory (given by the user) is what files are opened beneath: dump_tensor_data/
    // is a name inside it, so it may not be a link either.
    auto tensors = fs::path(dir).lexically_normal();
    if (!tensors.has_filename()) tensors = tensors.parent_path();
    const auto rank_dir = tensors.parent_path();
    out.base = rank_dir.empty() ? std::string(".") : rank_dir.string();
    out.name.assign(tensors.filename().string()).append("/").append(dn->as_string());
    out.raw_allowed = false;
  } else {
    const auto* s = leaf.find("source");
    if (s == nullptr) return invalid_input("/source: missing (a capture's tensor leaf says where its bytes are)");
    if (s->is_null()) return false;
    if (!s->is_object()) return invalid_input("/source: expected an object or null");
    const auto* file = s->find("file");
    if (file == nullptr || !file->is_string()) return invalid_input("/source/file: expected a string");
    if (!stays_inside(file->as_string()))
      return invalid_input(fmt::format("/source/file: \"{}\" must be a relative path inside the capture", file->as_string()));
    if (const auto* off = s->find("offset")) {
      if (off->kind() != pyjson::Kind::integer || off->as_int() < 0)
        return invalid_input("/source/offset: expected a non-negative integer");
      out.offset = static_cast<std::uint64_t>(off->as_int());
    }
    out.path.assign(dir).append("/").append(file->as_string());
    out.base.assign(dir);
    out.name.assign(file->as_string());
    out.raw_allowed = true;
  }
  return true;
}

// The header of an opened file (or the raw layout the leaf describes) into `info`, and the
// checks against the leaf; shared by open_tensor_source and the cache. The optional holds a
// problem that spoils only this leaf; the Result fails when the file contradicts the leaf.
static Result<std::optional<Error>> describe_opened(const TensorSource& src, const FileSource& file, bool known,
                                                    DType leaf_dtype, const tensor::Shape& leaf_shape,
                                                    tensor::TensorInfo& info);

Result<OpenOutcome> open_tensor_source(const TensorSource& src, DType leaf_dtype, const tensor::Shape& leaf_shape) {
  OpenOutcome outcome;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(src.path, ec))) {
    outcome.problem = io_error(fmt::format("tensor file '{}' is missing", src.path));
    return outcome;
  }
  // A link along the name is an invalid input; an unreadable file or a special file (FIFO,
  // directory) spoils only this leaf.
  auto file = open_beneath(src.base, src.name);
  if (!file) {
    if (file.error().code == ErrorCode::invalid_input) return file.error();
    outcome.problem = file.error();
    return outcome;
  }
  OpenedTensor out;
  out.source = std::shared_ptr<const FileSource>(std::move(*file));
  // Files without a known magic are raw element bytes described by the leaf (captures only).
  const bool known = !src.raw_allowed || tensor::detect_tensor_format(*out.source).ok();
  auto described = describe_opened(src, *out.source, known, leaf_dtype, leaf_shape, out.info);
  if (!described) return described.error();
  if (*described) {
    outcome.problem = std::move(**described);
    return outcome;
  }
  outcome.opened = std::move(out);
  return outcome;
}

static Result<std::optional<Error>> describe_opened(const TensorSource& src, const FileSource& file, bool known,
                                                    DType leaf_dtype, const tensor::Shape& leaf_shape,
                                                    tensor::TensorInfo& info) {
  if (known) {
    auto read = tensor::read_tensor_info(file, tensor::ReadOptions{leaf_dtype});
    if (!read) return std::optional<Error>(read.error());
    info = std::move(*read);
  } else if (auto raw = tensor::describe_raw(file, leaf_dtype, leaf_shape, src.offset, false, info); !raw) {
    return std::optional<Error>(raw.error());
  }
  if (info.shape != leaf_shape)
    return invalid_input(fmt::format("'{}': file holds shape {}, the leaf says {}", src.path,
                                     tensor::format_shape(info.shape), tensor::format_shape(leaf_shape)));
  if (info.dtype != leaf_dtype && !holds_16bit_or_fp8_as_float32(leaf_dtype, info.dtype))
    return invalid_input(fmt::format("'{}': file holds {}, the leaf says {}", src.path, dtype_name(info.dtype),
                                     dtype_name(leaf_dtype)));
  return std::optional<Error>();
}

Result<TensorSourceCache::Opened> TensorSourceCache::open(TensorSource& src, DType leaf_dtype,
                                                          const tensor::Shape& leaf_shape) {
  const Entry* hit = nullptr;
  if (m_last != nullptr && *m_last_path == src.path) {
    hit = m_last;
  } else if (auto it = m_files.find(src.path); it != m_files.end()) {
    hit = &it->second;
    m_last_path = &it->first;
    m_last = hit;
  }
  Opened out;
  if (hit != nullptr) {
    auto described = describe_opened(src, *hit->file, hit->known_format, leaf_dtype, leaf_shape, src.info);
    if (!described) return described.error();
    out.problem = std::move(*described);
    if (!out.problem) {
      out.source = hit->file.get();
      out.elements = hit->memory ? hit->memory.get() : static_cast<const ByteSource*>(hit->file.get());
    }
    return out;
  }
  auto r = open_tensor_source(src, leaf_dtype, leaf_shape);
  if (!r) return r.error();
  if (!r->opened) {
    out.problem = std::move(r->problem);
    return out;
  }
  if (m_files.size() >= k_open_files) {
    m_files.clear();
    m_memory_bytes = 0;
    m_last_path = nullptr;
    m_last = nullptr;
  }
  src.info = std::move(r->opened->info);
  const bool known = src.info.format != tensor::TensorFormat::raw;
  Entry e{std::move(r->opened->source), known, nullptr, nullptr};
  const std::uint64_t size = e.file->size();
  if (!known && size <= k_memory_file_bytes && m_memory_bytes + size <= k_memory_bytes) {
    auto bytes = std::make_shared<std::vector<std::byte>>(static_cast<std::size_t>(size));
    if (e.file->read_at(0, *bytes)) {  // on a read error the leaves read the file as before
      e.bytes = bytes;
      e.memory = std::make_shared<MemorySource>(std::span<const std::byte>(*bytes), e.file->name());
      m_memory_bytes += size;
    }
  }
  const auto [it, inserted] = m_files.insert_or_assign(src.path, std::move(e));
  m_last_path = &it->first;
  m_last = &it->second;
  out.source = it->second.file.get();
  out.elements = it->second.memory ? it->second.memory.get() : static_cast<const ByteSource*>(it->second.file.get());
  return out;
}

}  // namespace msdump::convert
