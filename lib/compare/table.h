#pragma once
// The compare table of one pair of dumps, as msprobe's compare lays it out (docs/compare.md
// "Columns"): one TableRow per NPU row, in NPU order, with its bench partner (if any), the
// mode's metric cells and the checkers' verdict. Writers (csv_writer.h, xlsx_writer.h) read it
// through TableView: a header and the cells of row i.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/cell.h"
#include "compare/dump_rows.h"

namespace msdump::compare {

enum class Mode : std::uint8_t { summary, md5, tensor };
std::string_view to_string(Mode m);  // "summary", "md5", "tensor"

enum class Level : std::uint8_t { pass, warning, error };
std::string_view to_string(Level l);  // "pass", "warning", "error"

struct TableRow {
  std::uint32_t npu = 0;                // index into the NPU DumpRows::rows
  std::optional<std::uint32_t> bench;   // its partner in the bench rows
  // summary: Max diff, Min diff, Mean diff, L2norm diff, MaxRelativeErr, MinRelativeErr,
  //          MeanRelativeErr, NormRelativeErr;
  // tensor:  Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio,
  //          Five Thousandths Err Ratio;
  // md5:     none.
  std::vector<Cell> metrics;
  Level result = Level::pass;
  std::vector<std::string_view> messages;  // Err_message, in checker order (the checkers' own
                                          // texts, checkers.h: static)
};

// Stack frames of the NPU side, per entry, already rendered as msprobe's cell (a Python list
// repr); empty string: the entry has no stack.
struct StackCells {
  bool present = false;                 // stack.json was found: the NPU_Stack_Info column exists
  std::vector<std::string_view> per_entry;  // indexed like DumpRows::entries; views of cells
                                            // their owner keeps (StackLookup)
};

struct Table {
  Mode mode = Mode::summary;
  const DumpRows* npu = nullptr;
  const DumpRows* bench = nullptr;
  const StackCells* stacks = nullptr;   // nullptr or !present: no stack column
  std::vector<TableRow> rows;
};

// Takes the cells of one row, in column order, as a view hands them over: no cell is copied
// (the CSV writer formats each as it comes).
class CellSink {
 public:
  virtual void cell(const Cell& c) = 0;
  virtual void text(std::string_view s) = 0;  // a text cell

 protected:
  ~CellSink() = default;
};

// Bytes appended to a reused buffer: `bytes` is grown (doubling) but never shrunk, `len` of it
// are the text, so appending costs no zero-filling of what is then overwritten.
struct TextBuffer {
  std::string bytes;
  std::size_t len = 0;
  std::string_view text() const { return {bytes.data(), len}; }
};

class TableView;

// A writer's text for whole rows (the CSV writer's lines), for a view that makes its rows on
// several threads: the view formats each row on the thread that made it, while the row's cells
// are in that core's cache, and the writer copies the text (docs/performance.md "Compare: rows
// formatted where they are made"). Called from several threads at once: it keeps no state.
class RowFormat {
 public:
  virtual ~RowFormat() = default;
  // Appends the text of row i of `view` to `out`; returns how many of its cells the writer
  // changed for safety (csv_writer.h: cells neutralised).
  virtual std::size_t append_row(const TableView& view, std::size_t i, TextBuffer& out) const = 0;
};

// One row as a RowFormat made it.
struct RowText {
  std::string_view text;
  std::size_t neutralised = 0;
};

// Anything a writer can write: a header and rows of cells.
class TableView {
 public:
  virtual ~TableView() = default;
  virtual const std::vector<std::string>& header() const = 0;
  virtual std::size_t row_count() const = 0;
  // Hands the header().size() cells of row i to `sink`. The texts they view stay valid until
  // the next call.
  virtual void emit(std::size_t i, CellSink& sink) const = 0;
  // The same cells gathered into `out`; text cells view the texts (Cell::view): use them before
  // the next call.
  void cells(std::size_t i, std::vector<Cell>& out) const;

  // The format this view makes its rows' text in (nullptr: none; writers then read cells).
  virtual const RowFormat* row_format() const { return nullptr; }
  // Row i in row_format(), for a writer that reads every row once, in order, by this or by
  // emit(). nullopt: the view cannot give it (emit() then gives the row). The text stays valid
  // until the next call.
  virtual std::optional<RowText> row_text(std::size_t) const { return std::nullopt; }
};

// The columns msprobe writes for `mode` (with NPU_Stack_Info when `stack`).
std::vector<std::string> table_header(Mode mode, bool stack);
// The same, made once per process (a view made per entry shares it).
const std::vector<std::string>& shared_table_header(Mode mode, bool stack);

// TableView over a Table.
class CompareTableView final : public TableView {
 public:
  explicit CompareTableView(const Table& table);
  const std::vector<std::string>& header() const override { return m_header; }
  std::size_t row_count() const override { return m_table.rows.size(); }
  void emit(std::size_t i, CellSink& sink) const override;

 private:
  const Table& m_table;
  const std::vector<std::string>& m_header;
  mutable std::string m_messages, m_data_name;  // the row's composed texts (Err_message, Data_name)
};

}  // namespace msdump::compare
