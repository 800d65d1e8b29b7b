#pragma once
// Writes a compare table as pandas 1.5.3 writes it with DataFrame.to_csv(index=False)
// (docs/compare.md "CSV"): UTF-8 without BOM, a header line, ',' between fields, LF after every
// line, fields quoted only when they contain ',', '"', LF or CR (inner '"' doubled; a line of
// one empty field is written '""', as Python's csv module does).
// Cells: text as is; integers in decimal; floats as Python's repr, except that float +-inf
// becomes " inf" / " -inf" (with the leading space) and float NaN an empty field; bools
// True / False.
//
// A text cell (or header) matching the formula-injection pattern (formula_risk.h) is written
// with a leading apostrophe, the usual defence: a spreadsheet then shows it as text. msprobe
// aborts the compare on such a cell instead; the number of cells treated so is returned.

#include <cstddef>
#include <string>
#include <vector>

#include "compare/table.h"
#include "core/atomic_file.h"
#include "core/result.h"

namespace msdump::compare {

inline constexpr std::size_t k_csv_rows_per_file = 1'000'000;

struct CsvOptions {
  // More data rows than this: files "<stem>_part_1.csv", "<stem>_part_2.csv", ... beside `path`,
  // each with the header and at most this many rows (`path` itself is then not written).
  std::size_t rows_per_file = k_csv_rows_per_file;
  Overwrite overwrite = Overwrite::yes;  // msprobe replaces an existing result file
};

struct CsvWritten {
  std::vector<std::string> paths;     // the files written, in order
  std::size_t neutralised_cells = 0;  // cells written with a leading apostrophe
};

// Writes every file atomically; the files appear together once all are complete (a failure
// leaves none of them). Fails (io) naming the file that could not be written.
Result<CsvWritten> write_csv(const TableView& view, const std::string& path, const CsvOptions& options = {});

// The CSV line of a row (LF included), for a view to make where it makes the row: write_csv
// copies the lines of a view whose row_format() is this one (table.h RowFormat).
const RowFormat& csv_row_format();

// The file names for `rows` data rows: {path} or the "_part_<n>" names.
std::vector<std::string> csv_part_paths(const std::string& path, std::size_t rows, std::size_t rows_per_file);

}  // namespace msdump::compare
