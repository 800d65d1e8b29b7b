#include "compare/table.h"

#include <array>

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

const std::vector<std::string>& shared_table_header(Mode mode, bool stack) {
  static const auto k_headers = [] {
    std::array<std::vector<std::string>, 6> h;
    for (const Mode m : {Mode::summary, Mode::md5, Mode::tensor})
      for (const bool s : {false, true}) h[static_cast<std::size_t>(m) * 2 + (s ? 1 : 0)] = table_header(m, s);
    return h;
  }();
  return k_headers[static_cast<std::size_t>(mode) * 2 + (stack ? 1 : 0)];
}

CompareTableView::CompareTableView(const Table& table)
    : m_table(table), m_header(shared_table_header(table.mode, table.stacks != nullptr && table.stacks->present)) {}

void TableView::cells(std::size_t i, std::vector<Cell>& out) const {
  struct Gather final : CellSink {
    std::vector<Cell>& out;
    explicit Gather(std::vector<Cell>& o) : out(o) {}
    void cell(const Cell& c) override { out.push_back(Cell::view_of(c)); }
    void text(std::string_view s) override { out.push_back(Cell::view(s)); }
  } gather(out);
  out.clear();
  emit(i, gather);
}

void CompareTableView::emit(std::size_t i, CellSink& sink) const {
  const TableRow& tr = m_table.rows[i];
  const Row& n = m_table.npu->rows[tr.npu];
  const Row* b = tr.bench ? &m_table.bench->rows[*tr.bench] : nullptr;
  const auto bench_text = [&](std::string Row::*field) { sink.text(b ? std::string_view(b->*field) : k_na); };
  sink.text(n.name);
  bench_text(&Row::name);
  sink.text(n.dtype);
  bench_text(&Row::dtype);
  sink.text(n.shape);
  bench_text(&Row::shape);
  sink.text(n.requires_grad);
  const std::string_view bench_grad = b ? std::string_view(b->requires_grad) : k_na;
  sink.text(bench_grad);
  for (const auto& m : tr.metrics) sink.cell(m);
  if (m_table.mode == Mode::md5) {
    sink.text(n.md5);
    bench_text(&Row::md5);
  } else {
    for (const auto& c : n.stats) sink.cell(c);
    for (std::size_t k = 0; k < 4; ++k) {
      if (b) sink.cell(b->stats[k]);
      else sink.text(k_na);
    }
  }
  sink.cell(Cell::boolean(n.requires_grad == bench_grad));
  sink.text(to_string(tr.result));
  python_json_str_list(tr.messages, m_messages);
  sink.text(m_messages);
  if (m_table.stacks != nullptr && m_table.stacks->present) {
    const bool first_of_entry = i == 0 || m_table.npu->rows[m_table.rows[i - 1].npu].entry != n.entry;
    const std::string_view stack = m_table.stacks->per_entry[n.entry];
    sink.text(first_of_entry && !stack.empty() ? stack : k_na);
  }
  if (m_table.mode == Mode::tensor) {
    m_data_name = python_list_repr({n.data_name, b ? b->data_name : std::string(k_na)});
    sink.text(m_data_name);
  }
}

}  // namespace msdump::compare
