#pragma once
// DumpJsonStream: reads a dump.json-like document
//   {"task": ..., "level": ..., "framework": ..., "dump_data_dir": ..., "data": {"<entry>": {...}, ...}}
// from a ByteSource in bounded memory: one entry (plus the read buffer) at a time, so verifying
// a 1 GB dump never holds the whole tree. Events come in document order:
//
//   member      a top-level member other than an object-valued "data" (known or unknown key,
//               any position; the caller decides what is expected)
//   data_begin  the key "data" whose value is an object
//   entry       one member of "data": key = entry name, value = the entry
//   data_end    the closing '}' of "data"
//
// then next() returns false after the closing '}' of the document. Key order variations,
// unknown keys, duplicate keys and a missing "data" are reported as they come, never errors.
// Syntax errors and truncated files fail with "line L, column C: <what>" (the caller prefixes
// the file name), e.g. "line 9031, column 6: unexpected end of input, expected ',' or '}' after
// an object member".
//
// Usage:
//   DumpJsonStream stream(source);
//   DumpEvent ev;
//   for (;;) {
//     auto more = stream.next(ev);
//     if (!more) return more.error().with_context("reading '" + path + "'");
//     if (!*more) break;
//     ...
//   }

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/byte_source.h"
#include "core/result.h"
#include "pyjson/entry_matcher.h"
#include "pyjson/json_cursor.h"
#include "pyjson/json_value.h"
#include "pyjson/source_window.h"
#include "pyjson/text_position.h"

namespace msdump::pyjson {

struct DumpStreamOptions {
  // Initial read buffer; grows when one entry does not fit.
  std::size_t buffer_bytes = SourceWindow::k_default_buffer_bytes;
  ReadOptions read;
  // Entries whose value is an object or array are not parsed: the stream moves past them by
  // their brackets (JsonCursor::skip_container) and hands over their text (DumpEvent::raw),
  // for the caller to parse elsewhere, e.g. on other threads (dump/entry_workers.h). Their
  // text is checked only as far as brackets and strings go: whoever parses it finds any other
  // syntax error. Everything else (keys, separators, header members, the trailer) is parsed
  // and checked as usual, and positions are the same as without this option.
  bool raw_entries = false;
  // With raw_entries: an entry whose value this recognises is passed over where it says the
  // value ends (DumpEvent::matched), with no bracket pass.
  EntryMatcher* matcher = nullptr;
  // The same for top-level members other than an object-valued "data": a member whose value
  // is an object or array is handed over as text (DumpEvent::raw), passed by its brackets. For
  // documents that are one object of such members, e.g. stack.json.
  bool raw_members = false;
};

struct DumpEvent {
  enum class Type { member, data_begin, entry, data_end };
  Type type = Type::member;
  std::string key;        // member key, "data", or entry name ("" for data_end)
  Value value;            // member value or entry; null for data_begin / data_end
  std::uint64_t offset = 0;  // byte offset of the key's opening quote (data_end: of its '}')
  TextPosition position;     // line/column of `offset`
  // With ReadOptions::note_duplicate_keys: an object in `value` (at any depth) repeats a key.
  bool duplicate_keys = false;
  // With DumpStreamOptions::raw_entries (raw_members), for an entry (member) whose value is an
  // object or array: its text (valid until the next call to next(); `value` is then null), the
  // absolute offset of its first byte, and that byte's line/column.
  bool is_raw = false;
  bool matched = false;  // (DumpStreamOptions::matcher) the matcher recognised `raw` (valid JSON)
  std::string_view raw;
  std::uint64_t raw_offset = 0;
  TextPosition raw_position;
};

class JsonWriter;

// Writes an event (read without raw_entries) back through `w`, inside the top-level object the
// caller began: replaying a whole stream this way rewrites the document.
void write_event(JsonWriter& w, const DumpEvent& event);

class DumpJsonStream {
 public:
  explicit DumpJsonStream(const ByteSource& source, DumpStreamOptions options = {});

  // Reads the next event into `event` (its previous contents are overwritten, so one event
  // object can be reused). Returns true for an event, false once the document has ended
  // (nothing but whitespace may follow it). Fails on a syntax error, a truncated file, data
  // after the document or a read error; after a failure next() keeps failing.
  Result<bool> next(DumpEvent& event);

  // Bytes held by the read buffer (0 for in-memory sources): the memory bound besides the
  // current event.
  std::size_t buffer_bytes() const { return m_window.buffer_bytes(); }

 private:
  enum class State { start, top_first, top_next, data_first, data_next, trailer, done, failed };
  enum class Step { event, end, need_more, error };
  Step step(DumpEvent& event);
  Step member(DumpEvent& event);
  Step entry(DumpEvent& event);
  bool value(DumpEvent& event, bool raw, std::size_t depth);
  Step expect_value_end();
  Step failure();
  bool at_member_key(bool first);

  DumpStreamOptions m_options;
  SourceWindow m_window;
  JsonCursor m_cursor;
  State m_state = State::start;
  bool m_started = false;
  Error m_error;
};

}  // namespace msdump::pyjson
