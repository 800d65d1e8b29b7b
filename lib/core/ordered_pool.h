#pragma once
// OrderedPool: items submitted by a producer are run by worker threads and taken by a consumer
// in submission order, whatever order they finish in; at most `capacity` items are submitted
// and not yet taken (submit() blocks: memory stays bounded).
//
// Besides its own `workers` threads (0 is allowed), two more threads may run items:
//   - the producer, when submit() would block: it runs the newest waiting item (still in its
//     cache) instead of waiting (Options::producer_helps);
//   - the consumer, when the item it needs is not done: it runs that item itself if no thread
//     has it, else another waiting one, instead of waiting.
// So with workers = 0 no thread is started and every item is run by the producer or the
// consumer (one thread doing both: for_each_ordered below, a plain loop).
// Each running item gets a `slot` < slots() naming the thread that runs it (workers first,
// then the producer, then the consumer), for state kept per thread.
//
// An exception escaping the work function is carried to the consumer: next() rethrows it for
// that item, in order. Errors as values (Result<T> as Out) travel like any result. cancel()
// (or the destructor) ends everything early without deadlock: submit() then returns false,
// next() nothing, and the workers stop after the item they are running.
//
// paused: until resume(), only the consumer runs items, and only the one it needs (for items
// that cannot be run before the consumer has seen the ones before them).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace msdump {

struct OrderedPoolOptions {
  std::size_t workers = 0;     // threads of the pool's own
  std::size_t capacity = 1;    // items submitted and not yet taken by next(), at most (>= 1)
  bool producer_helps = true;  // a blocked submit() runs waiting items
  bool paused = false;         // see above
};

template <typename In, typename Out>
class OrderedPool {
 public:
  using Work = std::function<Out(In& item, std::size_t slot)>;

  OrderedPool(OrderedPoolOptions options, Work work) : m_opt(options), m_work(std::move(work)) {
    if (m_opt.capacity == 0) m_opt.capacity = 1;
    m_paused = m_opt.paused;
    for (std::size_t t = 0; t < m_opt.workers; ++t) m_threads.emplace_back([this, t] { work_loop(t); });
  }
  ~OrderedPool() {
    cancel();
    if (m_producer.joinable()) m_producer.join();
    for (auto& t : m_threads) t.join();
  }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  std::size_t slots() const { return m_opt.workers + 2; }
  std::size_t producer_slot() const { return m_opt.workers; }
  std::size_t consumer_slot() const { return m_opt.workers + 1; }

  // Runs `produce(*this)` on a thread of the pool's own, then close(). An exception escaping
  // it is rethrown by next() after the items submitted before it.
  template <typename F>
  void start_producer(F produce) {
    m_producer = std::thread([this, produce = std::move(produce)]() mutable {
      try {
        produce(*this);
      } catch (...) {
        std::lock_guard lock(m_mutex);
        m_producer_error = std::current_exception();
      }
      close();
    });
  }

  // Adds an item; blocks while `capacity` items are in flight. False once cancelled (the item
  // is dropped).
  bool submit(In item) {
    std::unique_lock lock(m_mutex);
    while (!m_cancelled && m_items.size() >= m_opt.capacity) {
      if (Item* it = m_opt.producer_helps && !m_paused ? claim_newest() : nullptr) {
        run(*it, producer_slot(), lock);
        continue;
      }
      m_changed.wait(lock);
    }
    if (m_cancelled) return false;
    push(std::move(item));
    lock.unlock();
    m_changed.notify_all();
    return true;
  }

  // Adds an item if fewer than `capacity` are in flight; false if not (or cancelled).
  bool try_submit(In& item) {
    {
      std::lock_guard lock(m_mutex);
      if (m_cancelled || m_items.size() >= m_opt.capacity) return false;
      push(std::move(item));
    }
    m_changed.notify_all();
    return true;
  }

  // No more items: next() ends after the last one.
  void close() {
    {
      std::lock_guard lock(m_mutex);
      m_closed = true;
    }
    m_changed.notify_all();
  }

  // The result of the oldest item not yet taken, once done; nothing after the last item of a
  // closed pool, or once cancelled.
  std::optional<Out> next() {
    std::unique_lock lock(m_mutex);
    for (;;) {
      if (m_cancelled) return std::nullopt;
      if (m_items.empty()) {
        if (m_closed && m_producer_error) std::rethrow_exception(std::exchange(m_producer_error, nullptr));
        if (m_closed) return std::nullopt;
        m_changed.wait(lock);
        continue;
      }
      Item& front = m_items.front();
      if (front.state == State::done) break;
      Item* it = front.state == State::waiting ? &front : (m_paused ? nullptr : claim_oldest());
      if (it == nullptr) {
        m_changed.wait(lock);
        continue;
      }
      if (it == &front) front.state = State::running;
      run(*it, consumer_slot(), lock);
    }
    Item item = std::move(m_items.front());
    m_items.pop_front();
    lock.unlock();
    m_changed.notify_all();
    if (item.error) std::rethrow_exception(item.error);
    return std::move(item.out);
  }

  // Ends early: see above. Safe from any thread, more than once.
  void cancel() {
    {
      std::lock_guard lock(m_mutex);
      m_cancelled = true;
    }
    m_changed.notify_all();
  }

  // Ends `paused`.
  void resume() {
    {
      std::lock_guard lock(m_mutex);
      m_paused = false;
    }
    m_changed.notify_all();
  }

  // Items submitted and not yet taken.
  std::size_t in_flight() const {
    std::lock_guard lock(m_mutex);
    return m_items.size();
  }

 private:
  enum class State { waiting, running, done };
  struct Item {
    In in;
    std::optional<Out> out;
    std::exception_ptr error;
    State state = State::waiting;
  };

  void push(In&& in) { m_items.push_back(Item{std::move(in), std::nullopt, nullptr, State::waiting}); }

  // (Under m_mutex.) Marks a waiting item running and returns it, or nullptr.
  Item* claim_oldest() {
    for (auto& it : m_items)
      if (it.state == State::waiting) return claim(it);
    return nullptr;
  }
  Item* claim_newest() {
    for (auto it = m_items.rbegin(); it != m_items.rend(); ++it)
      if (it->state == State::waiting) return claim(*it);
    return nullptr;
  }
  static Item* claim(Item& it) {
    it.state = State::running;
    return &it;
  }

  // Runs a claimed item outside the lock (deque elements keep their address while others are
  // added or taken) and marks it done.
  void run(Item& it, std::size_t slot, std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    std::optional<Out> out;
    std::exception_ptr error;
    try {
      out.emplace(m_work(it.in, slot));
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    it.out = std::move(out);
    it.error = error;
    it.state = State::done;
    m_changed.notify_all();
  }

  void work_loop(std::size_t slot) {
    std::unique_lock lock(m_mutex);
    while (!m_cancelled) {
      Item* it = m_paused ? nullptr : claim_oldest();
      if (it == nullptr) {
        if (m_closed && !m_paused) {
          bool waiting = false;
          for (const auto& i : m_items) waiting = waiting || i.state == State::waiting;
          if (!waiting) return;
        }
        m_changed.wait(lock);
        continue;
      }
      run(*it, slot, lock);
    }
  }

  OrderedPoolOptions m_opt;
  Work m_work;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Item> m_items;  // front = the oldest not yet taken
  bool m_paused = false;
  bool m_closed = false;
  bool m_cancelled = false;
  std::exception_ptr m_producer_error;
  std::vector<std::thread> m_threads;
  std::thread m_producer;
};

// Runs work(i, slot) for i in [0, n) on `options.workers` threads plus the calling thread, and
// consume(i, result) on the calling thread in order of i. consume returning false stops early
// (items not yet run are not). False when stopped early.
template <typename Out, typename Work, typename Consume>
bool for_each_ordered(std::size_t n, OrderedPoolOptions options, Work work, Consume consume) {
  if (options.workers > 0 && options.capacity < options.workers) options.capacity = options.workers;
  OrderedPool<std::size_t, Out> pool(options, [&](std::size_t& i, std::size_t slot) { return work(i, slot); });
  std::size_t submitted = 0;
  for (std::size_t i = 0; i < n; ++i) {
    while (submitted < n) {
      std::size_t s = submitted;
      if (!pool.try_submit(s)) break;
      ++submitted;
    }
    if (submitted == n) pool.close();
    auto out = pool.next();
    if (!out || !consume(i, std::move(*out))) {
      pool.cancel();
      return false;
    }
  }
  return true;
}

}  // namespace msdump
