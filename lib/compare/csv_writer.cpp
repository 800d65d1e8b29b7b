#include "compare/csv_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "compare/formula_risk.h"
#include "pyjson/pyfloat.h"

namespace msdump::compare {
namespace {

constexpr std::size_t k_flush_bytes = std::size_t{1} << 20;

enum : unsigned char { k_quote = 1, k_semicolon = 2 };

constexpr std::array<unsigned char, 256> make_byte_classes() {
  std::array<unsigned char, 256> t{};
  t[static_cast<unsigned char>(',')] = k_quote;
  t[static_cast<unsigned char>('"')] = k_quote;
  t[static_cast<unsigned char>('\n')] = k_quote;
  t[static_cast<unsigned char>('\r')] = k_quote;
  t[static_cast<unsigned char>(';')] = k_semicolon;
  return t;
}
constexpr auto k_byte_classes = make_byte_classes();

bool may_start_formula(char c) {
  return c == '+' || c == '-' || c == '=' || c == '%' || c == '@' || c == '\xEF';
}

// CSV text, formatted into a growing buffer that the caller drains.
class CsvText {
 public:
  explicit CsvText(TextBuffer& out) : m_out(out) {}

  void header(const std::vector<std::string>& names) {
    const std::size_t start = m_out.len;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) put(",");
      text_field(names[i]);
    }
    end_line(start, names.size());
  }
  // Row i of `view`, formatted as its cells come.
  void row(const TableView& view, std::size_t i) {
    struct Fields final : CellSink {
      CsvText& csv;
      std::size_t count = 0;
      explicit Fields(CsvText& t) : csv(t) {}
      void cell(const Cell& c) override {
        if (count++ > 0) csv.put(",");
        csv.field(c);
      }
      void text(std::string_view s) override {
        if (count++ > 0) csv.put(",");
        csv.text_field(s);
      }
    };
    const std::size_t start = m_out.len;
    Fields fields(*this);
    view.emit(i, fields);
    end_line(start, fields.count);
  }
  // A row a RowFormat made (its line, LF included).
  void formatted_row(const RowText& row) {
    put(row.text);
    m_neutralised += row.neutralised;
  }
  std::string_view bytes() const { return m_out.text(); }
  void clear() { m_out.len = 0; }
  std::size_t neutralised() const { return m_neutralised; }

 private:
  char* room(std::size_t n) {
    std::string& buf = m_out.bytes;
    if (m_out.len + n > buf.size()) buf.resize(std::max(buf.size() * 2, m_out.len + n));
    return buf.data() + m_out.len;
  }
  void put(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    m_out.len += s.size();
  }
  // A cell's text, copied as one fixed-size block when the cell holds it (Cell::text_inline): no
  // memcpy call for the short texts of every row (statistics, their differences).
  void put_text(const Cell& c) {
    if (!c.text_inline()) return put(c.as_text());
    const std::string_view s = c.as_text();
    std::memcpy(room(Cell::k_inline_bytes), s.data(), Cell::k_inline_bytes);
    m_out.len += s.size();
  }
  void end_line(std::size_t line_start, std::size_t fields) {
    // Python's csv module writes a record that would be a blank line (one empty field) as "",
    // else it would read back as no record.
    if (fields > 0 && m_out.len == line_start) put("\"\"");
    put("\n");
  }
  void field(const Cell& c);
  void float_field(double v);
  void text_field(std::string_view s);

  TextBuffer& m_out;
  std::size_t m_neutralised = 0;
};

void CsvText::field(const Cell& c) {
  switch (c.kind()) {
    case Cell::Kind::text:
      if (c.is_plain_text()) put_text(c);  // (nothing to quote, no formula: cell.h)
      else text_field(c.as_text());
      return;
    case Cell::Kind::integer:
      if (c.is_big_integer()) {
        put(c.as_text());
      } else {
        char* p = room(24);
        m_out.len = static_cast<std::size_t>(std::to_chars(p, p + 24, c.as_int()).ptr - m_out.bytes.data());
      }
      return;
    case Cell::Kind::floating:
      if (!c.kept_str().empty()) put_text(c);  // (a kept float: finite, its repr made)
      else float_field(c.as_float());
      return;
    case Cell::Kind::boolean:
      put(c.as_bool() ? "True" : "False");
      return;
  }
}

void CsvText::float_field(double v) {
  if (std::isnan(v)) return;  // pandas' na_rep: an empty field
  if (std::isinf(v)) {
    put(v > 0 ? " inf" : " -inf");
    return;
  }
  char* p = room(pyjson::k_max_python_float_chars);
  m_out.len = static_cast<std::size_t>(pyjson::format_python_float(p, v) - m_out.bytes.data());
}

#if defined(__SSE2__)
// The byte classes of the 16 bytes at `at`.
unsigned char classes_of_16(const char* at) {
  const auto eq = [](__m128i v, char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  const __m128i quote = _mm_or_si128(_mm_or_si128(eq(v, '"'), eq(v, ',')), _mm_or_si128(eq(v, '\n'), eq(v, '\r')));
  return static_cast<unsigned char>((_mm_movemask_epi8(quote) != 0 ? k_quote : 0) |
                                    (_mm_movemask_epi8(eq(v, ';')) != 0 ? k_semicolon : 0));
}
#endif

// The byte classes (k_quote, k_semicolon) present in `s`: 16 bytes at a time (SSE2), the last
// 16 of a text that has them in one load ending at its end (bytes looked at twice change
// nothing), a shorter text through a table per byte.
unsigned char classes_of(std::string_view s) {
  unsigned char seen = 0;
  const char* p = s.data();
  const char* const end = p + s.size();
#if defined(__SSE2__)
  if (s.size() >= 16) {
    for (; end - p > 16; p += 16) {
      seen |= classes_of_16(p);
      if (seen == (k_quote | k_semicolon)) return seen;
    }
    return seen | classes_of_16(end - 16);
  }
#endif
  for (; p != end; ++p) seen |= k_byte_classes[static_cast<unsigned char>(*p)];
  return seen;
}

void CsvText::text_field(std::string_view s) {
  const unsigned char seen = classes_of(s);
  const bool risky = (((seen & k_semicolon) != 0) || (!s.empty() && may_start_formula(s[0]))) && formula_risk(s);
  if (risky) ++m_neutralised;
  if ((seen & k_quote) == 0) {
    if (risky) put("'");
    put(s);
    return;
  }
  char* p = room(s.size() * 2 + 3);
  char* const start = p;
  *p++ = '"';
  if (risky) *p++ = '\'';
  for (std::string_view rest = s;;) {  // runs up to and including each '"', which is doubled
    const auto quote = rest.find('"');
    const std::size_t run = quote == std::string_view::npos ? rest.size() : quote + 1;
    std::memcpy(p, rest.data(), run);
    p += run;
    if (quote == std::string_view::npos) break;
    *p++ = '"';
    rest.remove_prefix(run);
  }
  *p++ = '"';
  m_out.len += static_cast<std::size_t>(p - start);
}

class CsvRowFormat final : public RowFormat {
 public:
  std::size_t append_row(const TableView& view, std::size_t i, TextBuffer& out) const override {
    CsvText text(out);
    text.row(view, i);
    return text.neutralised();
  }
};

Result<std::unique_ptr<AtomicFile>> create_file(const std::string& path, Overwrite overwrite) {
  if (auto ok = prepare_output_file(path); !ok) return ok.error();
  return AtomicFile::create(path, overwrite);
}

}  // namespace

const RowFormat& csv_row_format() {
  static const CsvRowFormat format;
  return format;
}

std::vector<std::string> csv_part_paths(const std::string& path, std::size_t rows, std::size_t rows_per_file) {
  rows_per_file = std::max<std::size_t>(rows_per_file, 1);
  if (rows <= rows_per_file) return {path};
  const std::filesystem::path p(path);
  const std::string stem = (p.parent_path() / p.stem()).string();
  const std::string ext = p.extension().string();
  std::vector<std::string> out;
  for (std::size_t n = 1; (n - 1) * rows_per_file < rows; ++n) out.push_back(stem + "_part_" + std::to_string(n) + ext);
  return out;
}

Result<CsvWritten> write_csv(const TableView& view, const std::string& path, const CsvOptions& options) {
  const std::size_t rows = view.row_count();
  const std::size_t per_file = std::max<std::size_t>(options.rows_per_file, 1);
  CsvWritten written;
  written.paths = csv_part_paths(path, rows, per_file);
  std::vector<std::unique_ptr<AtomicFile>> files;
  TextBuffer buffer;
  buffer.bytes.resize(std::size_t{2} << 20);
  CsvText text(buffer);
  const bool preformatted = view.row_format() == &csv_row_format();
  for (std::size_t part = 0; part < written.paths.size(); ++part) {
    auto file = create_file(written.paths[part], options.overwrite);
    if (!file) return file.error();
    files.push_back(std::move(*file));
    text.header(view.header());
    const std::size_t end = std::min(rows, (part + 1) * per_file);
    for (std::size_t i = part * per_file; i < end; ++i) {
      const auto row = preformatted ? view.row_text(i) : std::nullopt;
      if (row) text.formatted_row(*row);
      else text.row(view, i);
      if (text.bytes().size() >= k_flush_bytes) {
        files.back()->write(text.bytes());
        text.clear();
      }
    }
    files.back()->write(text.bytes());
    text.clear();
  }
  for (auto& f : files) {
    if (auto ok = f->commit(); !ok) return ok.error();
  }
  written.neutralised_cells = text.neutralised();
  return written;
}

}  // namespace msdump::compare
