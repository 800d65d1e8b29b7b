#include "compare/table.h"

#include "compare/python_repr.h"

namespace msdump::compare {
namespace {

const std::vector<std::string> k_head = {"NPU Name",         "Bench Name",         "NPU Dtype",          "Bench Dtype",
                                         "NPU Tensor Shape", "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad"};
const std::vector<std::string> k_summary = {"Max diff",       "Min diff",        "Mean diff",       "L2norm diff",
                                            "MaxRelativeErr", "MinRelativeErr",  "MeanRelativeErr", "NormRelativeErr"};
const std::vector<std::string> k_tensor = {"Cosine",         "EucDist",
                                           "MaxAbsErr",      "MaxRelativeErr",
                                           "One Thousandth Err Ratio", "Five Thousandths Err Ratio"};
const std::vector<std::string> k_stats = {"NPU max",   "NPU min",   "NPU mean",   "NPU l2norm",
                                          "Bench max", "Bench min", "Bench mean", "Bench l2norm"};
const std::vector<std::string> k_md5 = {"NPU MD5", "BENCH MD5"};
const std::vector<std::string> k_tail = {"Requires_grad Consistent", "Result", "Err_message"};

void append(std::vector<std::string>& out, const std::vector<std::string>& part) {
  out.insert(out.end(), part.begin(), part.end());
}

}  // namespace

std::string_view to_string(Mode m) {
  switch (m) {
    case Mode::summary: return "summary";
    case Mode::md5: return "md5";
    case Mode::tensor: return "tensor";
  }
  return "summary";
}

std::string_view to_string(Level l) {
  switch (l) {
    case Level::pass: return "pass";
    case Level::warning: return "warning";
    case Level::error: return "error";
  }
  return "pass";
}

std::vector<std::string> table_header(Mode mode, bool stack) {
  std::vector<std::string> h = k_head;
  if (mode == Mode::summary) append(h, k_summary);
  if (mode == Mode::tensor) append(h, k_tensor);
  if (mode == Mode::md5) append(h, k_md5);
  else append(h, k_stats);
  append(h, k_tail);
  if (stack) h.emplace_back("NPU_Stack_Info");
  if (mode == Mode::tensor) h.emplace_back("Data_name");
  return h;
}

CompareTableView::CompareTableView(const Table& table)
    : m_table(table), m_header(table_header(table.mode, table.stacks != nullptr && table.stacks->present)) {}

void CompareTableView::cells(std::size_t i, std::vector<Cell>& out) const {
  // The cells view the table's texts (Cell::view): the writer uses them before the next row.
  out.clear();
  const TableRow& tr = m_table.rows[i];
  const Row& n = m_table.npu->rows[tr.npu];
  const Row* b = tr.bench ? &m_table.bench->rows[*tr.bench] : nullptr;
  const auto bench_text = [&](std::string Row::*field) { return Cell::view(b ? std::string_view(b->*field) : k_na); };
  out.push_back(Cell::view(n.name));
  out.push_back(bench_text(&Row::name));
  out.push_back(Cell::view(n.dtype));
  out.push_back(bench_text(&Row::dtype));
  out.push_back(Cell::view(n.shape));
  out.push_back(bench_text(&Row::shape));
  out.push_back(Cell::view(n.requires_grad));
  const std::string_view bench_grad = b ? std::string_view(b->requires_grad) : k_na;
  out.push_back(Cell::view(bench_grad));
  for (const auto& m : tr.metrics) out.push_back(Cell::view_of(m));
  if (m_table.mode == Mode::md5) {
    out.push_back(Cell::view(n.md5));
    out.push_back(bench_text(&Row::md5));
  } else {
    for (const auto& c : n.stats) out.push_back(Cell::view_of(c));
    for (std::size_t k = 0; k < 4; ++k) out.push_back(b ? Cell::view_of(b->stats[k]) : Cell::view(k_na));
  }
  out.push_back(Cell::boolean(n.requires_grad == bench_grad));
  out.push_back(Cell::view(to_string(tr.result)));
  out.push_back(Cell::text(python_json_str_list(tr.messages)));
  if (m_table.stacks != nullptr && m_table.stacks->present) {
    const bool first_of_entry = i == 0 || m_table.npu->rows[m_table.rows[i - 1].npu].entry != n.entry;
    const std::string_view stack = m_table.stacks->per_entry[n.entry];
    out.push_back(Cell::view(first_of_entry && !stack.empty() ? stack : k_na));
  }
  if (m_table.mode == Mode::tensor)
    out.push_back(Cell::text(python_list_repr({n.data_name, b ? b->data_name : std::string(k_na)})));
}

}  // namespace msdump::compare
