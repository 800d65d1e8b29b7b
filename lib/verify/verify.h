#pragma once
// verify: checks one dump (dump.json [+ stack.json, construct.json, dump_tensor_data/]) and
// reports every finding.
//
//   VerifyOptions -> Result<VerifyReport>
//
// The Result fails only when the dump cannot be looked at at all (the path does not exist, is
// not a file); everything wrong inside the dump, including invalid JSON, is a Finding.
// Checks, in one streaming pass over dump.json (memory bounded by the largest entry, plus the
// set of entry names):
//   schema      the embedded JSON Schema for the dump's framework and profile, entry by entry;
//   profile     the format generation (docs/format.md §16): given with --profile, or
//               (auto) decided from signals gathered over the whole file in the same pass;
//               leaves whose rules depend on it are held to the profile of their own form, and
//               a file mixing the forms of two generations is a finding;
//   semantics   names vs level and framework, data_name vs entry and position, statistics vs
//               dtype and shape, duplicate keys, in-place checksum races;
//   tensors     with dump_tensor_data/ (or --tensors): every data_name exists, dtype and shape
//               agree, recomputed statistics and checksums agree, no unreferenced files;
//   cross-file  stack.json and construct.json against dump.json;
//   golden      with --against (or --capture, converted first as the dump was written,
//               capture_golden.h): missing / extra entries
//               (backward entries renumbered as msprobe's compare does), dtype, shape,
//               statistics beyond tolerance, changed values.

#include <cstdint>
#include <map>
#include <optional>
#include <deque>
#include <string>
#include <vector>

#include "core/profile.h"
#include "core/result.h"
#include "stats/tolerance.h"
#include "verify/finding.h"

namespace msdump::verify {

struct VerifyOptions {
  std::string path;                    // dump.json, or the directory holding it
  std::optional<std::string> against;  // golden dump.json or directory
  std::optional<std::string> capture;  // capture directory, converted like the dump and used as the golden
  std::optional<std::string> tensors;  // tensor directory (default: dump_tensor_data/ beside dump.json)
  std::optional<Profile> profile;      // --profile; nullopt: auto (from the file's own signals)
  bool check_tensors = true;           // recompute statistics from tensor files when present
  stats::ToleranceOptions tolerance;   // --rtol / --atol / --ulps overrides
  std::vector<FindingKind> warn_only;  // kinds downgraded from error to warning
  std::size_t max_findings = 0;        // 0: keep all
  bool keep_entry_names = false;       // fill VerifyReport::entry_names (cross-rank checks)
  int threads = 1;  // also threads for the entries (at least 2: a reader and the caller)
  // Entries parsed and checked on several threads (dump/entry_workers.h) when nothing is compared
  // with them (no golden, no tensor files); off: one entry at a time (same findings).
  bool parallel_entries = true;
};

struct VerifySummary {
  std::string file;                    // the dump.json verified
  Framework framework = Framework::pytorch;
  // As given, or as the file's signals say; nullopt: undetermined (no entry carries a form of
  // one profile only, so every check came out the same for both).
  std::optional<Profile> profile;
  std::string task;
  std::string level;
  std::uint64_t entries = 0;
  std::uint64_t leaves = 0;            // tensor leaves seen
  std::uint64_t tensors_checked = 0;   // tensor files read and recomputed
  std::uint64_t bytes = 0;             // size of dump.json
  std::uint64_t errors = 0;
  std::uint64_t warnings = 0;
  std::uint64_t dropped = 0;           // findings beyond max_findings (counted, not kept)
  std::map<std::string, std::uint64_t> by_kind;
  double seconds = 0.0;
};

struct VerifyReport {
  std::vector<Finding> findings;
  VerifySummary summary;
  std::deque<std::string> entry_names;  // in file order, with VerifyOptions::keep_entry_names
  bool clean() const { return summary.errors == 0; }
};

Result<VerifyReport> verify_dump(const VerifyOptions& options);

}  // namespace msdump::verify
