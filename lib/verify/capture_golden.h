#pragma once
// verify --capture: the capture converted the way the dump under test was written (its level
// and task from dump.json's header, its detected profile and summary mode), into a private
// temporary directory that is removed on every path, and loaded as the golden.

#include <optional>
#include <string>

#include "core/byte_source.h"
#include "core/profile.h"
#include "core/result.h"
#include "verify/golden.h"

namespace msdump::verify {

// How the dump under test was written, as far as the capture's conversion needs it. Header
// values that are missing or invalid (verify reports them) are left to the capture's own.
struct DumpSettings {
  std::optional<Level> level;
  std::optional<Task> task;  // statistics or tensor (a dump of another task converts as the capture says)
  Profile profile = Profile::current;
  SummaryMode summary_mode = SummaryMode::statistics;
};

// The header's level and task of `dump` (read up to its "data" key); profile and summary mode
// are the caller's (detected from the whole file).
DumpSettings read_dump_settings(const ByteSource& dump, Profile profile, SummaryMode mode);

// Converts `capture` with `settings` and loads the result. Errors name the capture.
Result<Golden> golden_from_capture(const std::string& capture, const DumpSettings& settings);

}  // namespace msdump::verify
