#pragma once
// JsonCursor: the Python-compatible JSON parser engine behind parse_json() (json_reader.h), the
// streaming dump reader (dump_json_stream.h). It walks a
// window of text, builds Values, tracks line/column as it goes, and can stop and resume: when a
// value runs into the end of the window, failed_at_end() says that more bytes could fix it,
// and the caller may restore() a checkpoint, rebase() onto a longer window, and parse again.
//
// Accepted syntax is exactly Python's json.loads (strict=True) for valid UTF-8 input:
//   - NaN, Infinity, -Infinity tokens; whitespace is space, \t, \n, \r;
//   - numbers -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?; without '.'/exponent they are
//     Python ints (int64, else Kind::big_integer keeping the text), else floats (correctly
//     rounded; overflow gives +-Infinity and underflow +-0.0 as Python's float() does);
//   - strings: no raw control characters (< 0x20), escapes \" \\ \/ \b \f \n \r \t \uXXXX;
//     surrogate-pair escapes combine into one code point;
//   - duplicate object keys are all kept, in order.
// Differences from Python, reported as errors: invalid UTF-8 and lone surrogate escapes (Python
// would produce a str that cannot be UTF-8), nesting deeper than ReadOptions::max_depth (a
// 100000-deep input is an error, never a stack overflow).
//
// Why not simdjson (docs/performance.md "Hand-written JSON parser, not simdjson"): fed into the
// same Value tree, simdjson On-Demand won most runs on whole in-memory documents but lost most
// entry by entry, which is how large dumps are read; building Values dominates both, and this
// parser executes fewer instructions. simdjson would also have needed a second parser for
// exact line/column messages, resumable parsing across read windows, and a padded copy of
// unpadded input. NaN/Infinity are ordinary tokens here.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "pyjson/json_value.h"
#include "pyjson/size_hints.h"
#include "pyjson/text_position.h"

namespace msdump::pyjson {

struct ReadOptions {
  // Containers nested deeper than this are an error (msprobe itself stops at 400).
  std::size_t max_depth = 512;
  // Compare the keys of every object as it closes (while they are in cache), for
  // JsonCursor::saw_duplicate_keys(); off, that answer is always false.
  bool note_duplicate_keys = false;
  // Every array and object is parsed into a vector reserved by a guess from the containers
  // closed before it at the same depth (SizeHints). On, spare capacity is given back (the
  // vector is shrunk to fit: trees kept for long, whole documents); off, a container may keep
  // it (up to the guess, under 1 KiB, or up to half of a larger vector grown by doubling),
  // which saves a reallocation and a move of its items (short-lived trees: the verifier's
  // entries).
  bool exact_capacity = true;
};

class EntryMatcher;

class JsonCursor {
 public:
  // A position to return to, e.g. the start of an entry that did not fit in the window.
  struct Checkpoint {
    std::size_t pos;
    std::uint64_t line;
    std::size_t line_start;
    std::uint64_t column_base;
  };

  explicit JsonCursor(ReadOptions options = {});

  // Starts on `text`, whose byte 0 is at absolute byte offset `base_offset` and at `base` in
  // the whole input. Clears any failure.
  void reset(std::string_view text, std::uint64_t base_offset = 0, TextPosition base = {});
  // The window moved: byte 0 of `text` is byte `shift` of the previous window (the bytes from
  // `shift` on were kept, more may follow). `at_shift` is position_at_index(shift), taken
  // before the old bytes were dropped. pos() must be >= shift. Offsets and line/column stay
  // absolute.
  void rebase(std::string_view text, std::size_t shift, TextPosition at_shift);
  // Line/column of window index `index` (on the current line, at or after the last
  // position() asked for).
  TextPosition position_at_index(std::size_t index) const { return position_at(m_begin + index); }

  // Skips whitespace and returns the next byte (0-255), or -1 at the end of the window.
  int peek();
  // Consumes the byte peek() returned (never a newline).
  void advance() { ++m_p; }
  bool at_end() const { return m_p == m_end; }

  // Current position in the window, as an index, an absolute byte offset and line/column.
  std::size_t pos() const { return static_cast<std::size_t>(m_p - m_begin); }
  std::uint64_t offset() const { return m_base_offset + pos(); }
  // (Also moves the column anchor to pos(), so that asking for the position of every entry of
  // a single-line document costs O(distance) rather than O(line length).)
  TextPosition position();
  std::string_view text() const { return {m_begin, static_cast<std::size_t>(m_end - m_begin)}; }

  Checkpoint checkpoint() const;
  void restore(const Checkpoint& c);

  // Parses the value at pos() (leading whitespace skipped) into `out`; `depth` = containers
  // already open around it. Returns false on failure (see error()). Offsets of all values are
  // absolute.
  bool parse_value(Value& out, std::size_t depth = 0);
  // Starts on `token`, which a scanner has delimited as one number token, and reads it into
  // `out` as parse_value would (offset 0), without its dispatch and whitespace; false (see
  // error()) when it is not exactly one number.
  bool parse_number_token(std::string_view token, Value& out);
  // Parses the string at pos(), which must be '"', into `out`. Returns false on failure.
  bool parse_string(std::string& out);
  // At '{' or '[' (as peek() returned): moves past the container by its brackets alone
  // (skip_json_container in container_skip.h: strings and escapes respected, nothing else
  // validated) and sets `text` to its bytes; lines advance as parse_value would advance them.
  // When the container does not close in the window, fails as a value cut short does
  // (failed_at_end()). A caller that needs the value parses `text` (the verifier's workers).
  bool skip_container(std::string_view& text);
  // The same for a value `matcher` recognises (entry_matcher.h): false, with the cursor where it
  // was and no error set, when it does not.
  bool skip_matched(EntryMatcher& matcher, std::string_view key, std::string_view& text);
  // With ReadOptions::note_duplicate_keys: whether an object of the last parse_value() (at any
  // depth) has a key more than once.
  bool saw_duplicate_keys() const { return m_duplicate_keys; }

  // Records a failure at pos(): "unexpected end of input, expected X" at the end of the
  // window, else "expected X, found 'c'". Always returns false.
  bool fail_expected(std::string_view expected);
  // Records a failure with a given message at pos(). Always returns false.
  bool fail_here(std::string what);

  // After a failure: true if it happened because the window ended (more input could fix it).
  bool failed_at_end() const { return m_fail_at_end; }
  // After a failure: where and what, as an Error "line L, column C: <what>".
  Error error() const;
  TextPosition failure_position() const { return m_fail_position; }
  std::uint64_t failure_offset() const { return m_fail_offset; }

 private:
  void skip_ws();
  void skip_ws_slow();
  const char* skip_plain(const char* q) const;  // past bytes a string copies verbatim
  bool value(Value& out, std::size_t depth);
  bool parse_object(Value& out, std::size_t depth);
  bool parse_array(Value& out, std::size_t depth);
  bool parse_number(Value& out);
  const char* scan_digits(const char* p, std::uint64_t& mantissa, int& ndigits) const;
  bool parse_literal(std::string_view literal);
  bool parse_escape(const char*& q, std::string& out);
  bool fail_at(const char* p, std::string what, bool at_end = false);
  TextPosition position_at(const char* p) const;
  std::string describe_found(const char* p) const;

  ReadOptions m_options;
  const char* m_begin = nullptr;
  const char* m_end = nullptr;
  const char* m_p = nullptr;
  std::uint64_t m_base_offset = 0;
  std::uint64_t m_line = 1;
  // Column anchor: a point on the current line (its start, the window start, or a position
  // asked for) and the number of code points of the line before it.
  const char* m_line_start = nullptr;
  std::uint64_t m_column_base = 0;

  // Containers are parsed in place into a vector reserved by these hints (see
  // ReadOptions::exact_capacity). Caps keep a reserved block within glibc's per-thread cache
  // (blocks up to 1032 bytes).
  SizeHints m_array_hints{1024 / sizeof(Value)};
  SizeHints m_object_hints{1024 / sizeof(Member)};
  bool m_duplicate_keys = false;

  std::string m_fail_what;
  TextPosition m_fail_position;
  std::uint64_t m_fail_offset = 0;
  bool m_fail_at_end = false;
};

}  // namespace msdump::pyjson
