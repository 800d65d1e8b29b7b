#pragma once
// Reading an msprobe dump.json as converter input: its header ("task", "level", "framework",
// "dump_data_dir") and then its entries one at a time, in file order, in bounded memory.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/byte_source.h"
#include "core/profile.h"
#include "core/result.h"
#include "pyjson/json_value.h"

namespace msdump::convert {

struct MsprobeDumpHeader {
  Task task = Task::statistics;
  Level level = Level::mix;
  Framework framework = Framework::pytorch;
  std::optional<std::string> dump_data_dir;
  SummaryMode summary_mode = SummaryMode::statistics;  // detected from the leaves (detect_form)
  std::optional<Profile> profile;                      // detected from the forms (detect_form)
};

struct MsprobeDumpVisitor {
  // Called once, before the first entry.
  std::function<Result<void>(const MsprobeDumpHeader&)> on_header;
  // Called for every entry of "data", in order; `line` is where the entry's name stands.
  std::function<Result<void>(const std::string& name, pyjson::Value entry, std::uint64_t line)> on_entry;
};

// Streams `source` through `visitor`. Fails on malformed JSON (with line and column), a header
// key with an unexpected value, or when "data" comes before the header keys.
Result<void> read_msprobe_dump(const ByteSource& source, MsprobeDumpVisitor& visitor);

// How an msprobe dump was written, read from its own content (dump/format_signals.h).
struct DumpForm {
  // The profile of the first entry carrying a form of one generation only (is_recompute,
  // parameters_grad without counter, how integer statistics were computed); nullopt when none
  // was found in the first k_form_scan_bytes.
  std::optional<Profile> profile;
  // The summary mode of the first tensor leaf with statistics or a checksum; statistics when
  // none was found.
  SummaryMode summary_mode = SummaryMode::statistics;
};
inline constexpr std::uint64_t k_form_scan_bytes = std::uint64_t{16} << 20;

// Parses entries from the start until both are decided, the file ends, it stops parsing, or
// k_form_scan_bytes were read. (verify decides the profile over the whole file in its own pass.)
DumpForm detect_form(const ByteSource& source);

}  // namespace msdump::convert
