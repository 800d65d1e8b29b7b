#include "batch/batch_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>

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
  std::vector<ItemOutcome> out(items.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < items.size(); i = next++) {
      const auto started = std::chrono::steady_clock::now();
      try {
        out[i] = run(items[i], i);
      } catch (const std::exception& e) {  // a bug in one item must not take the batch down
        out[i].status = ItemStatus::failed;
        out[i].message = std::string("internal error: ") + e.what();
      }
      if (out[i].seconds == 0.0)
        out[i].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      progress.item_done(out[i].bytes);
    }
  };
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), std::max<std::size_t>(items.size(), 1));
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  progress.finish();
  return out;
}

}  // namespace msdump::batch
