#include "verify/tensor_checks.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <fmt/format.h>

#include "core/beneath.h"
#include "dump/data_name.h"
#include "dump/format_signals.h"
#include "pyjson/pyfloat.h"
#include "tensor/tensor_reader.h"
#include "verify/leaf_rules.h"

namespace msdump::verify {
namespace {

namespace fs = std::filesystem;
using pyjson::Value;

std::string scalar_text(const Scalar& s) {
  const Value v = Value::from_scalar(s);
  return json_text(&v);
}

// Where the findings about one leaf go: its entry and JSON Pointer.
struct LeafSite {
  const std::string& entry;
  const std::string& pointer;
  FindingSink& sink;

  void add(FindingKind kind, const std::string& key, std::string message, std::string expected = {},
           std::string actual = {}) const {
    sink.add(kind, entry, pointer + "/" + key, std::move(message), std::move(expected), std::move(actual));
  }
};

// data_name is a plain file name (no directory part), so the file is looked for inside `dir`.
bool is_plain_name(const std::string& name, const std::string& dir, const LeafSite& site) {
  if (dump::is_plain_file_name(name)) return true;
  site.add(FindingKind::file, "data_name", fmt::format("data_name \"{}\" is not a file name inside {}", name, dir),
           "a plain file name", name);
  return false;
}

// The file exists (a dangling link counts as existing: opening it reports why it cannot be read).
bool file_exists(const std::string& path, const std::string& name, const LeafSite& site) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path, ec))) return true;
  site.add(FindingKind::missing, "data_name", fmt::format("tensor file '{}' does not exist", path), name, "");
  return false;
}

// The leaf's dtype agrees with the file's. Outside PyTorch a bfloat16 or float8 tensor is saved
// as float32 (MindSpore's save_tensor_as_npy, docs/tensor-formats.md), so those pairs agree.
bool dtype_agrees(const Value& dtype_v, DType leaf_dtype, DType file_dtype, Framework framework, const LeafSite& site) {
  if (file_dtype == leaf_dtype) return true;
  if (file_dtype == DType::float32 && framework != Framework::pytorch &&
      (leaf_dtype == DType::bfloat16 || leaf_dtype == DType::float8_e4m3fn || leaf_dtype == DType::float8_e5m2))
    return true;
  const auto& file_dt = dtype_info(file_dtype);
  const std::string spelled(framework == Framework::pytorch ? file_dt.torch_name : file_dt.mindspore_name);
  site.add(FindingKind::dtype, "dtype", fmt::format("the tensor file holds {}", spelled), spelled, dtype_v.as_string());
  return false;
}

// The leaf's "shape" (when it has one) agrees with the file's.
bool shape_agrees(const Value& leaf, std::span<const std::int64_t> file_dims, const LeafSite& site) {
  const Value* shape = leaf.find("shape");
  if (shape == nullptr) return true;
  std::string leaf_shape = "[";
  if (shape->is_array())
    for (std::size_t i = 0; i < shape->size(); ++i) leaf_shape += (i ? "," : "") + json_text(&shape->as_array()[i]);
  leaf_shape += "]";
  const std::string file_shape = tensor::format_shape(file_dims);
  if (leaf_shape == file_shape) return true;
  site.add(FindingKind::shape, "shape", "the tensor file has another shape", file_shape, leaf_shape);
  return false;
}

// How the leaf's statistics were computed: the given profile, else the one its own form points
// to; the summary mode its keys say.
stats::StatsOptions stats_options_for(const Value& leaf, DType leaf_dtype, Framework framework,
                                      std::optional<Profile> profile, int threads) {
  stats::StatsOptions so;
  so.framework = framework;
  so.profile = profile ? *profile
                       : (dump::leaf_signals(leaf, framework) & dump::k_legacy_signals ? Profile::legacy
                                                                                      : Profile::current);
  so.summary_mode = dump::summary_mode_of_leaf(leaf).value_or(SummaryMode::statistics);
  so.reported_dtype = leaf_dtype;
  so.threads = threads;
  return so;
}

// The leaf's recorded statistics against those recomputed from its file.
struct StatComparison {
  const Value& leaf;
  DType leaf_dtype;
  DType stat_dtype;  // the dtype the statistics are computed in (docs/format.md §6.2)
  const stats::Moments& moments;
  const stats::ToleranceOptions& tolerance;
  const LeafSite& site;

  void report_differs(const char* key, const Scalar& expected, const Value& recorded) const {
    site.add(FindingKind::statistic, key, fmt::format("{} differs from the tensor file's", key), scalar_text(expected),
             json_text(&recorded));
  }

  // Max / Min: the same value (complex: |z| within the complex extreme's tolerance).
  void extreme(const char* key, const Scalar& expected) const {
    const Value* v = leaf.find(key);
    if (v == nullptr) return;
    auto recorded = v->to_scalar();
    const bool complex = dtype_info(leaf_dtype).kind == DTypeKind::complex;
    bool ok = recorded && stats::same_extreme(*recorded, expected);
    if (!ok && recorded && complex && recorded->kind == Scalar::Kind::floating && expected.kind == Scalar::Kind::floating)
      ok = stats::check_complex_extreme(recorded->d, expected.d, stat_dtype).agreement != stats::Agreement::fail;
    if (!ok) report_differs(key, expected, *v);
  }

  // Mean / Norm: null where the file's is null; an integer identical; a float within the
  // tolerance (the WARN band is a warning, FAIL an error).
  void moment(const char* key, stats::StatKind kind, const Scalar& expected) const {
    const Value* v = leaf.find(key);
    if (v == nullptr) return;
    if (expected.is_null() || v->is_null()) {
      if (expected.is_null() != v->is_null()) report_differs(key, expected, *v);
      return;
    }
    auto recorded = number_of(v);
    if (!recorded || expected.kind != Scalar::Kind::floating) {
      auto r = v->to_scalar();
      if (!r || !r->identical(expected)) report_differs(key, expected, *v);
      return;
    }
    const auto c = stats::check_statistic(kind, *recorded, expected.d, stat_dtype, moments, tolerance);
    if (c.agreement == stats::Agreement::pass) return;
    Finding f;
    f.severity = c.agreement == stats::Agreement::warn ? Severity::warning : Severity::error;
    f.kind = FindingKind::statistic;
    f.entry = site.entry;
    f.pointer = site.pointer + "/" + key;
    f.expected = scalar_text(expected);
    f.actual = json_text(v);
    f.message = fmt::format("{} differs from the tensor file's beyond tolerance: {}", key, c.reason);
    site.sink.add(std::move(f));
  }

  // md5 (when the leaf has one and it was recomputed): identical.
  void checksum(const std::optional<Scalar>& expected) const {
    const Value* md5 = leaf.find("md5");
    if (md5 == nullptr || !expected) return;
    auto recorded = md5->to_scalar();
    if (!recorded || !recorded->identical(*expected))
      site.add(FindingKind::checksum, "md5", "md5 differs from the tensor file's checksum", scalar_text(*expected),
               json_text(md5));
  }

  void all(const stats::LeafStats& st) const {
    if (st.has_value_stats && leaf.find("Max") != nullptr) {
      extreme("Max", st.max);
      extreme("Min", st.min);
      moment("Mean", stats::StatKind::mean, st.mean);
      moment("Norm", stats::StatKind::norm, st.norm);
    }
    checksum(st.md5);
  }
};

}  // namespace

TensorChecker::TensorChecker(std::string dir, std::string base, Framework framework, std::optional<Profile> profile,
                             stats::ToleranceOptions tolerance, int threads)
    : m_dir(std::move(dir)), m_base(std::move(base)), m_framework(framework), m_profile(profile),
      m_tolerance(tolerance), m_threads(threads) {
  const auto rel = fs::path(m_dir).lexically_relative(m_base).string();
  if (rel != ".") m_prefix = rel + "/";  // empty (relative_path fails): the names are refused as absolute
}

// The rules, in order: data_name is a plain file name; the file exists, opens inside the
// bounding directory and has a readable header; its dtype and shape agree with the leaf; then
// (leaf dtype known) its recomputed statistics and checksum agree with the recorded ones.
bool TensorChecker::check(const Value& leaf, const std::string& entry, const std::string& pointer, FindingSink& sink) {
  const Value* dn = leaf.find("data_name");
  if (dn == nullptr || !dn->is_string()) return false;
  const std::string& name = dn->as_string();
  const LeafSite site{entry, pointer, sink};
  if (!is_plain_name(name, m_dir, site)) return false;
  m_referenced.insert(name);
  const std::string path = m_dir + "/" + name;
  if (!file_exists(path, name, site)) return false;
  const Value* dtype_v = leaf.find("dtype");
  const auto leaf_dtype = dtype_v != nullptr && dtype_v->is_string() ? dtype_from_any_name(dtype_v->as_string())
                                                                      : std::nullopt;
  auto src = open_beneath(m_base, m_prefix + name);
  if (!src) {
    const bool refused = src.error().code == ErrorCode::invalid_input;
    sink.add(FindingKind::file, entry, pointer + "/data_name", src.error().message,
             refused ? fmt::format("a file inside {}, no link along its name", m_base) : "a readable regular file", name);
    return false;
  }
  auto info = tensor::read_tensor_info(**src, tensor::ReadOptions{leaf_dtype});
  if (!info) {
    sink.add(FindingKind::file, entry, pointer + "/data_name", info.error().message);
    return false;
  }
  const bool dtype_ok = !leaf_dtype || dtype_agrees(*dtype_v, *leaf_dtype, info->dtype, m_framework, site);
  const bool shape_ok = shape_agrees(leaf, info->shape, site);
  if (!dtype_ok || !shape_ok || !leaf_dtype) return true;

  const stats::StatsOptions so = stats_options_for(leaf, *leaf_dtype, m_framework, m_profile, m_threads);
  stats::Moments moments;
  auto st = stats::compute_leaf_stats(**src, *info, so, &m_buffer, &moments);
  if (!st) {
    site.add(FindingKind::file, "data_name", st.error().message);
    return false;
  }
  // A 0-dim tensor's statistics are its value in its own dtype: the casts of docs/format.md
  // §6.2 come after that rule (complex values still give |z|).
  const bool complex_leaf = dtype_info(*leaf_dtype).kind == DTypeKind::complex;
  const DType stat_dtype =
      info->shape.empty() && !complex_leaf ? *leaf_dtype : stats::statistic_dtype(*leaf_dtype, so);
  StatComparison{leaf, *leaf_dtype, stat_dtype, moments, m_tolerance, site}.all(*st);
  return true;
}

void TensorChecker::report_unreferenced(FindingSink& sink) const {
  std::error_code ec;
  std::vector<std::string> extra;
  for (const auto& e : fs::directory_iterator(m_dir, ec)) {
    const std::string n = e.path().filename().string();
    if (m_referenced.count(n) == 0) extra.push_back(n);
  }
  std::sort(extra.begin(), extra.end());
  for (const auto& n : extra)
    sink.add(FindingKind::extra, "", "", fmt::format("tensor file '{}/{}' is not referenced by any data_name", m_dir, n),
             "", n);
}

}  // namespace msdump::verify
