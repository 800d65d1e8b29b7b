#include "pyjson/dump_json_stream.h"

#include "pyjson/json_writer.h"

namespace msdump::pyjson {

namespace {
constexpr std::uint64_t k_error_context_bytes = 32;
}  // namespace

DumpJsonStream::DumpJsonStream(const ByteSource& source, DumpStreamOptions options)
    : m_options(options), m_window(source, options.buffer_bytes), m_cursor(options.read) {}

Result<bool> DumpJsonStream::next(DumpEvent& event) {
  if (m_state == State::failed) return m_error;
  if (!m_started) {
    m_started = true;
    if (!m_window.at_eof()) {
      if (auto r = m_window.advance(0); !r) {
        m_state = State::failed;
        m_error = r.error();
        return m_error;
      }
    }
    m_cursor.reset(m_window.text(), m_window.offset());
    if (m_window.text().starts_with("\xEF\xBB\xBF")) {
      m_state = State::failed;
      m_error = invalid_input("line 1, column 1: unexpected UTF-8 byte order mark");
      return m_error;
    }
  }
  for (;;) {
    const JsonCursor::Checkpoint checkpoint = m_cursor.checkpoint();
    const State state = m_state;
    switch (step(event)) {
      case Step::event: return true;
      case Step::end: return false;
      case Step::error:
        m_state = State::failed;
        m_error = m_cursor.error();
        return m_error;
      case Step::need_more: break;
    }
    // The step ran into the end of the window: re-read from where it started, with more bytes.
    m_cursor.restore(checkpoint);
    m_state = state;
    const TextPosition at_keep = m_cursor.position_at_index(checkpoint.pos);
    if (auto r = m_window.advance(checkpoint.pos); !r) {
      m_state = State::failed;
      m_error = r.error();
      return m_error;
    }
    m_cursor.rebase(m_window.text(), checkpoint.pos, at_keep);
  }
}

// Moves past what stands between an object's members and the next key: ',' after an earlier
// member, nothing before the first. False (the cursor's error set) when the key's '"' is not there.
bool DumpJsonStream::at_member_key(bool first) {
  if (!first) {
    if (m_cursor.peek() != ',') {
      m_cursor.fail_expected("',' or '}' after an object member");
      return false;
    }
    m_cursor.advance();
    if (m_cursor.peek() != '"') {
      m_cursor.fail_expected("a string key in double quotes");
      return false;
    }
  } else if (m_cursor.peek() != '"') {
    m_cursor.fail_expected("a string key in double quotes or '}'");
    return false;
  }
  return true;
}

DumpJsonStream::Step DumpJsonStream::failure() {
  if (m_window.at_eof()) return Step::error;
  if (m_cursor.failed_at_end()) return Step::need_more;
  // A real error, but its message quotes up to 16 bytes after the failure point: read on, so
  // that it is the same message as with the whole file in memory.
  const std::uint64_t window_end = m_window.offset() + m_window.text().size();
  return m_cursor.failure_offset() + k_error_context_bytes > window_end ? Step::need_more : Step::error;
}

// After a member or entry value: the next delimiter must be in the window, or a number at the
// window's end might continue in the next bytes.
DumpJsonStream::Step DumpJsonStream::expect_value_end() {
  if (m_cursor.peek() < 0 && !m_window.at_eof()) return Step::need_more;
  return Step::event;
}

DumpJsonStream::Step DumpJsonStream::step(DumpEvent& event) {
  switch (m_state) {
    case State::start:
      if (m_cursor.peek() != '{') {
        m_cursor.fail_expected("'{' (a dump.json document is an object)");
        return failure();
      }
      m_cursor.advance();
      m_state = State::top_first;
      return step(event);
    case State::top_first:
    case State::top_next: {
      const int c = m_cursor.peek();
      if (c == '}') {
        m_cursor.advance();
        m_state = State::trailer;
        return step(event);
      }
      if (!at_member_key(m_state == State::top_first)) return failure();
      return member(event);
    }
    case State::data_first:
    case State::data_next: {
      const int c = m_cursor.peek();
      if (c == '}') {
        event.type = DumpEvent::Type::data_end;
        event.is_raw = false;
        event.key.clear();
        event.value = Value::null();
        event.duplicate_keys = false;
        event.offset = m_cursor.offset();
        event.position = m_cursor.position();
        m_cursor.advance();
        m_state = State::top_next;
        return Step::event;
      }
      if (!at_member_key(m_state == State::data_first)) return failure();
      return entry(event);
    }
    case State::trailer:
      if (m_cursor.peek() < 0) {
        if (!m_window.at_eof()) return Step::need_more;
        m_state = State::done;
        return Step::end;
      }
      m_cursor.fail_here("unexpected data after the JSON document");
      return Step::error;
    case State::done: return Step::end;
    case State::failed: return Step::error;
  }
  return Step::error;
}

// At the '"' of a top-level key.
DumpJsonStream::Step DumpJsonStream::member(DumpEvent& event) {
  event.is_raw = false;
  event.offset = m_cursor.offset();
  event.position = m_cursor.position();
  if (!m_cursor.parse_string(event.key)) return failure();
  if (m_cursor.peek() != ':') {
    m_cursor.fail_expected("':' after an object key");
    return failure();
  }
  m_cursor.advance();
  if (event.key == "data" && m_cursor.peek() == '{') {
    m_cursor.advance();
    event.type = DumpEvent::Type::data_begin;
    event.value = Value::null();
    event.duplicate_keys = false;
    m_state = State::data_first;
    return Step::event;
  }
  if (!value(event, m_options.raw_members, 1)) return failure();
  event.type = DumpEvent::Type::member;
  m_state = State::top_next;
  return expect_value_end();
}

// At the '"' of an entry name inside "data".
DumpJsonStream::Step DumpJsonStream::entry(DumpEvent& event) {
  event.offset = m_cursor.offset();
  event.position = m_cursor.position();
  if (!m_cursor.parse_string(event.key)) return failure();
  if (m_cursor.peek() != ':') {
    m_cursor.fail_expected("':' after an object key");
    return failure();
  }
  m_cursor.advance();
  if (!value(event, m_options.raw_entries, 2)) return failure();
  event.type = DumpEvent::Type::entry;
  m_state = State::data_next;
  return expect_value_end();
}

// The value after a member's ':': parsed into event.value, or with `raw`, when it is an object
// or array, passed over and handed over as text. False (the cursor's error set) on failure.
bool DumpJsonStream::value(DumpEvent& event, bool raw, std::size_t depth) {
  event.is_raw = false;
  event.matched = false;
  const int c = raw ? m_cursor.peek() : -1;
  if (c == '{' || c == '[') {
    event.raw_offset = m_cursor.offset();
    event.raw_position = m_cursor.position();
    event.matched = m_options.matcher != nullptr && depth == 2 && m_cursor.skip_matched(*m_options.matcher, event.key, event.raw);
    if (!event.matched && !m_cursor.skip_container(event.raw)) return false;
    event.is_raw = true;
    event.value = Value::null();
    event.duplicate_keys = false;
    return true;
  }
  if (!m_cursor.parse_value(event.value, depth)) return false;
  event.duplicate_keys = m_cursor.saw_duplicate_keys();
  return true;
}

void write_event(JsonWriter& w, const DumpEvent& event) {
  switch (event.type) {
    case DumpEvent::Type::member:
    case DumpEvent::Type::entry:
      w.key(event.key);
      w.write(event.value);
      break;
    case DumpEvent::Type::data_begin:
      w.key(event.key);
      w.begin_object();
      break;
    case DumpEvent::Type::data_end: w.end_object(); break;
  }
}

}  // namespace msdump::pyjson
