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

Cell text(std::string_view s) { return Cell::text(std::string(s)); }

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
  out.clear();
  const TableRow& tr = m_table.rows[i];
  const Row& n = m_table.npu->rows[tr.npu];
  const Row* b = tr.bench ? &m_table.bench->rows[*tr.bench] : nullptr;
  const auto bench_text = [&](const std::string& s) { return b ? Cell::text(s) : text(k_na); };
  out.push_back(Cell::text(n.name));
  out.push_back(bench_text(b ? b->name : std::string()));
  out.push_back(Cell::text(n.dtype));
  out.push_back(bench_text(b ? b->dtype : std::string()));
  out.push_back(Cell::text(n.shape));
  out.push_back(bench_text(b ? b->shape : std::string()));
  out.push_back(Cell::text(n.requires_grad));
  const std::string bench_grad = b ? b->requires_grad : std::string(k_na);
  out.push_back(Cell::text(bench_grad));
  for (const auto& m : tr.metrics) out.push_back(m);
  if (m_table.mode == Mode::md5) {
    out.push_back(Cell::text(n.md5));
    out.push_back(bench_text(b ? b->md5 : std::string()));
  } else {
    for (const auto& c : n.stats) out.push_back(c);
    for (const auto& c : (b ? b->stats : std::array<Cell, 4>{text(k_na), text(k_na), text(k_na), text(k_na)}))
      out.push_back(c);
  }
  out.push_back(Cell::boolean(n.requires_grad == bench_grad));
  out.push_back(text(to_string(tr.result)));
  out.push_back(Cell::text(python_json_str_list(tr.messages)));
  if (m_table.stacks != nullptr && m_table.stacks->present) {
    const bool first_of_entry = i == 0 || m_table.npu->rows[m_table.rows[i - 1].npu].entry != n.entry;
    const std::string& stack = m_table.stacks->per_entry[n.entry];
    out.push_back(first_of_entry && !stack.empty() ? Cell::text(stack) : text(k_na));
  }
  if (m_table.mode == Mode::tensor)
    out.push_back(Cell::text(python_list_repr({n.data_name, b ? b->data_name : std::string(k_na)})));
}

}  // namespace msdump::compare
