#pragma once
// The lines of a capture trace (docs/trace-format.md): the header and the three event kinds.
// Parsing takes an already parsed pyjson::Value (one line) and validates its shape; errors are
// "<json pointer>: <what was expected>" for the caller to prefix with "<file>:<line>: ".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/profile.h"
#include "core/result.h"
#include "pyjson/json_value.h"

namespace msdump::trace {

inline constexpr std::int64_t k_trace_version = 1;

struct TraceHeader {
  Framework framework = Framework::pytorch;
  std::int64_t version = k_trace_version;
  std::optional<std::int64_t> step;
  std::optional<std::int64_t> rank;
  Level level = Level::mix;
  std::optional<Task> task;
  std::optional<SummaryMode> summary_mode;
  std::optional<std::string> dump_path;
  bool megatron = false;
  // The API risk level the capture holds every call of (msdump_record: ALL); absent: the
  // capture holds what its producer chose to write, and convert applies no default filter.
  std::optional<RiskLevel> risk_level;
};

// Validates line 1. Unknown keys are appended to `warnings` (forward compatibility).
Result<TraceHeader> parse_trace_header(const pyjson::Value& line, std::vector<std::string>& warnings);

enum class EventKind { data, stack, construct, unknown };

struct TraceEvent {
  EventKind kind = EventKind::unknown;
  std::string name;
  pyjson::Object sections;                // data: every member but "kind" and "name", in order
  std::vector<std::string> frames;        // stack
  std::optional<std::string> parent;      // construct (nullopt = null)
  std::optional<std::int64_t> micro_step; // construct, Megatron captures
  std::string unknown_kind;               // kind == unknown: the kind string given
};

// Validates and takes apart one event line (consumes `line`).
Result<TraceEvent> parse_trace_event(pyjson::Value&& line);

// The section keys a data event may carry for a non-parameters_grad entry.
bool is_known_section(std::string_view key);

}  // namespace msdump::trace
