#pragma once
// What identifies one batch run across its shards: the whole work list (before sharding) and
// the options that change an item's result. Every shard of a Slurm array, Kubernetes indexed Job
// or GNU parallel run records it in its batch report, so `msdump report merge` can refuse shards
// of different runs (another tree, other options) instead of silently mixing them.
// Options that only change how the work is done or shown (--jobs, --threads, --quiet, --report,
// -o of verify, --resume, --force, --exit-zero-on-findings) are not part of it.

#include <cstdint>
#include <string>
#include <vector>

#include "batch/work_list.h"
#include "convert/convert.h"
#include "verify/verify.h"

namespace msdump::batch {

struct RunIdentity {
  std::uint64_t items = 0;  // items in the whole work list (all shards together)
  std::string inputs;       // "fnv1a64:<16 hex digits>" over the work list's normalized keys
  std::string options;      // the result-changing options, as command-line flags ("" if none)
  bool operator==(const RunIdentity&) const = default;
};

// The identity of a run over `whole` (the unsharded, sorted work list) with `options`.
RunIdentity identify_run(const std::vector<WorkItem>& whole, std::string options);

// The result-changing options of a verify batch / a convert batch, as flags in a fixed order.
std::string result_options(const verify::VerifyOptions& o, bool cross_rank);
std::string result_options(const convert::ConvertOptions& o);

}  // namespace msdump::batch
