#pragma once
// JsonWriter: a streaming writer whose bytes are identical to Python's
//   json.dump(obj, f, indent=1)          (ensure_ascii=True, allow_nan=True)
// which is how msprobe writes dump.json, stack.json and construct.json (docs/format.md §9):
// one space of indent per level, items separated by ",\n", keys by ": ", empty {} and []
// inline, every character outside 0x20-0x7E escaped as \uXXXX (lower-case hex, surrogate
// pairs above U+FFFF; \n \r \t \b \f \" \\ use short escapes), ints of any size, floats in
// Python repr (pyfloat.h), NaN/Infinity/-Infinity bare, no final newline.
//
// Usage:
//   std::string buf;
//   pyjson::JsonWriter w(buf);                    // or JsonWriter(sink_callback)
//   w.begin_object(); w.key("task"); w.value("statistics"); ...; w.end_object();
//   MSDUMP_TRY(w.finish());
// The writer formats into its own buffer and hands bytes on (appends them to the string, or
// calls the sink) whenever that buffer fills, on flush() and on finish(). With the
// std::string& form the caller may drain the string between calls (write it to an AtomicFile,
// clear it): the writer keeps no pointers into it, and bytes arrive in order.
//
// Misuse of the call sequence (a value where a key is due, end_array closing an object, ...)
// is a programming error and is asserted; invalid UTF-8 in a string or key is an input error,
// remembered and returned by finish().

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/scalar.h"
#include "pyjson/json_value.h"

namespace msdump::pyjson {

class JsonWriter {
 public:
  // Receives finished bytes, in order (e.g. [&](std::string_view b) { file.write(b); }).
  using Sink = std::function<void(std::string_view)>;
  static constexpr std::size_t k_default_chunk_bytes = std::size_t{1} << 20;
  static constexpr std::size_t k_direct_bytes = std::size_t{64} << 10;

  // Appends to `out`, which must outlive the writer, in steps of `chunk_bytes`.
  explicit JsonWriter(std::string& out, std::size_t chunk_bytes = std::size_t{64} << 10);
  // Calls `sink` with chunks of about `chunk_bytes`.
  explicit JsonWriter(Sink sink, std::size_t chunk_bytes = k_default_chunk_bytes);
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // The next member's key; must be followed by exactly one value (or container).
  void key(std::string_view k);

  void null();
  void value(bool v);
  void value(std::int64_t v);
  void value(std::uint64_t v);
  // Any other integer type (int, unsigned, long long, ...), printed exactly.
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, std::int64_t> && !std::same_as<T, std::uint64_t>)
  void value(T v) {
    if constexpr (std::is_signed_v<T>) {
      value(static_cast<std::int64_t>(v));
    } else {
      value(static_cast<std::uint64_t>(v));
    }
  }
  void value(double v);  // a Python float: always has '.', 'e', or is NaN/Infinity
  void value(std::string_view v);
  void value(const char* v) { value(std::string_view(v)); }
  void value(const std::string& v) { value(std::string_view(v)); }
  void value(const Scalar& v);
  // A Python int given as decimal text (optional '-', digits): written verbatim.
  void raw_integer(std::string_view digits);
  // The whole value, recursively (int vs float from its Kind, members in order, duplicates
  // included).
  void write(const Value& v);

  // Appends items formatted by another JsonWriter at the same depth to the innermost open
  // container: `items` is what that writer produced for them as the first items of its
  // container (each starting with its newline and indentation, separated by ","). A ","
  // is put in front when this container already has items. Empty `items` writes nothing.
  // A writer with a sink hands items of k_direct_bytes or more to it as they are (after what
  // it holds), without copying them into its buffer.
  void raw_items(std::string_view items);

  // Starts a new document in the same buffer (bytes not yet flushed are dropped, the remembered
  // error is cleared); the string or sink stays the same.
  void reset();

  // True when exactly one complete top-level value has been written.
  bool complete() const { return m_done; }
  // Hands every byte formatted so far to the string or the sink.
  void flush();
  // The bytes formatted since the last flush (valid until the next write, flush or reset): a
  // writer that never flushed, because its buffer held everything, needs no copy of them.
  std::string_view buffered() const {
    return std::string_view(m_buffer.get(), static_cast<std::size_t>(m_pos - m_buffer.get()));
  }
  // The input error finish() would report (invalid UTF-8), if any.
  const std::optional<Error>& error() const { return m_error; }
  // flush()es, then fails if a string or key was not valid UTF-8 ("string is not valid UTF-8:
  // byte 0xff at offset 2 of \"ab\\xff\"") or the document is incomplete ("JSON document is
  // incomplete: 2 containers are still open", "... nothing was written").
  Result<void> finish();

 private:
  struct Level {
    bool is_object;
    bool has_items;
  };
  void before_value();
  void after_value() {
    if (m_stack.empty()) m_done = true;
  }
  void newline_indent(std::size_t depth) {
    if (depth < 32) {
      // Copy a fixed 32 bytes (one or two vector stores, no memcpy call) and keep depth + 1.
      static constexpr char k_newline_32[33] = "\n                               ";
      char* o = room(32);
      std::memcpy(o, k_newline_32, 32);
      m_pos = o + depth + 1;
      return;
    }
    newline_indent_deep(depth);
  }
  void newline_indent_deep(std::size_t depth);  // 32 levels and more
  void append_string(std::string_view s);
  [[gnu::noinline]] void append_string_general(std::string_view s);  // any length, escapes
  void append_bytes(const char* p, std::size_t n);
  // Makes room for n more bytes in the buffer (spilling it first if needed); returns m_pos.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(m_end - m_pos) < n) spill(n);
    return m_pos;
  }
  void spill(std::size_t need);

  std::string* m_out = nullptr;
  Sink m_sink;
  std::unique_ptr<char[]> m_buffer;
  char* m_pos = nullptr;
  char* m_end = nullptr;
  std::vector<Level> m_stack;
  bool m_after_key = false;
  bool m_done = false;
  std::optional<Error> m_error;
};

// Writes `v` into a new string (json.dumps(v, indent=1) bytes). Fails like finish().
Result<std::string> to_python_json(const Value& v);

}  // namespace msdump::pyjson
