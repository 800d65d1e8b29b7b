#include "pyjson/source_window.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace msdump::pyjson {

SourceWindow::SourceWindow(const ByteSource& source, std::size_t buffer_bytes) : m_source(source) {
  const std::span<const std::byte> memory = source.memory();
  if (!memory.empty() || source.size() == 0) {
    m_data = reinterpret_cast<const char*>(memory.data());
    m_size = memory.size();
    return;
  }
  // Never allocate more than the file needs (small stack.json files, tests).
  m_capacity = static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::size_t>(buffer_bytes, 16), source.size()));
  m_buffer = std::make_unique_for_overwrite<char[]>(m_capacity);
  m_data = m_buffer.get();
}

Result<void> SourceWindow::advance(std::size_t keep) {
  assert(!at_eof() && keep <= m_size);
  const std::size_t kept = m_size - keep;
  if (kept > m_capacity / 2 && m_capacity < m_source.size()) {
    // The unit being parsed fills most of the buffer: grow, so that every retry of it gets at
    // least twice the bytes of the previous attempt.
    const std::size_t capacity = static_cast<std::size_t>(std::min<std::uint64_t>(m_capacity * 2, m_source.size()));
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
    std::memcpy(bigger.get(), m_buffer.get() + keep, kept);
    m_buffer = std::move(bigger);
    m_capacity = capacity;
  } else if (keep != 0) {
    std::memmove(m_buffer.get(), m_buffer.get() + keep, kept);
  }
  m_data = m_buffer.get();
  m_offset += keep;
  m_size = kept;
  const std::uint64_t next = m_offset + m_size;
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(m_capacity - m_size, m_source.size() - next));
  MSDUMP_TRY(m_source.read_at(next, std::span<std::byte>(reinterpret_cast<std::byte*>(m_buffer.get() + m_size), n)));
  m_size += n;
  return {};
}

}  // namespace msdump::pyjson
