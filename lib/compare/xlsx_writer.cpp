#include "compare/xlsx_writer.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <xlsxwriter.h>

namespace msdump::compare {
namespace {

// Owns the workbook until close() (which writes the file); destroying an unclosed workbook
// still closes it, to free it, and removes the half-written temporary file.
class Workbook {
 public:
  Workbook(std::string tmp_path, lxw_workbook* wb) : m_tmp_path(std::move(tmp_path)), m_wb(wb) {}
  ~Workbook() {
    if (m_wb == nullptr) return;
    workbook_close(m_wb);
    std::remove(m_tmp_path.c_str());
  }
  Workbook(const Workbook&) = delete;
  Workbook& operator=(const Workbook&) = delete;
  lxw_workbook* get() const { return m_wb; }
  lxw_error close() { return workbook_close(std::exchange(m_wb, nullptr)); }

 private:
  std::string m_tmp_path;
  lxw_workbook* m_wb;
};

std::string temporary_path(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}.msdump-tmp-{}-x{}", path, ::getpid(), counter.fetch_add(1));
}

// The prefix of `s` holding at most `max_chars` UTF-8 characters.
std::string_view cut_utf8(std::string_view s, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == max_chars) return s.substr(0, i);
  }
  return s;
}

class SheetWriter {
 public:
  explicit SheetWriter(lxw_workbook* wb) : m_bold(workbook_add_format(wb)) { format_set_bold(m_bold); }

  lxw_error header(lxw_worksheet* ws, const std::vector<std::string>& names) {
    for (std::size_t c = 0; c < names.size(); ++c) {
      if (const lxw_error e = text(ws, 0, c, names[c], m_bold); e != LXW_NO_ERROR) return e;
    }
    return LXW_NO_ERROR;
  }
  lxw_error row(lxw_worksheet* ws, lxw_row_t r, const std::vector<Cell>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (const lxw_error e = cell(ws, r, c, cells[c]); e != LXW_NO_ERROR) return e;
    }
    return LXW_NO_ERROR;
  }
  std::size_t truncated() const { return m_truncated; }

 private:
  lxw_error cell(lxw_worksheet* ws, lxw_row_t r, std::size_t c, const Cell& cell) {
    const auto col = static_cast<lxw_col_t>(c);
    switch (cell.kind()) {
      case Cell::Kind::text:
        return text(ws, r, c, cell.as_text(), nullptr);
      case Cell::Kind::integer:
        return worksheet_write_number(ws, r, col, cell.to_double(), nullptr);
      case Cell::Kind::floating: {
        const double v = cell.as_float();
        if (std::isnan(v)) return LXW_NO_ERROR;
        if (std::isinf(v)) return worksheet_write_string(ws, r, col, v > 0 ? "inf" : "-inf", nullptr);
        return worksheet_write_number(ws, r, col, v, nullptr);
      }
      case Cell::Kind::boolean:
        return worksheet_write_boolean(ws, r, col, cell.as_bool() ? 1 : 0, nullptr);
    }
    return LXW_NO_ERROR;
  }
  lxw_error text(lxw_worksheet* ws, lxw_row_t r, std::size_t c, std::string_view s, lxw_format* format) {
    const auto col = static_cast<lxw_col_t>(c);
    const std::string_view cut = cut_utf8(s, k_xlsx_max_text_chars);
    if (cut.size() != s.size()) ++m_truncated;
    m_text.assign(cut);  // (libxlsxwriter reads a NUL-terminated string)
    return worksheet_write_string(ws, r, col, m_text.c_str(), format);
  }

  lxw_format* m_bold;
  std::string m_text;
  std::size_t m_truncated = 0;
};

Error xlsx_error(const std::string& path, lxw_error e) {
  return io_error(fmt::format("writing '{}': {}", path, lxw_strerror(e)));
}

}  // namespace

std::vector<std::string> xlsx_sheet_names(std::size_t rows, std::size_t rows_per_sheet) {
  rows_per_sheet = std::max<std::size_t>(rows_per_sheet, 1);
  if (rows <= rows_per_sheet) return {"Sheet1"};
  std::vector<std::string> out;
  for (std::size_t n = 0; n * rows_per_sheet < rows; ++n) out.push_back("part_" + std::to_string(n));
  return out;
}

Result<XlsxWritten> write_xlsx(const TableView& view, const std::string& path, const XlsxOptions& options) {
  MSDUMP_TRY(prepare_output_file(path));
  std::error_code ec;
  if (options.overwrite == Overwrite::no && std::filesystem::exists(path, ec)) {
    return Error{ErrorCode::exists, fmt::format("'{}' exists (use --force to replace it)", path)};
  }
  const std::size_t rows = view.row_count();
  const std::size_t per_sheet = std::max<std::size_t>(std::min(options.rows_per_sheet, k_xlsx_rows_per_sheet), 1);
  if (view.header().size() > LXW_COL_MAX) {
    return unsupported(
        fmt::format("writing '{}': {} columns, xlsx allows {}", path, view.header().size(), LXW_COL_MAX));
  }
  const std::string tmp = temporary_path(path);
  lxw_workbook_options opts{};
  opts.constant_memory = LXW_TRUE;
  opts.use_zip64 = rows > 500'000 ? LXW_TRUE : LXW_FALSE;  // a sheet's XML may pass 4 GiB
  Workbook wb(tmp, workbook_new_opt(tmp.c_str(), &opts));
  if (wb.get() == nullptr) return io_error(fmt::format("writing '{}': cannot create the workbook", path));

  XlsxWritten written{path, xlsx_sheet_names(rows, per_sheet), 0};
  SheetWriter writer(wb.get());
  std::vector<Cell> cells;
  for (std::size_t s = 0; s < written.sheets.size(); ++s) {
    lxw_worksheet* ws = workbook_add_worksheet(wb.get(), written.sheets[s].c_str());
    if (ws == nullptr) return io_error(fmt::format("writing '{}': cannot add sheet '{}'", path, written.sheets[s]));
    if (const lxw_error e = writer.header(ws, view.header()); e != LXW_NO_ERROR) return xlsx_error(path, e);
    const std::size_t end = std::min(rows, (s + 1) * per_sheet);
    for (std::size_t i = s * per_sheet; i < end; ++i) {
      view.cells(i, cells);
      const auto r = static_cast<lxw_row_t>(i - s * per_sheet + 1);
      if (const lxw_error e = writer.row(ws, r, cells); e != LXW_NO_ERROR) return xlsx_error(path, e);
    }
  }
  if (const lxw_error e = wb.close(); e != LXW_NO_ERROR) {
    std::remove(tmp.c_str());
    return xlsx_error(path, e);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    return io_error(fmt::format("cannot rename '{}' to '{}': {}", tmp, path, std::strerror(err)));
  }
  written.truncated_cells = writer.truncated();
  return written;
}

}  // namespace msdump::compare
