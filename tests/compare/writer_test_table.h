#pragma once
// A TableView over cells held in memory, for the writer tests.

#include <string>
#include <utility>
#include <vector>

#include "compare/table.h"

namespace msdump::compare::testing {

class VectorTable final : public TableView {
 public:
  VectorTable(std::vector<std::string> header, std::vector<std::vector<Cell>> rows)
      : m_header(std::move(header)), m_rows(std::move(rows)) {}
  const std::vector<std::string>& header() const override { return m_header; }
  std::size_t row_count() const override { return m_rows.size(); }
  void emit(std::size_t i, CellSink& sink) const override {
    for (const auto& c : m_rows[i]) sink.cell(c);
  }

 private:
  std::vector<std::string> m_header;
  std::vector<std::vector<Cell>> m_rows;
};

}  // namespace msdump::compare::testing
