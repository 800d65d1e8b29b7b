#pragma once
// JsonWriter: a streaming writer whose bytes are identical to Python's
//   json.dump(obj, f, indent=1)          (ensure_ascii=True, allow_nan=True)
// which is how msprobe writes dump.json, stack.json and construct.json (dump-format.md §9):
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
// With the std::string& form the caller may drain the buffer at any point (write it to an
// AtomicFile, clear it); the writer keeps no pointers into it.
//
// Misuse of the call sequence (a value where a key is due, end_array closing an object, ...)
// is a programming error and is asserted; invalid UTF-8 in a string or key is an input error,
// remembered and returned by finish().

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
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
  static constexpr std::size_t k_default_chunk_bytes = std::size_t{4} << 20;

  // Appends to `out`, which must outlive the writer.
  explicit JsonWriter(std::string& out);
  // Buffers internally and calls `sink` whenever about `chunk_bytes` are ready (at value
  // boundaries) and from finish().
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

  // True when exactly one complete top-level value has been written.
  bool complete() const { return m_done; }
  // Hands the remaining bytes to the sink (sink form). Fails if a string or key was not valid
  // UTF-8 ("string is not valid UTF-8: byte 0xff at offset 3 of \"ab\\u00ff...\"") or the
  // document is incomplete ("JSON document is incomplete: 2 containers still open").
  Result<void> finish();

 private:
  struct Level {
    bool is_object;
    bool has_items;
  };
  void before_value();
  void after_value();
  void newline_indent(std::size_t depth);
  void append_string(std::string_view s);

  std::string m_own;
  std::string* m_out;
  Sink m_sink;
  std::size_t m_chunk_bytes = 0;
  std::vector<Level> m_stack;
  bool m_after_key = false;
  bool m_done = false;
  std::optional<Error> m_error;
};

// Writes `v` into a new string (json.dumps(v, indent=1) bytes). Fails like finish().
Result<std::string> to_python_json(const Value& v);

}  // namespace msdump::pyjson
