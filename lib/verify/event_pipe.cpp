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
  while (true) {
    pyjson::DumpEvent ev;
    auto more = m_stream.next(ev);
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_stop || m_queue.size() < k_capacity; });
    if (m_stop) return;
    if (!more) m_error = more.error();
    if (!more || !*more) {
      m_done = true;
      m_changed.notify_all();
      return;
    }
    m_queue.push_back(std::move(ev));
    m_changed.notify_all();
  }
}

Result<bool> EventPipe::next(pyjson::DumpEvent& event) {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [&] { return !m_queue.empty() || m_done; });
  if (m_queue.empty()) {
    if (m_error) return *m_error;
    return false;
  }
  event = std::move(m_queue.front());
  m_queue.pop_front();
  m_changed.notify_all();
  return true;
}

}  // namespace msdump::verify
