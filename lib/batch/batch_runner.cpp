#include "batch/batch_runner.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "core/ordered_pool.h"

namespace msdump::batch {

std::string_view to_string(ItemStatus s) {
  switch (s) {
    case ItemStatus::ok: return "ok";
    case ItemStatus::findings: return "findings";
    case ItemStatus::failed: return "failed";
    case ItemStatus::skipped: return "skipped";
  }
  return "failed";
}

std::vector<ItemOutcome> run_batch(const std::vector<WorkItem>& items, int jobs, const ItemFunction& run,
                                   Progress& progress) {
  auto run_one = [&](std::size_t i, std::size_t) {
    ItemOutcome out;
    const auto started = std::chrono::steady_clock::now();
    try {
      out = run(items[i], i);
    } catch (const std::exception& e) {  // a bug in one item must not take the batch down
      out.status = ItemStatus::failed;
      out.message = std::string("internal error: ") + e.what();
    }
    if (out.seconds == 0.0)
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress.item_done(out.bytes);
    return out;
  };
  // The calling thread runs items too: --jobs 1 starts no thread.
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), std::max<std::size_t>(items.size(), 1));
  std::vector<ItemOutcome> out;
  out.reserve(items.size());
  (void)for_each_ordered<ItemOutcome>(items.size(), {.workers = n - 1, .capacity = 2 * n}, run_one,
                                      [&](std::size_t, ItemOutcome&& o) {
                                        out.push_back(std::move(o));
                                        return true;
                                      });
  progress.finish();
  return out;
}

}  // namespace msdump::batch
