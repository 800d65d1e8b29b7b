#include "core/ordered_pool.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

using namespace msdump;

namespace {

// Durations 0..max_us microseconds, fixed per seed.
std::vector<int> random_durations(std::size_t n, unsigned seed, int max_us) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, max_us);
  std::vector<int> out(n);
  for (auto& x : out) x = d(rng);
  return out;
}

void sleep_us(int us) {
  if (us > 0) std::this_thread::sleep_for(std::chrono::microseconds(us));
}

// Counts the items being run at once, and the most ever.
struct Gauge {
  std::atomic<int> now{0}, most{0};
  void enter() {
    const int n = ++now;
    int m = most.load();
    while (n > m && !most.compare_exchange_weak(m, n)) {}
  }
  void leave() { --now; }
};

}  // namespace

TEST_SUITE("msdump::core") {
  TEST_CASE("OrderedPool: results come in submission order whatever the task durations") {
    for (const std::size_t workers : {0u, 1u, 3u}) {
      CAPTURE(workers);
      const auto durations = random_durations(200, 7 + static_cast<unsigned>(workers), 300);
      OrderedPool<int, int> pool({.workers = workers, .capacity = 6}, [&](int& i, std::size_t) {
        sleep_us(durations[static_cast<std::size_t>(i)]);
        return i * 3;
      });
      pool.start_producer([&](auto& p) {
        for (int i = 0; i < 200; ++i)
          if (!p.submit(i)) return;
      });
      int expected = 0;
      while (auto r = pool.next()) {
        CHECK(*r == expected * 3);
        ++expected;
      }
      CHECK(expected == 200);
    }
  }

  TEST_CASE("OrderedPool: no more than `capacity` items submitted and not yet taken") {
    const auto durations = random_durations(300, 11, 200);
    Gauge running;
    std::atomic<int> submitted{0};
    int taken = 0, most_in_flight = 0;
    OrderedPool<int, int> pool({.workers = 4, .capacity = 5}, [&](int& i, std::size_t) {
      running.enter();
      sleep_us(durations[static_cast<std::size_t>(i)]);
      running.leave();
      return i;
    });
    pool.start_producer([&](auto& p) {
      for (int i = 0; i < 300; ++i) {
        if (!p.submit(i)) return;
        ++submitted;
      }
    });
    while (auto r = pool.next()) {
      ++taken;
      most_in_flight = std::max(most_in_flight, submitted.load() - taken);
      CHECK(pool.in_flight() <= 5);
      sleep_us(durations[static_cast<std::size_t>(*r)] / 4);  // a consumer that is sometimes the slowest
    }
    CHECK(taken == 300);
    CHECK(most_in_flight <= 5);
    CHECK(running.most.load() <= 5);
    CHECK(running.most.load() >= 2);  // the workers did run items side by side
  }

  TEST_CASE("OrderedPool: a task's exception reaches the consumer at that item, in order") {
    OrderedPool<int, int> pool({.workers = 2, .capacity = 4}, [](int& i, std::size_t) {
      if (i == 5) throw std::runtime_error("item five");
      return i;
    });
    pool.start_producer([](auto& p) {
      for (int i = 0; i < 10; ++i)
        if (!p.submit(i)) return;
    });
    for (int i = 0; i < 5; ++i) {
      auto r = pool.next();
      REQUIRE(r);
      CHECK(*r == i);
    }
    CHECK_THROWS_WITH(pool.next(), "item five");
    auto r = pool.next();  // the items after it are still there
    REQUIRE(r);
    CHECK(*r == 6);
  }

  TEST_CASE("OrderedPool: Result errors travel as values; the consumer stops early without deadlock") {
    std::atomic<int> ran{0};
    std::atomic<bool> producer_refused{false};
    {
      OrderedPool<int, Result<int>> pool({.workers = 2, .capacity = 3}, [&](int& i, std::size_t) -> Result<int> {
        ++ran;
        if (i == 3) return invalid_input("item 3 is bad");
        return i;
      });
      pool.start_producer([&](auto& p) {
        for (int i = 0; i < 100000; ++i)
          if (!p.submit(i)) {
            producer_refused = true;
            return;
          }
      });
      for (int i = 0;; ++i) {
        auto r = pool.next();
        REQUIRE(r);
        if (!*r) {
          CHECK(i == 3);
          CHECK(r->error().message == "item 3 is bad");
          break;
        }
        CHECK(**r == i);
      }
      pool.cancel();
      CHECK_FALSE(pool.next());
    }  // the destructor joins the producer (blocked in submit) and the workers
    CHECK(producer_refused.load());
    CHECK(ran.load() < 100);
  }

  TEST_CASE("OrderedPool: destroyed while items wait, nothing taken") {
    std::atomic<int> ran{0};
    {
      OrderedPool<int, int> pool({.workers = 2, .capacity = 4}, [&](int& i, std::size_t) {
        ++ran;
        sleep_us(100);
        return i;
      });
      pool.start_producer([](auto& p) {
        for (int i = 0; i < 1000; ++i)
          if (!p.submit(i)) return;
      });
    }
    CHECK(ran.load() < 1000);
  }

  TEST_CASE("OrderedPool: zero items") {
    for (const std::size_t workers : {0u, 2u}) {
      OrderedPool<int, int> pool({.workers = workers, .capacity = 2}, [](int& i, std::size_t) { return i; });
      pool.close();
      CHECK_FALSE(pool.next());
      CHECK_FALSE(pool.next());
    }
    int consumed = 0;
    CHECK(for_each_ordered<int>(0, {.workers = 2, .capacity = 4}, [](std::size_t i, std::size_t) { return int(i); },
                                [&](std::size_t, int) { return ++consumed, true; }));
    CHECK(consumed == 0);
  }

  TEST_CASE("OrderedPool: without workers, the calling thread runs every item, in order") {
    const auto caller = std::this_thread::get_id();
    std::vector<std::size_t> run_order, slots;
    std::vector<std::size_t> consumed;
    CHECK(for_each_ordered<std::size_t>(
        50, {.workers = 0, .capacity = 4},
        [&](std::size_t i, std::size_t slot) {
          CHECK(std::this_thread::get_id() == caller);
          run_order.push_back(i);
          slots.push_back(slot);
          return i * i;
        },
        [&](std::size_t i, std::size_t v) {
          CHECK(v == i * i);
          consumed.push_back(i);
          return true;
        }));
    REQUIRE(consumed.size() == 50);
    for (std::size_t i = 0; i < 50; ++i) {
      CHECK(consumed[i] == i);
      CHECK(run_order[i] == i);
      CHECK(slots[i] == 1);  // the consumer's slot (workers + 1)
    }
  }

  TEST_CASE("OrderedPool: for_each_ordered stops when consume says so") {
    std::atomic<int> ran{0};
    int consumed = 0;
    CHECK_FALSE(for_each_ordered<int>(
        10000, {.workers = 2, .capacity = 4},
        [&](std::size_t i, std::size_t) { return ++ran, int(i); },
        [&](std::size_t i, int v) {
          CHECK(v == int(i));
          return ++consumed < 7;
        }));
    CHECK(consumed == 7);
    CHECK(ran.load() < 100);
  }

  TEST_CASE("OrderedPool: many items, slots name distinct threads") {
    constexpr std::size_t n = 20000;
    const auto durations = random_durations(n, 3, 3);
    std::vector<std::set<std::thread::id>> seen(5);
    std::mutex mu;
    std::uint64_t sum = 0;
    std::size_t next_expected = 0;
    CHECK(for_each_ordered<std::uint64_t>(
        n, {.workers = 3, .capacity = 16},
        [&](std::size_t i, std::size_t slot) {
          sleep_us(durations[i] == 3 ? 1 : 0);
          std::lock_guard lock(mu);
          seen.at(slot).insert(std::this_thread::get_id());
          return std::uint64_t{i};
        },
        [&](std::size_t i, std::uint64_t v) {
          CHECK(i == next_expected++);
          sum += v;
          return true;
        }));
    CHECK(sum == std::uint64_t{n} * (n - 1) / 2);
    for (const auto& s : seen) CHECK(s.size() <= 1);  // one thread per slot
    CHECK(seen[3].empty());                            // the producer slot: for_each_ordered never blocks in submit
  }

  TEST_CASE("OrderedPool: paused, only the consumer runs the item it needs") {
    std::vector<int> ran;
    std::mutex mu;
    OrderedPool<int, int> pool({.workers = 2, .capacity = 8, .paused = true}, [&](int& i, std::size_t slot) {
      std::lock_guard lock(mu);
      ran.push_back(i);
      CHECK(slot == 3);
      return i;
    });
    for (int i = 0; i < 4; ++i) REQUIRE(pool.submit(int(i)));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    {
      std::lock_guard lock(mu);
      CHECK(ran.empty());
    }
    auto r = pool.next();
    REQUIRE(r);
    CHECK(*r == 0);
    {
      std::lock_guard lock(mu);
      CHECK(ran == std::vector<int>{0});
    }
  }

  TEST_CASE("OrderedPool: a producer's exception comes after the items it submitted") {
    OrderedPool<int, int> pool({.workers = 1, .capacity = 2}, [](int& i, std::size_t) { return i; });
    pool.start_producer([](auto& p) {
      (void)p.submit(1);
      (void)p.submit(2);
      throw std::runtime_error("reader failed");
    });
    CHECK(*pool.next() == 1);
    CHECK(*pool.next() == 2);
    CHECK_THROWS_WITH(pool.next(), "reader failed");
  }
}
