#pragma once
// verify's checks of one entry as a dump::EntryWorkers visitor: each worker thread validates
// the entry against the schema (SchemaCheck::check) and runs the entry checks (check_entry) into
// findings of its own, in the order the one-entry-at-a-time pass runs them (verify.cpp), so the
// caller, merging the entries in file order, reports what that pass reports. An entry of a shape
// that thread has already checked clean is settled from its text, with the same findings
// (checked_shapes.h, EntryVisitor::visit_text).

#include <cstdint>
#include <string>
#include <vector>

#include "core/profile.h"
#include "dump/entry_workers.h"
#include "verify/entry_checks.h"
#include "verify/finding.h"

namespace msdump::verify {

// One entry, checked.
struct CheckedEntry {
  std::string name;
  std::uint32_t name_hash = 0;     // DumpNames::hash_of(name)
  std::uint64_t line = 0;          // of its key
  std::vector<Finding> findings;   // schema findings, then the entry checks', in order
  std::uint64_t leaves = 0;        // tensor and ndarray leaves
  std::uint32_t signals = 0;       // format profile signals (dump/format_signals.h)
  bool has_input_args = false;
};

// The visitors of EntryWorkers::start_visiting: entries checked under `ctx` with the schema of
// `framework` and `schema_profile` (schema_choice.h); `file` and `warn_only` as FindingSink's.
// A schema that cannot be made gives up the parallel pass (the other one reports it).
dump::VisitorFactory entry_checkers(const EntryContext& ctx, Framework framework, Profile schema_profile,
                                    std::vector<FindingKind> warn_only, std::string file);

}  // namespace msdump::verify
