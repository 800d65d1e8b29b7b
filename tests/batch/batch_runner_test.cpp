#include "batch/batch_runner.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

using namespace msdump;
using namespace msdump::batch;

namespace {

std::vector<WorkItem> items(std::size_t n) {
  std::vector<WorkItem> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i].input = out[i].key = "item" + std::to_string(i);
  return out;
}

}  // namespace

TEST_SUITE("msdump::batch") {
  TEST_CASE("run_batch (threaded): outcomes in work-list order with --jobs 3, whatever the item durations") {
    const auto work = items(60);
    std::mt19937 rng(5);
    std::vector<int> us(work.size());
    for (auto& u : us) u = std::uniform_int_distribution<int>(0, 2000)(rng);
    std::ostringstream log;
    Progress progress(log, ProgressStyle::none, work.size());
    std::mutex mu;
    std::set<std::thread::id> threads;
    auto out = run_batch(work, 3, [&](const WorkItem& item, std::size_t i) {
      std::this_thread::sleep_for(std::chrono::microseconds(us[i]));
      {
        std::lock_guard lock(mu);
        threads.insert(std::this_thread::get_id());
      }
      ItemOutcome o;
      o.output = item.input;
      o.entries = i;
      return o;
    }, progress);
    REQUIRE(out.size() == work.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      CHECK(out[i].output == work[i].input);
      CHECK(out[i].entries == i);
      CHECK(out[i].seconds > 0.0);
    }
    CHECK(threads.size() >= 2);
    CHECK(threads.size() <= 3);
  }

  TEST_CASE("run_batch (threaded): --jobs 1 runs every item on the calling thread, in order") {
    const auto work = items(10);
    std::ostringstream log;
    Progress progress(log, ProgressStyle::none, work.size());
    std::vector<std::size_t> order;
    const auto caller = std::this_thread::get_id();
    auto out = run_batch(work, 1, [&](const WorkItem&, std::size_t i) {
      CHECK(std::this_thread::get_id() == caller);
      order.push_back(i);
      return ItemOutcome{};
    }, progress);
    CHECK(out.size() == 10);
    for (std::size_t i = 0; i < order.size(); ++i) CHECK(order[i] == i);
  }

  TEST_CASE("run_batch (threaded): an exception fails its item only; no items, no outcomes") {
    const auto work = items(8);
    std::ostringstream log;
    Progress progress(log, ProgressStyle::none, work.size());
    auto out = run_batch(work, 2, [&](const WorkItem&, std::size_t i) {
      if (i == 4) throw std::runtime_error("boom");
      return ItemOutcome{};
    }, progress);
    REQUIRE(out.size() == 8);
    for (std::size_t i = 0; i < out.size(); ++i) {
      CAPTURE(i);
      CHECK(out[i].status == (i == 4 ? ItemStatus::failed : ItemStatus::ok));
    }
    CHECK(out[4].message == "internal error: boom");
    Progress none(log, ProgressStyle::none, 0);
    CHECK(run_batch({}, 4, [](const WorkItem&, std::size_t) { return ItemOutcome{}; }, none).empty());
  }
}
