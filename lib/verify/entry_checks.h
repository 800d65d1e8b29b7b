#pragma once
// Checks of one dump.json entry that need no files: its name against the grammar, level and
// framework; duplicate keys; every tensor leaf's rules (leaf_rules.h) and data_name; and the
// in-place checksum race (two leaves of one entry with the same md5 but different statistics:
// msprobe hashes in-place ops' tensors on a background thread, testdata/msprobe/README.md; a
// warning, since msprobe itself writes it).

#include <cstdint>
#include <string>

#include "core/profile.h"
#include "dump/entry_name.h"
#include "pyjson/json_value.h"
#include "verify/finding_sink.h"
#include "verify/leaf_rules.h"

namespace msdump::verify {

struct EntryContext {
  LeafRules rules;
  Level level = Level::mix;
  bool level_known = false;    // the header's level was valid
  std::string task;            // the header's task ("" if invalid)
  bool has_dump_data_dir = false;  // dump_data_dir is a string (tensor files are expected)
};

// `pointer` is the entry's JSON Pointer ("/data/<escaped name>"). Also checks the order of the
// entry's sections (docs/format.md §4.2) and of every tensor leaf's keys (§5.1, §5.2), and that
// data_name appears exactly where tensor files are expected (task tensor: every non-empty tensor).
void check_entry(const std::string& name, const pyjson::Value& entry, const EntryContext& ctx,
                 const std::string& pointer, FindingSink& sink);
// What check_entry counts and notices on its way, for the whole-file checks.
struct EntryTally {
  std::uint64_t leaves = 0;    // tensor and ndarray leaves
  std::uint32_t signals = 0;   // format profile signals of the entry and its leaves (dump/format_signals.h)
};

// The same, also adding to *tally (if not null) the entry's tensor and ndarray leaves and its
// profile signals.
// `no_duplicate_keys`: the caller has established that has_duplicate_keys_anywhere(entry) is
// false, so the duplicate-key walk (which would report nothing) is skipped.
void check_entry(const std::string& name, const pyjson::Value& entry, const EntryContext& ctx,
                 const std::string& pointer, FindingSink& sink, EntryTally* tally,
                 bool no_duplicate_keys = false);

// The checks of the entry's name alone, the first of check_entry's: msprobe's grammar, debug
// entries, the level, Module/Cell for the framework.
void check_entry_name(const std::string& name, const dump::EntryName& parsed, const EntryContext& ctx,
                      const std::string& pointer, FindingSink& sink);

// Reports every object in `v` (recursively) that has the same key twice.
void check_duplicate_keys(const pyjson::Value& v, const std::string& entry, const std::string& pointer,
                          FindingSink& sink);

}  // namespace msdump::verify
