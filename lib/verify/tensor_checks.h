#pragma once
// Checks of tensor leaves against their files in dump_tensor_data/ (or --tensors DIR): the
// file named by data_name exists and is a regular file, opened beneath the bounding directory
// without following any link inside it (core/beneath.h), its dtype and shape agree with the leaf, its
// recomputed statistics agree within docs/tensor-formats.md §4.6 and docs/format.md §6.7
// tolerances (PASS, WARN band for CPU-produced dumps as warnings, FAIL as errors), its checksum
// agrees exactly; and, at the end, no file of the directory went unreferenced.

#include <optional>
#include <set>
#include <string>

#include "core/profile.h"
#include "pyjson/json_value.h"
#include "stats/leaf_stats.h"
#include "stats/tolerance.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

class TensorChecker {
 public:
  // `dir` holds the files; they are opened beneath `base` (the dump's directory, or the
  // --tensors directory itself), no link from `base` down to them followed. `profile` nullopt (auto): each leaf's statistics are
  // recomputed by the rules of the profile its own form points to (dump/format_signals.h). The
  // checksum is recomputed the way the leaf's own keys say it was written (summary_mode_of_leaf).
  TensorChecker(std::string dir, std::string base, Framework framework, std::optional<Profile> profile,
                stats::ToleranceOptions tolerance, int threads);

  // Checks the leaf at `pointer` (it has a "data_name"). Returns true when its file was read.
  bool check(const pyjson::Value& leaf, const std::string& entry, const std::string& pointer, FindingSink& sink);
  // Reports files of the directory that no data_name referenced.
  void report_unreferenced(FindingSink& sink) const;

 private:
  std::string m_dir;
  std::string m_base;
  std::string m_prefix;  // m_dir relative to m_base, with a trailing '/' ("" when the same)
  Framework m_framework;
  std::optional<Profile> m_profile;
  stats::ToleranceOptions m_tolerance;
  int m_threads;
  std::set<std::string> m_referenced;
  stats::ReadBuffer m_buffer;
};

}  // namespace msdump::verify
