#pragma once
// The work list of a batch: every input found below the given roots (directories holding a
// dump.json or a trace.jsonl, at any depth: dump roots with step<N>/rank<R>|proc<P>/, folders
// of such roots, capture trees), or listed in a file / on stdin, sorted and de-duplicated so
// every process that builds it from the same tree gets the same list; and the shard of it one
// process of a Slurm array / Kubernetes indexed Job / GNU parallel run takes.

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace msdump::batch {

struct WorkItem {
  std::string input;     // the directory holding dump.json / trace.jsonl (or the file itself)
  std::string root;      // the root it was found under
  std::string relative;  // its path below the root ("" when the root is the input itself)
  std::string key;       // root + "/" + relative: the sort and report key
  std::string step;      // "step<N>" component of the path, if any ("" otherwise)
  std::string rank;      // "rank<R>" / "proc<P>" component, if any
  std::string group;     // the ranks of one step share a group: the rank directory's parent
                         // (its own key when the item is not a rank directory)
};

// Finds the inputs below each root. A root that is itself an input is one item. Fails when a
// root does not exist or holds no input.
Result<std::vector<WorkItem>> discover(const std::vector<std::string>& roots);

// Reads one path per line (blank lines and lines starting with '#' ignored); each path is a
// root for discover().
Result<std::vector<std::string>> read_path_list(std::istream& in, const std::string& name);

struct Shard {
  std::size_t index = 0;  // K, 0-based
  std::size_t count = 1;  // N
};
// Parses "K/N" with 0 <= K < N.
Result<Shard> parse_shard(const std::string& text);
// The items of shard K of N. The unit is a group (all ranks of one step), so cross-rank checks
// see the same ranks in a shard as in an unsharded run: group g (in sorted order) belongs to
// shard g % N; the union of the shards is the whole list, each item exactly once.
std::vector<WorkItem> select_shard(const std::vector<WorkItem>& items, const Shard& shard);

}  // namespace msdump::batch
