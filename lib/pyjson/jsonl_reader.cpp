#include "pyjson/jsonl_reader.h"

#include <cstring>

namespace msdump::pyjson {

JsonlReader::JsonlReader(const ByteSource& source, JsonlOptions options)
    : m_window(source, options.buffer_bytes), m_cursor(options.read) {}

Result<bool> JsonlReader::next(JsonlRecord& record) {
  if (m_error) return *m_error;
  if (m_done) return false;
  if (!m_started) {
    m_started = true;
    if (!m_window.at_eof()) {
      if (auto r = m_window.advance(0); !r) {
        m_error = r.error();
        return *m_error;
      }
    }
  }
  for (;;) {
    const std::string_view text = m_window.text();
    const char* const begin = text.data() + m_pos;
    const auto avail = text.size() - m_pos;
    const void* nl = avail == 0 ? nullptr : std::memchr(begin, '\n', avail);
    if (nl == nullptr && !m_window.at_eof()) {
      // The line continues past the window: keep it and read more.
      if (auto r = m_window.advance(m_pos); !r) {
        m_error = r.error();
        return *m_error;
      }
      m_pos = 0;
      continue;
    }
    const bool terminated = nl != nullptr;
    const std::size_t len = terminated ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : avail;
    const std::uint64_t line = m_line;
    const std::uint64_t offset = m_window.offset() + m_pos;
    m_cursor.reset(std::string_view(begin, len), offset, TextPosition{line, 1});
    m_pos += len + (terminated ? 1 : 0);
    ++m_line;
    if (m_cursor.peek() < 0) {  // blank line
      if (!terminated) {
        m_done = true;
        return false;
      }
      continue;
    }
    bool ok = m_cursor.parse_value(record.value);
    if (ok && m_cursor.peek() >= 0) ok = m_cursor.fail_here("unexpected data after the JSON value");
    if (!ok) {
      if (!terminated) {
        m_incomplete = m_cursor.error();
        m_done = true;
        return false;
      }
      m_error = m_cursor.error();
      return *m_error;
    }
    record.line = line;
    record.offset = offset;
    if (!terminated) m_done = true;
    return true;
  }
}

}  // namespace msdump::pyjson
