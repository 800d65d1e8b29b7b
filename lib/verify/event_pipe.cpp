#include "verify/event_pipe.h"

namespace msdump::verify {

EventPipe::EventPipe(const ByteSource& source) : m_stream(source), m_thread([this] { produce(); }) {}

EventPipe::~EventPipe() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_thread.join();
}

void EventPipe::produce() {
  // Events are handed over in batches: one lock and one wake-up per k_batch events instead of
  // per event (the per-event hand-off cost ~15 % of a verify).
  std::vector<pyjson::DumpEvent> batch;
  batch.reserve(k_batch);
  // The consumer's finished events (m_returned), freed here one per parsed event: the blocks
  // an entry frees are then in malloc's per-thread cache when the next entry is parsed.
  std::vector<pyjson::DumpEvent> spent;
  std::size_t spent_next = 0;
  while (true) {
    if (spent_next < spent.size()) spent[spent_next++] = pyjson::DumpEvent{};
    pyjson::DumpEvent ev;
    auto more = m_stream.next(ev);
    const bool end = !more || !*more;
    if (!end) batch.push_back(std::move(ev));
    if (!end && batch.size() < k_batch) continue;
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_stop || m_queue.size() < k_capacity; });
    if (m_stop) return;
    for (auto& e : batch) m_queue.push_back(std::move(e));
    batch.clear();
    if (spent_next == spent.size()) {
      spent.clear();
      spent.swap(m_returned);
      spent_next = 0;
    }
    if (end) {
      if (!more) m_error = more.error();
      m_done = true;
    }
    m_changed.notify_all();
    if (end) return;
  }
}

Result<bool> EventPipe::next(pyjson::DumpEvent& event) {
  // The previous event goes back to the parser thread to be freed there: glibc malloc frees
  // blocks of another thread's arena under that arena's lock, and the parser reuses the
  // freed blocks from its own cache (measured: ~10% of a verify was malloc/free).
  if (event.type == pyjson::DumpEvent::Type::entry || event.type == pyjson::DumpEvent::Type::member)
    m_spent.push_back(std::move(event));
  if (m_next == m_local.size()) {  // take everything queued at once: one lock per batch, not per event
    m_local.clear();
    m_next = 0;
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return !m_queue.empty() || m_done; });
    if (m_queue.empty()) {
      if (m_error) return *m_error;
      return false;
    }
    m_local.swap(m_queue);
    if (m_returned.empty()) m_returned.swap(m_spent);
    m_changed.notify_all();
  }
  event = std::move(m_local[m_next++]);
  return true;
}

}  // namespace msdump::verify
