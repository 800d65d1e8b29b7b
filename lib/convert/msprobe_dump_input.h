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
  SummaryMode summary_mode = SummaryMode::statistics;  // detected from the leaves
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

// The format profile of an msprobe dump (docs/format.md §0): legacy when its first forward entry
// carries "is_recompute". Reads up to that entry.
Profile detect_profile(const ByteSource& source);

// The summary mode a dump was written with: md5 when leaves carry "md5" and statistics, xor
// when they carry "md5" without "Max". Looks at the first few MiB only.
SummaryMode detect_summary_mode(const ByteSource& source);

}  // namespace msdump::convert
