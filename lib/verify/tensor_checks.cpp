#include "verify/tensor_checks.h"

#include <algorithm>
#include <filesystem>
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

}  // namespace

TensorChecker::TensorChecker(std::string dir, std::string base, Framework framework, std::optional<Profile> profile,
                             stats::ToleranceOptions tolerance, int threads)
    : m_dir(std::move(dir)), m_base(std::move(base)), m_framework(framework), m_profile(profile),
      m_tolerance(tolerance), m_threads(threads) {
  const auto rel = fs::path(m_dir).lexically_relative(m_base).string();
  if (rel != ".") m_prefix = rel + "/";  // empty (relative_path fails): the names are refused as absolute
}

bool TensorChecker::check(const Value& leaf, const std::string& entry, const std::string& pointer, FindingSink& sink) {
  const Value* dn = leaf.find("data_name");
  if (dn == nullptr || !dn->is_string()) return false;
  const std::string& name = dn->as_string();
  if (!dump::is_plain_file_name(name)) {
    sink.add(FindingKind::file, entry, pointer + "/data_name",
             fmt::format("data_name \"{}\" is not a file name inside {}", name, m_dir), "a plain file name", name);
    return false;
  }
  m_referenced.insert(name);
  const std::string path = m_dir + "/" + name;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) {
    sink.add(FindingKind::missing, entry, pointer + "/data_name", fmt::format("tensor file '{}' does not exist", path),
             name, "");
    return false;
  }
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
  bool consistent = true;
  if (leaf_dtype && info->dtype != *leaf_dtype &&
      !(info->dtype == DType::float32 && m_framework != Framework::pytorch &&
        (*leaf_dtype == DType::bfloat16 || *leaf_dtype == DType::float8_e4m3fn || *leaf_dtype == DType::float8_e5m2))) {
    const auto& file_dt = dtype_info(info->dtype);
    const std::string spelled(m_framework == Framework::pytorch ? file_dt.torch_name : file_dt.mindspore_name);
    sink.add(FindingKind::dtype, entry, pointer + "/dtype", fmt::format("the tensor file holds {}", spelled), spelled,
             dtype_v->as_string());
    consistent = false;
  }
  std::string file_shape = tensor::format_shape(info->shape);
  if (const Value* shape = leaf.find("shape")) {
    std::string leaf_shape = "[";
    if (shape->is_array())
      for (std::size_t i = 0; i < shape->size(); ++i)
        leaf_shape += (i ? "," : "") + json_text(&shape->as_array()[i]);
    leaf_shape += "]";
    if (leaf_shape != file_shape) {
      sink.add(FindingKind::shape, entry, pointer + "/shape", "the tensor file has another shape", file_shape, leaf_shape);
      consistent = false;
    }
  }
  if (!consistent || !leaf_dtype) return true;

  stats::StatsOptions so;
  so.framework = m_framework;
  so.profile = m_profile ? *m_profile
                         : (dump::leaf_signals(leaf, m_framework) & dump::k_legacy_signals ? Profile::legacy
                                                                                           : Profile::current);
  so.summary_mode = dump::summary_mode_of_leaf(leaf).value_or(SummaryMode::statistics);
  so.reported_dtype = *leaf_dtype;
  so.threads = m_threads;
  stats::Moments moments;
  auto st = stats::compute_leaf_stats(**src, *info, so, &m_buffer, &moments);
  if (!st) {
    sink.add(FindingKind::file, entry, pointer + "/data_name", st.error().message);
    return false;
  }
  // A 0-dim tensor's statistics are its value in its own dtype: the casts of docs/format.md
  // §6.2 come after that rule (complex values still give |z|).
  const bool complex_leaf = dtype_info(*leaf_dtype).kind == DTypeKind::complex;
  const DType stat_dtype =
      info->shape.empty() && !complex_leaf ? *leaf_dtype : stats::statistic_dtype(*leaf_dtype, so);
  auto extreme = [&](const char* key, const Scalar& expected) {
    const Value* v = leaf.find(key);
    if (v == nullptr) return;
    auto recorded = v->to_scalar();
    const bool complex = dtype_info(*leaf_dtype).kind == DTypeKind::complex;
    bool ok = recorded && stats::same_extreme(*recorded, expected);
    if (!ok && recorded && complex && recorded->kind == Scalar::Kind::floating && expected.kind == Scalar::Kind::floating)
      ok = stats::check_complex_extreme(recorded->d, expected.d, stat_dtype).agreement != stats::Agreement::fail;
    if (!ok)
      sink.add(FindingKind::statistic, entry, pointer + "/" + key,
               fmt::format("{} differs from the tensor file's", key), scalar_text(expected), json_text(v));
  };
  auto moment = [&](const char* key, stats::StatKind kind, const Scalar& expected) {
    const Value* v = leaf.find(key);
    if (v == nullptr) return;
    if (expected.is_null() || v->is_null()) {
      if (expected.is_null() != v->is_null())
        sink.add(FindingKind::statistic, entry, pointer + "/" + key,
                 fmt::format("{} differs from the tensor file's", key), scalar_text(expected), json_text(v));
      return;
    }
    auto recorded = number_of(v);
    if (!recorded || expected.kind != Scalar::Kind::floating) {
      auto r = v->to_scalar();
      if (!r || !r->identical(expected))
        sink.add(FindingKind::statistic, entry, pointer + "/" + key,
                 fmt::format("{} differs from the tensor file's", key), scalar_text(expected), json_text(v));
      return;
    }
    const auto c = stats::check_statistic(kind, *recorded, expected.d, stat_dtype, moments, m_tolerance);
    if (c.agreement == stats::Agreement::pass) return;
    Finding f;
    f.severity = c.agreement == stats::Agreement::warn ? Severity::warning : Severity::error;
    f.kind = FindingKind::statistic;
    f.entry = entry;
    f.pointer = pointer + "/" + key;
    f.expected = scalar_text(expected);
    f.actual = json_text(v);
    f.message = fmt::format("{} differs from the tensor file's beyond tolerance: {}", key, c.reason);
    sink.add(std::move(f));
  };
  if (st->has_value_stats && leaf.find("Max") != nullptr) {
    extreme("Max", st->max);
    extreme("Min", st->min);
    moment("Mean", stats::StatKind::mean, st->mean);
    moment("Norm", stats::StatKind::norm, st->norm);
  }
  if (const Value* md5 = leaf.find("md5"); md5 != nullptr && st->md5) {
    auto recorded = md5->to_scalar();
    if (!recorded || !recorded->identical(*st->md5))
      sink.add(FindingKind::checksum, entry, pointer + "/md5", "md5 differs from the tensor file's checksum",
               scalar_text(*st->md5), json_text(md5));
  }
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
