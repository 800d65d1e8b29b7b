#include "batch/run_identity.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

namespace msdump::batch {
namespace {

// FNV-1a, 64 bits: enough to tell two work lists apart by accident (not a security check).
struct Fnv1a64 {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  void add(std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  }
};

// "a/./b/" and "a/b" name the same input.
std::string normalized_key(const std::string& key) {
  std::string k = std::filesystem::path(key).lexically_normal().string();
  while (k.size() > 1 && k.back() == '/') k.pop_back();
  return k;
}

// Flags are joined with spaces; a value that holds a space or a quote is single-quoted.
class Flags {
 public:
  void add(std::string_view name) { m_text += m_text.empty() ? std::string(name) : " " + std::string(name); }
  void add(std::string_view name, std::string_view value) {
    add(name);
    value_of_last(value);
  }
  void value_of_last(std::string_view value) {
    const bool plain = !value.empty() && value.find_first_of(" \t\n'\"\\") == std::string_view::npos;
    m_text += ' ';
    if (plain) {
      m_text += value;
      return;
    }
    m_text += '\'';
    for (char c : value) m_text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    m_text += '\'';
  }
  std::string take() { return std::move(m_text); }

 private:
  std::string m_text;
};

}  // namespace

RunIdentity identify_run(const std::vector<WorkItem>& whole, std::string options) {
  Fnv1a64 hash;
  for (const auto& item : whole) {
    hash.add(normalized_key(item.key));
    hash.add(std::string_view("\0", 1));  // a file name never holds NUL
  }
  return {whole.size(), fmt::format("fnv1a64:{:016x}", hash.h), std::move(options)};
}

std::string result_options(const verify::VerifyOptions& o, bool cross_rank) {
  Flags f;
  if (o.against) f.add("--against", *o.against);
  if (o.capture) f.add("--capture", *o.capture);
  if (o.tensors) f.add("--tensors", *o.tensors);
  if (!o.check_tensors) f.add("--no-tensors");
  if (!cross_rank) f.add("--no-cross-rank");
  if (o.tolerance.rtol) f.add("--rtol", fmt::format("{}", *o.tolerance.rtol));
  if (o.tolerance.atol_mean_abs) f.add("--atol", fmt::format("{}", *o.tolerance.atol_mean_abs));
  if (o.tolerance.ulps) f.add("--ulps", fmt::format("{}", *o.tolerance.ulps));
  std::vector<std::string_view> warn_only;
  for (auto k : o.warn_only) warn_only.push_back(verify::to_string(k));
  std::sort(warn_only.begin(), warn_only.end());
  warn_only.erase(std::unique(warn_only.begin(), warn_only.end()), warn_only.end());
  for (auto k : warn_only) f.add("--warn-only", k);
  if (o.max_findings != 0) f.add("--max-findings", std::to_string(o.max_findings));
  return f.take();
}

std::string result_options(const convert::ConvertOptions& o) {
  Flags f;
  f.add("-o", o.output);
  if (o.level) f.add("--level", to_string(*o.level));
  if (o.task) f.add("--task", to_string(*o.task));
  if (o.summary_mode) f.add("--summary-mode", to_string(*o.summary_mode));
  for (const auto& m : o.data_mode) f.add("--data-mode", m);
  if (o.profile) f.add("--profile", to_string(*o.profile));
  if (o.precision != Precision::low) f.add("--precision", to_string(o.precision));
  for (const auto& l : o.list) f.add("--list", l);
  if (!o.scope.empty()) {
    f.add("--scope");
    for (const auto& s : o.scope) f.value_of_last(s);
  }
  if (o.dump_path) f.add("--dump-path", *o.dump_path);
  if (o.strict) f.add("--strict");
  return f.take();
}

}  // namespace msdump::batch
