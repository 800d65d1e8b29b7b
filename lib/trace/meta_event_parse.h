#pragma once
// A direct parse of the two bookkeeping events of a trace, for the convert index pass:
//   {"kind": "stack", "name": N, "frames": [F, ...]}
//   {"kind": "construct", "name": N, "parent": P | null}            (optionally "micro_step": I)
// with exactly these keys in exactly this order, keys and kinds spelled without escapes, as the
// capture writer emits them. It pulls the strings straight into a TraceEvent (escapes decoded
// by the JSON cursor), without a Value tree, so a trace with one stack and one construct event
// per entry costs a few string allocations per line instead of a tree built on one thread and
// freed on another.
//
// Anything else (other keys or order, a data event, an empty name, a wrong type, invalid
// JSON, trailing bytes) returns false, and the caller takes the full path
// (pyjson::parse_json + parse_trace_event), which gives the exact semantics and error message.
// Whatever this accepts, the full path accepts too, with the same event (unit test).

#include <string_view>

#include "trace/trace_event.h"

namespace msdump::trace {

// Parses `line` into `out` (cleared first). False: take the full parse.
bool parse_meta_event_line(std::string_view line, TraceEvent& out);

}  // namespace msdump::trace
