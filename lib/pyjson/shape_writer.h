#pragma once
// ShapeWriter: the shape of a text, as core/shape_table.h keys it: a head, then the text with
// chosen runs (number tokens: pyjson/number_tokens.h) cut out, each replaced by a marker of one
// or two bytes. A marker's first byte is >= 0x80, which the texts cut (ASCII) never hold, and
// tells its length; so two texts with equal heads have the same shape exactly when they have the
// same runs cut, with the same markers, and their bytes between the runs are equal.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace msdump::pyjson {

class ShapeWriter {
 public:
  // Starts the shape of `text`, written after `head` into `buffer` (grown as needed, never
  // shrunk: no bytes are cleared per text). Each cut must lie in `text`, after the one before.
  void begin(std::string& buffer, std::string_view head, std::string_view text) {
    // A cut run is at least 1 byte and its marker at most 2, and short runs are copied 32 bytes
    // at a time: room for twice the text and 32 bytes more.
    const std::size_t room = head.size() + 2 * text.size() + 32;
    if (buffer.size() < room) buffer.resize(std::max(room, 2 * buffer.size()));
    m_begin = buffer.data();
    std::memcpy(m_begin, head.data(), head.size());
    m_out = m_begin + head.size();
    m_cut = text.data();
    m_text_end = text.data() + text.size();
  }

  // Replaces the text's bytes [from, to) with `marker` (1 or 2 bytes, the first >= 0x80).
  void cut(const char* from, const char* to, std::string_view marker) {
    copy_run(from);
    *m_out = marker[0];
    if (marker.size() > 1) m_out[1] = marker[1];
    m_out += marker.size();
    m_cut = to;
  }

  // The shape, once the rest of the text is copied; valid until the buffer's next begin.
  std::string_view finish() {
    copy_run(m_text_end);
    return {m_begin, static_cast<std::size_t>(m_out - m_begin)};
  }

 private:
  // The text from the last cut to `to`.
  void copy_run(const char* to) {
    const auto n = static_cast<std::size_t>(to - m_cut);
    if (n <= 32 && m_text_end - m_cut >= 32) std::memcpy(m_out, m_cut, 32);  // (one 32-byte move)
    else std::memcpy(m_out, m_cut, n);
    m_out += n;
  }

  char* m_begin = nullptr;
  char* m_out = nullptr;
  const char* m_cut = nullptr;
  const char* m_text_end = nullptr;
};

}  // namespace msdump::pyjson
