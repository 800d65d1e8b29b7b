#pragma once
// The entry pass of a capture conversion: for each entry of the index (capture_index.h), in
// order, the trace lines it points at are re-read, merged, converted (statistics, tensor files)
// and written to dump.json. Batches of consecutive entries are merged, converted and formatted
// on worker threads (OrderedPool); the caller's thread writes the formatted batches in order,
// so the bytes do not depend on the number of threads. Problems are collected per batch and
// appended in batch order.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convert/capture_entry.h"
#include "convert/convert.h"
#include "convert/entry_order.h"
#include "convert/leaf_converter.h"
#include "core/byte_source.h"
#include "core/result.h"
#include "dump/dump_writer.h"

namespace msdump::convert {

struct EntryPassTotals {
  std::uint64_t tensors = 0, tensor_files = 0, bytes_read = 0;  // LeafConverter's counts
  std::optional<Error> format_error;  // the JSON writer's verdict on an entry (invalid UTF-8)
};

// Writes `entries` (of the trace `source`, named `trace_path`) to `writer`, converting them on
// `threads` threads: threads - 1 workers and the caller's, which also writes; each thread
// converts leaves with a LeafConverter made from `leaves`.
// Fails on the first batch that fails (nothing after it is written).
Result<EntryPassTotals> write_capture_entries(const std::vector<const EntryOrder::Entry*>& entries,
                                              const ByteSource& source, const std::string& trace_path,
                                              const EntryRules& rules, const LeafContext& leaves, std::size_t threads,
                                              dump::DumpWriter& writer, std::vector<Problem>& problems);

}  // namespace msdump::convert
