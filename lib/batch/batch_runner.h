#pragma once
// Runs one function over a work list with N worker threads. Results come back in work-list
// order whatever the completion order, so reports are deterministic; one failing item never
// stops the others.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "batch/progress.h"
#include "batch/work_list.h"

namespace msdump::batch {

enum class ItemStatus { ok, findings, failed, skipped };
std::string_view to_string(ItemStatus s);  // "ok" | "findings" | "failed" | "skipped"

// What one item produced, as the batch report and the summary table show it.
struct ItemOutcome {
  ItemStatus status = ItemStatus::ok;
  std::string message;            // why it failed / was skipped ("" when ok)
  std::string output;             // where its output went (convert)
  std::uint64_t entries = 0;
  std::uint64_t tensors = 0;
  std::uint64_t errors = 0;       // findings / problems of severity error
  std::uint64_t warnings = 0;
  std::uint64_t bytes = 0;        // input bytes read (progress rate)
  double seconds = 0.0;
  std::vector<std::string> details;  // one line per problem/finding, for the JSON report
};

using ItemFunction = std::function<ItemOutcome(const WorkItem&, std::size_t index)>;

// Runs `run` over `items` on `jobs` threads (>= 1), reporting to `progress`. Exceptions escaping
// `run` become failed outcomes carrying the exception's message.
std::vector<ItemOutcome> run_batch(const std::vector<WorkItem>& items, int jobs, const ItemFunction& run,
                                   Progress& progress);

}  // namespace msdump::batch
