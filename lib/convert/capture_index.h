#pragma once
// The index pass of a capture conversion: one pass over trace.jsonl that validates every line,
// makes the Plan from the header line, orders the entries by the merge rules (EntryOrder) and
// collects the stack events and the construct.json edges. The entry pass (capture_entries.h)
// then re-reads, per entry, exactly the lines the index points at.
//
// The lines are read by a thread of their own in batches; each batch is scanned (plain data
// lines: no values built; stack and construct lines: parsed directly; any other line: parsed
// fully) by whichever thread gets to it first (OrderedPool: the reader while the queue is
// full, or the caller), and the caller applies the batches in line order, so errors and
// warnings come out in line order.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "convert/convert.h"
#include "convert/entry_order.h"
#include "convert/plan.h"
#include "core/byte_source.h"
#include "core/result.h"
#include "dump/construct_model.h"
#include "dump/frame_lists.h"
#include "trace/trace_event.h"

namespace msdump::convert {

struct StackEvent {
  std::string name;
  std::uint32_t frames_id = 0;  // in CaptureIndex::frame_lists
};

struct CaptureIndex {
  trace::TraceHeader header;
  Plan plan;
  std::optional<EntryOrder> order;  // (always set: made with the plan's profile)
  std::vector<StackEvent> stacks;
  dump::FrameLists frame_lists;  // distinct call stacks, interned as stack events are applied
  dump::ConstructModel construct;
  std::unordered_set<std::string> scope_kept;  // names with an event inside the scope
};

// Indexes the trace `source` (named `trace_path` in messages). Warnings go to report.problems;
// a truncated last line sets report.truncated. The first error ends the pass.
Result<std::unique_ptr<CaptureIndex>> index_capture(const ConvertOptions& o, const ByteSource& source,
                                                    const std::string& trace_path, ConvertReport& report);

}  // namespace msdump::convert
