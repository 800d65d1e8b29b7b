#include "convert/leaf_converter.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "convert/ndarray_stats.h"
#include "convert/tensor_source.h"
#include "dump/data_name.h"
#include "dump/leaf_walk.h"
#include "dump/tensor_leaf.h"
#include "pyjson/json_writer.h"
#include "stats/float_convert.h"
#include "stats/leaf_stats.h"
#include "tensor/tensor_reader.h"
#include "tensor/npy_writer.h"
#include "tensor/pt_writer.h"

namespace msdump::convert {
namespace {

using pyjson::Value;

// Keys a tensor leaf may carry besides the ones msdump computes, in msprobe's order.
constexpr std::string_view k_pytorch_extras[] = {"device_mesh", "placements"};
constexpr std::string_view k_mindspore_extras[] = {"layout", "hsdp_shard_size"};
// Keys that msdump rewrites or drops.
bool is_computed_key(std::string_view k) {
  return k == "type" || k == "dtype" || k == "shape" || k == "Max" || k == "Min" || k == "Mean" ||
         k == "Norm" || k == "requires_grad" || k == "data_name" || k == "md5" || k == "source";
}

bool is_extra_key(std::string_view k) {
  for (auto e : k_pytorch_extras)
    if (e == k) return true;
  for (auto e : k_mindspore_extras)
    if (e == k) return true;
  return false;
}

// A hard link to the file already opened, else a copy of its bytes. The file was opened beneath
// the input without following links (core/beneath.h), so its descriptor is a regular file of the
// input, never a link. It is linked through that descriptor (/proc/self/fd with
// AT_SYMLINK_FOLLOW links the inode the descriptor holds, which linkat(AT_EMPTY_PATH) would do
// only with CAP_DAC_READ_SEARCH), never through its name: a name swapped since the open is not
// used.
Result<void> link_or_copy(const FileSource& from, const std::string& to, Overwrite overwrite) {
  std::error_code ec;
  if (overwrite == Overwrite::yes) std::filesystem::remove(to, ec);
  const std::string by_fd = "/proc/self/fd/" + std::to_string(from.fd());
  if (::linkat(AT_FDCWD, by_fd.c_str(), AT_FDCWD, to.c_str(), AT_SYMLINK_FOLLOW) == 0) return {};
  std::string bytes(from.size(), '\0');
  if (auto r = from.read_at(0, {reinterpret_cast<std::byte*>(bytes.data()), bytes.size()}); !r) return r.error();
  return write_file_atomic(to, bytes, overwrite);
}

tensor::Tensor widen_to_float32(const tensor::Tensor& t) {
  tensor::Tensor out;
  out.dtype = DType::float32;
  out.shape = t.shape;
  out.requires_grad = t.requires_grad;
  const std::size_t n = t.data.size() / itemsize(t.dtype);
  out.data.resize(n * sizeof(float));
  for (std::size_t i = 0; i < n; ++i) {
    float f = 0.0f;
    if (t.dtype == DType::bfloat16) {
      std::uint16_t b;
      std::memcpy(&b, t.data.data() + 2 * i, 2);
      f = stats::bfloat16_to_float(b);
    } else {
      const auto b = static_cast<std::uint8_t>(t.data[i]);
      f = t.dtype == DType::float8_e4m3fn ? stats::float8_e4m3fn_to_float(b) : stats::float8_e5m2_to_float(b);
    }
    std::memcpy(out.data.data() + 4 * i, &f, 4);
  }
  return out;
}

// Where convert_tensor puts the leaf it makes, member by member: a new Value, or straight
// into a JsonWriter (the same bytes as writing that Value).
class ValueLeaf {
 public:
  explicit ValueLeaf(std::size_t members) { m_v.as_object().reserve(members); }
  void member(std::string_view key, const Value& v) { m_v.add(std::string(key), v); }
  void scalar(std::string_view key, const Scalar& s) { m_v.add(std::string(key), Value::from_scalar(s)); }
  void null(std::string_view key) { m_v.add(std::string(key), Value::null()); }
  void string(std::string_view key, const std::string& s) { m_v.add(std::string(key), Value::string(s)); }
  Value take() { return std::move(m_v); }

 private:
  Value m_v = Value::object();
};

class WrittenLeaf {
 public:
  explicit WrittenLeaf(pyjson::JsonWriter& w) : m_w(w) { m_w.begin_object(); }
  void member(std::string_view key, const Value& v) {
    m_w.key(key);
    m_w.write(v);
  }
  void scalar(std::string_view key, const Scalar& s) {
    m_w.key(key);
    m_w.value(s);
  }
  void null(std::string_view key) {
    m_w.key(key);
    m_w.null();
  }
  void string(std::string_view key, const std::string& s) {
    m_w.key(key);
    m_w.value(std::string_view(s));
  }
  void end() { m_w.end_object(); }

 private:
  pyjson::JsonWriter& m_w;
};

}  // namespace

std::string LeafConverter::pointer(const Where& where) const {
  return dump::leaf_pointer("", where.section, where.path);
}

// Messages that start with a pointer ("/source/file: ...") continue the leaf's pointer.
static std::string join_pointer(const std::string& base, const std::string& message) {
  return message.starts_with("/") ? base + message : base + ": " + message;
}

void LeafConverter::problem(Where& where, const std::string& message) {
  where.problems.push_back(
      Problem{Problem::Severity::error, m_ctx.input_file, where.line, where.entry, join_pointer(pointer(where), message)});
}

Error LeafConverter::fatal(const Where& where, const std::string& message) const {
  return invalid_input(join_pointer(pointer(where), message));
}

Result<void> LeafConverter::convert_section(const std::string& entry, const std::string& section,
                                            bool is_parameters_grad, Value& value, std::uint64_t line,
                                            std::vector<Problem>& problems) {
  std::vector<std::string> path;
  Where where{entry, section, is_parameters_grad, path, line, problems};
  return walk(value, path, where);
}

Result<void> LeafConverter::write_leaf(const std::string& entry, const std::string& section, bool is_parameters_grad,
                                       const std::vector<std::string>& path, const Value& leaf, bool ndarray,
                                       std::uint64_t line, std::vector<Problem>& problems, pyjson::JsonWriter& w) {
  Where where{entry, section, is_parameters_grad, path, line, problems};
  MSDUMP_TRY(convert_tensor(leaf, where, ndarray, m_converted));
  WrittenLeaf out(w);
  if (auto r = make_leaf(leaf, where, ndarray, m_converted, out); !r) return r;
  out.end();
  return {};
}

Result<void> LeafConverter::walk(Value& v, std::vector<std::string>& path, Where& where) {
  return dump::walk_leaves(v, path, [&](Value& leaf, dump::LeafKind kind, const std::vector<std::string>&) -> Result<void> {
    if (kind == dump::LeafKind::value) return {};
    const bool ndarray = kind == dump::LeafKind::ndarray;
    MSDUMP_TRY(convert_tensor(leaf, where, ndarray, m_converted));
    ValueLeaf out(leaf.size() + 6);
    if (auto r = make_leaf(leaf, where, ndarray, m_converted, out); !r) return r;
    leaf = out.take();
    return {};
  });
}

Result<void> LeafConverter::convert_tensor(const Value& leaf, Where& where, bool ndarray, Converted& c) {
  const bool pytorch = m_ctx.framework == Framework::pytorch;
  c.dtype_v = leaf.find("dtype");
  c.shape_v = leaf.find("shape");
  c.rg = nullptr;
  c.st.reset();
  c.has_src = false;
  c.file = nullptr;
  c.keep_input_stats = false;

  // 1. What the leaf says.
  if (c.dtype_v == nullptr || !c.dtype_v->is_string()) return fatal(where, "/dtype: expected a dtype string");
  const std::optional<DType> dtype = dtype_from_any_name(c.dtype_v->as_string());
  if (!shape_from_value(c.shape_v, c.shape)) return fatal(where, "/shape: expected a list of non-negative integers");
  if (!dtype && !ndarray) return fatal(where, fmt::format("/dtype: unknown dtype \"{}\"", c.dtype_v->as_string()));
  c.rg = leaf.find("requires_grad");
  if (pytorch && !ndarray && (c.rg == nullptr || !c.rg->is_bool()))
    return fatal(where, "/requires_grad: expected a boolean (PyTorch tensor leaves carry requires_grad)");

  // 2. Its bytes and statistics. A numpy.ndarray leaf of a capture may carry numpy's
  // statistics instead of bytes (docs/trace-format.md "Values"): they are kept.
  if (!dtype) return {};
  if (ndarray && m_ctx.input_kind == InputKind::capture && leaf.find("source") == nullptr) {
    c.keep_input_stats = true;
    return {};
  }
  auto located = locate_tensor_source(leaf, m_ctx.input_kind, m_ctx.source_dir, c.src);
  if (!located) return fatal(where, located.error().message);
  if (!*located) {
    // No bytes: a meta/fake tensor in a capture, or an msprobe leaf without a file: empty
    // tensors (whose statistics are known from the shape) or a statistics dump's leaf.
    if (tensor::checked_numel(c.shape).value_or(1) == 0)
      c.st = stats::compute_leaf_stats(tensor::TensorView{*dtype, c.shape, {}}, stats_options(*dtype));
    else c.keep_input_stats = m_ctx.input_kind == InputKind::msprobe_dump;
    return {};
  }
  auto opened = m_sources.open(c.src, *dtype, c.shape);
  if (!opened) return fatal(where, opened.error().message);
  if (opened->problem) {
    problem(where, opened->problem->message);
    return {};
  }
  const auto& info = c.src.info;
  auto computed = ndarray ? compute_ndarray_stats(*opened->source, info)
                          : stats::compute_leaf_stats(*opened->elements, info, stats_options(*dtype), &m_buffer);
  if (!computed) {
    problem(where, computed.error().message);
    return {};
  }
  c.st = std::move(*computed);
  c.has_src = true;
  c.file = opened->source;
  ++m_tensors;
  m_bytes_read += info.nbytes();
  return {};
}

template <typename Out>
Result<void> LeafConverter::make_leaf(const Value& leaf, Where& where, bool ndarray, const Converted& c, Out& out) {
  const bool pytorch = m_ctx.framework == Framework::pytorch;
  const auto& st = c.st;
  // 3. The leaf msprobe would write, keys in its order (docs/format.md §5.1, §5.2).
  auto copy_key = [&](std::string_view k) {
    if (const Value* v = leaf.find(k)) out.member(k, *v);
  };
  auto checksum = [&]() {
    if (c.keep_input_stats) copy_key("md5");
    else if (st && st->md5) out.scalar("md5", *st->md5);
    else out.null("md5");
  };
  copy_key("type");
  out.member("dtype", *c.dtype_v);
  out.member("shape", *c.shape_v);
  const bool xor_mode = m_ctx.summary_mode == SummaryMode::xor_checksum && !ndarray;
  if (xor_mode) {
    checksum();
  } else {
    for (auto key : dump::k_stat_keys) {
      if (c.keep_input_stats) {
        const Value* v = leaf.find(key);
        if (v != nullptr) out.member(key, *v);
        else out.null(key);
      } else if (st) {
        const Scalar& s = key == "Max" ? st->max : key == "Min" ? st->min : key == "Mean" ? st->mean : st->norm;
        out.scalar(key, s);
      } else {
        out.null(key);
      }
    }
  }
  if (!pytorch) {
    // MindSpore: layout / hsdp_shard_size right after Norm when truthy; an empty layout last.
    const Value* layout = leaf.find("layout");
    const bool empty_layout = layout != nullptr && layout->is_object() && layout->size() == 0;
    if (layout != nullptr && !empty_layout) out.member("layout", *layout);
    copy_key("hsdp_shard_size");
    if (empty_layout) out.member("layout", *layout);
  }
  if (pytorch && !ndarray) {
    out.member("requires_grad", *c.rg);
    for (auto k : k_pytorch_extras) copy_key(k);
  }
  for (const auto& m : leaf.as_object())
    if (!is_computed_key(m.key) && !is_extra_key(m.key)) out.member(m.key, m.value);

  // 4. task tensor: the file and its data_name. PyTorch saves nothing for empty tensors (their
  // storage pointer is 0); MindSpore's np.save path saves them too.
  if (m_ctx.task == Task::tensor && c.has_src && st && (c.src.info.numel() > 0 || !pytorch)) {
    const std::string data_name = dump::make_data_name(where.entry, where.section, where.path,
                                                       where.is_parameters_grad, m_ctx.framework);
    if (!dump::is_plain_file_name(data_name))
      return fatal(where, fmt::format("data_name \"{}\" would leave dump_tensor_data/", data_name));
    auto written = write_tensor_file(c.src, *c.file, m_ctx.tensor_out + "/" + data_name);
    if (!written) {
      problem(where, written.error().message);
    } else {
      ++m_tensor_files;
      out.string("data_name", data_name);
    }
  }
  if (m_ctx.summary_mode == SummaryMode::md5 && !ndarray) checksum();
  return {};
}

}  // namespace msdump::convert

namespace msdump::convert {

stats::StatsOptions LeafConverter::stats_options(DType reported) const {
  stats::StatsOptions o;
  o.framework = m_ctx.framework;
  o.profile = m_ctx.profile;
  o.summary_mode = m_ctx.summary_mode;
  o.precision = m_ctx.precision;
  o.reported_dtype = reported;
  o.threads = m_ctx.threads;
  return o;
}

Result<void> LeafConverter::write_tensor_file(const TensorSource& src, const FileSource& file,
                                             const std::string& dest) {
  const bool pytorch = m_ctx.framework == Framework::pytorch;
  const auto want = pytorch ? tensor::TensorFormat::pt : tensor::TensorFormat::npy;
  // msprobe's np.save path stores bfloat16 and float8 as float32 (docs/tensor-formats.md §3.3).
  const DType stored = src.info.dtype;
  const bool widen = !pytorch && (stored == DType::bfloat16 || stored == DType::float8_e4m3fn ||
                                  stored == DType::float8_e5m2);
  if (src.info.format == want && !widen) return link_or_copy(file, dest, m_ctx.overwrite);

  auto t = tensor::load_tensor(file, src.info);
  if (!t) return t.error();
  if (widen) *t = widen_to_float32(*t);
  auto bytes = pytorch ? tensor::write_pt(t->view(), tensor::pt_archive_name(dest), false) : tensor::write_npy(t->view());
  if (!bytes) return bytes.error().with_context(dest);
  return write_file_atomic(dest, *bytes, m_ctx.overwrite);
}

}  // namespace msdump::convert
