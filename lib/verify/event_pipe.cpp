#include "verify/event_pipe.h"

#include "verify/schema_check.h"

namespace msdump::verify {

namespace {
// The parser notes repeated keys as each object closes (the duplicate-key test, in cache).
// Entry trees live until the checker is done with them: containers may keep spare capacity.
pyjson::DumpStreamOptions stream_options() {
  pyjson::DumpStreamOptions o;
  o.read.note_duplicate_keys = true;
  o.read.exact_capacity = false;
  return o;
}
}  // namespace

EventPipe::EventPipe(const ByteSource& source) : m_stream(source, stream_options()) {
  // No workers, and nothing to run: the parser thread fills the batches, next() takes them.
  m_pool = std::make_unique<Pool>(OrderedPoolOptions{.workers = 0, .capacity = k_capacity / k_batch},
                                  [](Batch& b, std::size_t) { return std::move(b); });
  m_pool->start_producer([this](Pool& pool) { produce(pool); });
}

EventPipe::~EventPipe() { m_pool.reset(); }

void EventPipe::set_schema(std::unique_ptr<SchemaCheck> schema) {
  if (m_schema_owned) return;
  m_schema_owned = std::move(schema);
  m_schema.store(m_schema_owned.get(), std::memory_order_release);
}

void EventPipe::produce(Pool& pool) {
  // Events are handed over in batches: one lock and one wake-up per k_batch events instead of
  // per event (a condition-variable round trip per event was a large share of a verify's profile).
  Batch batch;
  batch.events.reserve(k_batch);
  // The consumer's finished events (m_returned), freed here one per parsed event: the blocks
  // an entry frees are then in malloc's per-thread cache when the next entry is parsed (glibc
  // frees another thread's blocks under its arena lock and bypasses the per-thread cache).
  std::vector<pyjson::DumpEvent> spent;
  std::size_t spent_next = 0;
  pyjson::Value wrapper;  // SchemaCheck::is_valid's scratch
  std::uint64_t produced = 0;
  while (true) {
    if (spent_next < spent.size()) spent[spent_next++] = pyjson::DumpEvent{};
    pyjson::DumpEvent ev;
    auto more = m_stream.next(ev);
    const bool end = !more || !*more;
    if (!end) {
      char flags = 0;
      if (ev.type == pyjson::DumpEvent::Type::entry) {
        // The duplicate-key test was done by the parser (DumpEvent::duplicate_keys); the
        // schema test runs here while the entry is in this core's cache, when the checker lags.
        if (!ev.duplicate_keys) flags |= k_no_duplicates;
        const SchemaCheck* schema = m_schema.load(std::memory_order_acquire);
        if (schema != nullptr && produced - m_taken.load(std::memory_order_relaxed) >= k_busy_backlog &&
            schema->is_valid(ev.key, ev.value, wrapper))
          flags |= k_valid;
      }
      batch.events.push_back(std::move(ev));
      batch.flags.push_back(flags);
      ++produced;
    }
    if (!end && batch.events.size() < k_batch) continue;
    if (spent_next == spent.size()) {
      spent.clear();
      std::lock_guard lock(m_returned_mutex);
      spent.swap(m_returned);
      spent_next = 0;
    }
    if (end) {
      batch.end = true;
      if (!more) batch.error = more.error();
    }
    if (!pool.submit(std::move(batch)) || end) return;
    batch = Batch{};
    batch.events.reserve(k_batch);
  }
}

Result<bool> EventPipe::next(pyjson::DumpEvent& event, bool* schema_valid, bool* no_duplicate_keys) {
  // The previous event goes back to the parser thread to be freed there (see produce()).
  if (event.type == pyjson::DumpEvent::Type::entry || event.type == pyjson::DumpEvent::Type::member)
    m_spent.push_back(std::move(event));
  while (m_next == m_local.events.size()) {  // one lock per batch, not per event
    if (m_ended) {
      if (m_local.error) return *m_local.error;
      return false;
    }
    auto batch = m_pool->next();
    if (!batch) return internal_error("EventPipe: the parser thread stopped");
    m_local = std::move(*batch);
    m_next = 0;
    m_ended = m_local.end;
    std::lock_guard lock(m_returned_mutex);
    if (m_returned.empty()) m_returned.swap(m_spent);
  }
  if (schema_valid != nullptr) *schema_valid = (m_local.flags[m_next] & k_valid) != 0;
  if (no_duplicate_keys != nullptr) *no_duplicate_keys = (m_local.flags[m_next] & k_no_duplicates) != 0;
  event = std::move(m_local.events[m_next++]);
  m_taken.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace msdump::verify
