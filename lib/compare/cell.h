#pragma once
// One cell of a compare table, typed the way msprobe's pandas table holds it: a text, a Python
// int, a Python float or a bool. The type decides how the cell is written (csv_writer.h: floats
// as Python's repr, float +-inf as " inf" / " -inf"; xlsx_writer.h: numbers and bools as typed
// cells) and how the statistics rules read it (stats_diff.h: "equal as text" is Python's str()).

#include <cstdint>
#include <string>
#include <string_view>

namespace msdump::compare {

class Cell {
 public:
  enum class Kind : std::uint8_t { text, integer, floating, boolean };

  Cell() = default;  // the empty text
  static Cell text(std::string s) { Cell c; c.m_text = std::move(s); return c; }
  // A text cell that holds `s` in the cell itself when it fits, without an allocation: for the
  // short texts made per row (statistics differences, "N/A").
  static Cell short_text(std::string_view s);
  // The same for a text that holds no byte a CSV field quotes (, " LF CR) and no ';', and that
  // starts with a digit, a letter or a '-' followed by a digit or "inf" (a number's str(), "N/A",
  // "Diff"): a writer may copy it as it is (is_plain_text).
  static Cell plain_text(std::string_view s) {
    Cell c = short_text(s);
    c.m_plain = true;
    return c;
  }
  // A text cell that borrows `s` instead of owning a copy: for a row's cells handed to a writer,
  // which uses them before the text they view goes away.
  static Cell view(std::string_view s) { Cell c; c.m_view = s; c.m_borrowed = true; return c; }
  // `c` with its text (if any) borrowed.
  static Cell view_of(const Cell& c) { return c.as_text().empty() ? c : c.borrowed(); }
  static Cell integer(std::int64_t v) { Cell c; c.m_kind = Kind::integer; c.m_int = v; return c; }
  // A Python int outside int64, kept as its decimal digits.
  static Cell big_integer(std::string digits) { Cell c; c.m_kind = Kind::integer; c.m_text = std::move(digits); c.m_big = true; return c; }
  static Cell floating(double v) { Cell c; c.m_kind = Kind::floating; c.m_float = v; return c; }
  // A float cell that keeps its str() text, made once here, for cells read more than once (a
  // row's statistics: compared, then written).
  static Cell floating_kept(double v);
  // In place, for cells reused row after row: this cell becomes floating_kept(v), or the empty
  // text, keeping its text buffer (no temporary cell made and moved in).
  void set_floating_kept(double v);
  // In place, the same for plain_text(s).
  void set_plain_text(std::string_view s);
  void clear();
  static Cell boolean(bool v) { Cell c; c.m_kind = Kind::boolean; c.m_bool = v; return c; }

  Kind kind() const { return m_kind; }
  bool is_text() const { return m_kind == Kind::text; }
  bool is_number() const { return m_kind == Kind::integer || m_kind == Kind::floating; }
  // Text cells (and big integers' digits; a kept float's str()).
  std::string_view as_text() const {
    if (m_borrowed) return m_view;
    if (m_kept_size != 0) return {m_kept, m_kept_size};
    return m_text;
  }
  // Whether as_text() is held in the cell itself (a short text, a kept float's str()): then
  // k_inline_bytes are readable from as_text().data(), so a writer may copy that many at once.
  bool text_inline() const { return !m_borrowed && m_kept_size != 0; }
  static constexpr std::size_t k_inline_bytes = 32;
  bool is_big_integer() const { return m_big; }
  bool is_plain_text() const { return m_plain; }
  std::int64_t as_int() const { return m_int; }
  double as_float() const { return m_float; }
  bool as_bool() const { return m_bool; }
  // The value of a number cell as a float64 (a big integer through its digits).
  double to_double() const;

  // Python's str() of the value: "1.0", "-0.0", "inf", "nan", "15", "True", or the text itself.
  std::string str() const;
  // str() without making it when the cell holds it already (texts, big integers, kept floats);
  // empty otherwise.
  std::string_view kept_str() const { return m_kind == Kind::boolean || (m_kind == Kind::integer && !m_big) ? std::string_view() : as_text(); }
  void append_str(std::string& out) const;

  bool operator==(const Cell& o) const;

 private:
  Kind m_kind = Kind::text;
  bool m_big = false;
  bool m_bool = false;
  bool m_borrowed = false;  // the text is m_view, not m_text
  bool m_plain = false;     // made by plain_text
  std::uint8_t m_kept_size = 0;  // a kept float's str() or a short text is m_kept[0, m_kept_size)
  std::int64_t m_int = 0;
  double m_float = 0.0;
  std::string m_text;
  std::string_view m_view;
  char m_kept[k_inline_bytes]{};  // (>= pyjson::k_max_python_float_chars)

  // A text cell's storage: `s` in m_kept when it fits, else in m_text (the cell holds no text).
  void store_text(std::string_view s);

  Cell borrowed() const {
    if (m_borrowed) return *this;
    Cell c;
    c.m_kind = m_kind;
    c.m_big = m_big;
    c.m_bool = m_bool;
    c.m_int = m_int;
    c.m_float = m_float;
    c.m_view = as_text();
    c.m_borrowed = true;
    return c;
  }
};

// Python's str() of a float64 written to `out` (room for pyjson::k_max_python_float_chars bytes):
// repr for finite values, "inf", "-inf", "nan". Returns the end of the text.
char* format_float_str(char* out, double x);

// msprobe's fixed cell texts.
inline constexpr std::string_view k_na = "N/A";
inline constexpr std::string_view k_nan = "Nan";
inline constexpr std::string_view k_none = "None";
inline constexpr std::string_view k_unsupported = "unsupported";
inline constexpr std::string_view k_shape_unmatched = "shape unmatched";

}  // namespace msdump::compare
