#include "stats/read_ahead.h"

#include <algorithm>

namespace msdump::stats {

ReadAhead::ReadAhead(const ByteSource& source, std::uint64_t begin, std::uint64_t end,
                     std::vector<std::span<std::byte>> windows)
    : m_source(source), m_begin(begin), m_end(end), m_windows(std::move(windows)) {
  for (std::size_t k = 0; k < m_windows.size(); ++k) m_free.push_back(k);
  m_thread = std::jthread([this] { run(); });
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
}  // m_thread joins

void ReadAhead::run() {
  for (std::uint64_t at = m_begin; at < m_end;) {
    std::size_t window;
    {
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, [this] { return m_stop || !m_free.empty(); });
      if (m_stop) return;
      window = m_free.back();
      m_free.pop_back();
    }
    const auto chunk = m_windows[window].first(std::min<std::uint64_t>(m_windows[window].size(), m_end - at));
    auto read = m_source.read_at(at, chunk);
    {
      std::lock_guard lock(m_mutex);
      if (!read) {
        m_error = read.error();
        m_done = true;
      } else {
        m_filled.push_back({window, chunk.size()});
      }
    }
    m_changed.notify_all();
    if (!read) return;
    at += chunk.size();
  }
  {
    std::lock_guard lock(m_mutex);
    m_done = true;
  }
  m_changed.notify_all();
}

Result<std::span<const std::byte>> ReadAhead::next() {
  std::unique_lock lock(m_mutex);
  if (m_held) {  // the caller is done with the previous window
    m_free.push_back(*m_held);
    m_held.reset();
    m_changed.notify_all();
  }
  m_changed.wait(lock, [this] { return !m_filled.empty() || m_done; });
  if (!m_filled.empty()) {
    const Filled f = m_filled.front();
    m_filled.pop_front();
    m_held = f.window;
    return std::span<const std::byte>(m_windows[f.window].first(f.size));
  }
  if (m_error) return *m_error;
  return std::span<const std::byte>();
}

}  // namespace msdump::stats
