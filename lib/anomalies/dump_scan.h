#pragma once
// anomalies of one dump: where the NaN / Inf first appears (README "msdump anomalies").
//
//   ScanDumpOptions -> Result<DumpAnomalies>
//
// One streaming pass over dump.json. Without tensor files it is the block pass
// (block_scan.h: each thread reads and scans blocks of the file, entries with nothing to report
// told from their text); with them, or when the block pass gives up, the parallel raw-entry path
// verify uses (dump/entry_workers.h: a reader thread cuts the entries, worker threads parse and
// scan them, tensor files read there too); a file neither vouches for is read one entry at a
// time, whose messages are the reference. The caller follows origins in file order
// (origin_tracker.h). construct.json, when present, names each anomaly's module.
// The Result fails on unreadable input: a missing dump, invalid JSON (file, line, column), an
// unreadable tensor file or construct.json.

#include <cstdint>
#include <optional>
#include <string>

#include "anomalies/origin_tracker.h"
#include "core/result.h"

namespace msdump::anomalies {

struct ScanDumpOptions {
  std::string path;                    // dump.json, or the directory holding it
  std::optional<std::string> tensors;  // tensor directory (default: dump_tensor_data/ beside dump.json)
  bool use_tensors = true;             // judge tensors from their files when there are any
  double overflow_fraction = 1.0;      // overflow risk from this fraction of the dtype's limit
  int threads = 2;                     // for the entries (at least 2 run: blocks on each, or a reader and the caller)
};

struct DumpAnomalies {
  std::string file;                    // the dump.json
  std::uint64_t bytes = 0;
  bool from_tensor_files = false;      // tensors were judged from their files
  DumpAnalysis analysis;
  double seconds = 0.0;
};

Result<DumpAnomalies> scan_dump(const ScanDumpOptions& options);

}  // namespace msdump::anomalies
