#pragma once
// One entry of convert's pass 2: its data events (trace.jsonl lines, in merge order) merged by
// msprobe's update_data rule (an existing key is overwritten where it stands, a new key is
// appended; is_recompute is kept aside), filtered by data_mode, given the legacy profile's
// is_recompute, every tensor leaf converted, and formatted into an EntryFormatter.
//
// Two ways to the same bytes, problems and errors:
// - parsed: each line through pyjson::parse_json and trace::parse_trace_event, the merged entry
//   as a pyjson::Value, LeafConverter::convert_section, EntryFormatter::write_entry;
// - plain: when trace::scan_data_line accepts every line (or trace::split_data_line splits a
//   line whose hash shows it unchanged since the index pass scanned it), the sections stay text; they are
//   merged by key and written by dump::SectionText, only the tensor leaves are read (by
//   pyjson::PlainReader) and converted and written by LeafConverter::write_leaf.
// write() takes the plain way when it can, the parsed way otherwise.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "convert/convert.h"
#include "convert/data_mode.h"
#include "convert/leaf_converter.h"
#include "core/profile.h"
#include "core/result.h"
#include "dump/section_text.h"
#include "pyjson/plain_reader.h"
#include "pyjson/json_value.h"
#include "trace/event_scan.h"

namespace msdump::dump { class EntryFormatter; }

namespace msdump::convert {

// What decides which sections of an entry are written and whether it gets is_recompute.
struct EntryRules {
  DataMode data_mode;
  Profile profile = Profile::current;
  Framework framework = Framework::pytorch;
  // Re-converting an msprobe dump of the same profile: a forward entry gets is_recompute only
  // if its input had it (8.x legacy dumps have none), instead of the profile's rule.
  bool mirror_is_recompute = false;
};

// Applies data_mode, is_recompute and the leaf conversion to one merged entry. Returns false
// when nothing of the entry survives; fails on a malformed leaf (the error names
// "<file>:<line>"). `line_of(i)` is the input line member i came from.
Result<bool> finish_entry(const std::string& name, pyjson::Value& entry, std::optional<bool> is_recompute,
                          const EntryRules& rules, LeafConverter& leaves, const std::string& file,
                          const std::function<std::uint64_t(std::size_t)>& line_of, std::vector<Problem>& problems);

// One data event of an entry: its line's text and number.
struct EventLine {
  std::string_view text;
  std::uint64_t line = 0;
  // trace::line_hash of the text the index pass scanned as plain (0: none): when the text
  // still has it, the plain way splits it without validating it again.
  std::uint64_t text_hash = 0;
};

class CaptureEntry {
 public:
  // Formats entry `name` from `events` into `out`; false when nothing of it is kept (nothing
  // written). Errors are prefixed with "<file>:<line>: ".
  Result<bool> write(const std::string& name, std::span<const EventLine> events, const EntryRules& rules,
                     LeafConverter& leaves, const std::string& file, dump::EntryFormatter& out,
                     std::vector<Problem>& problems);

  // The parsed way alone.
  Result<bool> write_parsed(const std::string& name, std::span<const EventLine> events, const EntryRules& rules,
                            LeafConverter& leaves, const std::string& file, dump::EntryFormatter& out,
                            std::vector<Problem>& problems);
  // The plain way alone: nullopt (nothing written, nothing reported) when a line is not plain.
  Result<std::optional<bool>> write_plain(const std::string& name, std::span<const EventLine> events,
                                          const EntryRules& rules, LeafConverter& leaves, const std::string& file,
                                          dump::EntryFormatter& out, std::vector<Problem>& problems);

 private:
  struct Section {
    std::string_view key;
    std::string_view value;
    std::uint64_t line;
  };
  std::vector<trace::ScannedData> m_scanned;
  std::vector<Section> m_sections;
  std::vector<std::uint64_t> m_member_lines;
  std::string m_key;
  dump::SectionText m_text;
  pyjson::PlainReader m_leaf;  // tensor leaves, read into one reused Value
};

}  // namespace msdump::convert
