#pragma once
// Writes a compare table as an .xlsx workbook (msdump compare --xlsx; docs/compare.md "XLSX"),
// through libxlsxwriter in its constant-memory mode (rows go to disk as they are written).
// One sheet "Sheet1" with a bold header line; more than 1,048,500 data rows: sheets "part_0",
// "part_1", ... of at most that many rows, each with the header.
// Cells keep their type: integers and floats are numeric cells (a double: integers beyond 2^53
// lose their last digits, as in Excel itself; libxlsxwriter stores 16 significant digits),
// bools boolean cells, texts string cells (never formulas, so no formula-injection defence is
// needed). xlsx has no infinity and no NaN: a float +-inf is written as the string "inf" /
// "-inf" (the " inf" of the CSV is not used) and a float NaN leaves the cell empty.
// A text longer than Excel's 32,767 characters is cut to that many (the count is returned).

#include <cstddef>
#include <string>
#include <vector>

#include "compare/table.h"
#include "core/atomic_file.h"
#include "core/result.h"

namespace msdump::compare {

inline constexpr std::size_t k_xlsx_rows_per_sheet = 1'048'500;
inline constexpr std::size_t k_xlsx_max_text_chars = 32'767;

struct XlsxOptions {
  std::size_t rows_per_sheet = k_xlsx_rows_per_sheet;
  Overwrite overwrite = Overwrite::yes;
};

struct XlsxWritten {
  std::string path;
  std::vector<std::string> sheets;   // sheet names, in order
  std::size_t truncated_cells = 0;   // texts cut to k_xlsx_max_text_chars
};

// Writes the workbook to a temporary name beside `path` and renames it over `path` when it is
// complete (a failure leaves nothing). Fails (io) naming the file.
Result<XlsxWritten> write_xlsx(const TableView& view, const std::string& path, const XlsxOptions& options = {});

// The sheet names for `rows` data rows: {"Sheet1"} or "part_0", "part_1", ...
std::vector<std::string> xlsx_sheet_names(std::size_t rows, std::size_t rows_per_sheet);

}  // namespace msdump::compare
