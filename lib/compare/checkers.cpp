#include "compare/checkers.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "compare/row_match.h"
#include "compare/stats_diff.h"

namespace msdump::compare {

namespace {

// Metric columns the checkers read.
constexpr std::size_t k_col_norm_relative_err = 7;  // summary
constexpr std::size_t k_col_cosine = 0;             // tensor
constexpr std::size_t k_col_max_abs_err = 2;        // tensor
constexpr std::size_t k_col_one_thousandth = 4;     // tensor

constexpr std::array<std::string_view, 9> k_all_ignored = {
    "empty", "empty_like", "numpy", "to", "__setitem__", "empty_with_format", "new_empty_strided", "new_empty",
    "empty_strided"};
constexpr std::array<std::string_view, 4> k_inputs_ignored = {
    "_reduce_scatter_base", "_all_gather_base", "all_to_all_single", "batch_isend_irecv"};

const Cell& na_cell() {
  static const Cell c = Cell::text(std::string(k_na));
  return c;
}

struct Item {
  TableRow* row = nullptr;
  const Row* npu = nullptr;
  const Row* bench = nullptr;  // nullptr: no partner
};

struct Group {
  std::vector<Item> inputs;
  std::vector<Item> outputs;
  IgnoreKind ignore = IgnoreKind::none;
  bool cross_framework = false;  // MindSpore / mindtorch NPU against a PyTorch bench
};

void flag(const Item& it, Level level, std::string_view message) {
  it.row->result = max_level(it.row->result, level);
  it.row->messages.emplace_back(message);
}

const Cell& metric(const Item& it, std::size_t column) {
  return column < it.row->metrics.size() ? it.row->metrics[column] : na_cell();
}

const Cell& bench_stat(const Item& it, Stat s) {
  return it.bench != nullptr ? it.bench->stats[static_cast<std::size_t>(s)] : na_cell();
}

// The rows the per-row checkers look at.
template <typename F>
void for_considered(const Group& g, F&& f) {
  if (g.ignore == IgnoreKind::all) return;
  if (g.ignore == IgnoreKind::none) {
    for (const Item& it : g.inputs) f(it);
  }
  for (const Item& it : g.outputs) f(it);
}

// The minimum (from 1.0) or maximum (from 0.0) of a metric over rows, usable cells only.
double extreme(const std::vector<Item>& rows, std::size_t column, bool minimum) {
  double acc = minimum ? 1.0 : 0.0;
  for (const Item& it : rows) {
    const auto v = usable_metric(metric(it, column));
    if (v && (minimum ? *v < acc : *v > acc)) acc = *v;
  }
  return acc;
}

// Python's == between two statistic cells: numbers (and bools) by value, texts by text.
bool python_equal(const Cell& a, const Cell& b) {
  if (a.is_text() || b.is_text()) return a.is_text() && b.is_text() && a.as_text() == b.as_text();
  const auto small_int = [](const Cell& c) {
    return (c.kind() == Cell::Kind::integer && !c.is_big_integer()) || c.kind() == Cell::Kind::boolean;
  };
  const auto int_value = [](const Cell& c) -> std::int64_t {
    return c.kind() == Cell::Kind::boolean ? (c.as_bool() ? 1 : 0) : c.as_int();
  };
  if (small_int(a) && small_int(b)) return int_value(a) == int_value(b);
  if (a.is_big_integer() || b.is_big_integer()) {
    if (a.is_big_integer() && b.is_big_integer()) return a.as_text() == b.as_text();
    if (small_int(a) || small_int(b)) return false;  // a big integer lies outside int64
    return a.to_double() == b.to_double();
  }
  if (small_int(a) || small_int(b)) {  // an int against a float: exactly, as Python does
    const Cell& i = small_int(a) ? a : b;
    const double f = small_int(a) ? b.as_float() : a.as_float();
    if (!(f >= -9.2233720368547758e18 && f < 9.2233720368547758e18) || f != std::trunc(f)) return false;
    return static_cast<std::int64_t>(f) == int_value(i);
  }
  return a.as_float() == b.as_float();
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

void check_inf_nan(const Group& g) {
  for_considered(g, [](const Item& it) {
    if (is_inf_or_nan_cell(bench_stat(it, Stat::max)) || is_inf_or_nan_cell(bench_stat(it, Stat::min))) return;
    const auto& s = it.npu->stats;
    if (is_inf_or_nan_cell(s[static_cast<std::size_t>(Stat::max)]) ||
        is_inf_or_nan_cell(s[static_cast<std::size_t>(Stat::min)])) {
      flag(it, Level::error, k_msg_inf_nan);
    }
  });
}

void check_requires_grad(const Group& g) {
  for_considered(g, [](const Item& it) {
    if (it.bench == nullptr || it.npu->requires_grad.empty() || it.bench->requires_grad.empty()) return;
    if (it.npu->requires_grad != it.bench->requires_grad) flag(it, Level::error, k_msg_requires_grad);
  });
}

void check_scalar_parameters(const Group& g) {
  if (g.ignore != IgnoreKind::none) return;
  for (const Item& it : g.inputs) {
    if (it.bench == nullptr || !contains(it.npu->dtype, "class") || !contains(it.bench->dtype, "class")) continue;
    if (it.npu->shape != "[]") continue;
    if (!python_equal(it.npu->stats[0], it.bench->stats[0])) flag(it, Level::error, k_msg_scalar_params);
  }
}

void check_dtype(const Group& g) {
  for_considered(g, [&g](const Item& it) {
    if (it.bench == nullptr || it.npu->dtype.empty() || it.bench->dtype.empty()) return;
    if (contains(it.bench->name, "qkv") || contains(it.bench->name, "gate_up")) return;
    const bool same = g.cross_framework ? torch_dtype_spelling(it.npu->dtype) == torch_dtype_spelling(it.bench->dtype)
                                        : it.npu->dtype == it.bench->dtype;
    if (!same) flag(it, Level::error, k_msg_dtype);
  });
}

void check_shape(const Group& g) {
  for_considered(g, [](const Item& it) {
    if (it.bench != nullptr && it.npu->shape != it.bench->shape) flag(it, Level::error, k_msg_shape);
  });
}

// Statistics: inputs close (max NormRelativeErr < 0.1) while an output is off by more than 50 %.
void check_norm_relative_err(const Group& g) {
  if (g.ignore != IgnoreKind::none) return;
  if (std::fabs(extreme(g.inputs, k_col_norm_relative_err, false)) >= 0.1) return;
  for (const Item& it : g.outputs) {
    if (std::fabs(convert_percent(metric(it, k_col_norm_relative_err))) > 0.5) {
      flag(it, Level::error, k_msg_norm_rel_err);
    }
  }
}

// Statistics: the outputs' NormRelativeErr over 10 times the inputs' (over 0.1 when inputs are 0).
void check_norm_relative_warn(const Group& g) {
  if (g.ignore != IgnoreKind::none || g.outputs.empty()) return;
  const double in = std::fabs(extreme(g.inputs, k_col_norm_relative_err, false));
  const double out = std::fabs(extreme(g.outputs, k_col_norm_relative_err, false));
  const bool fire = in == 0.0 ? out > 0.1 : out / in > 10.0;
  if (fire) flag(g.outputs.front(), Level::warning, k_msg_norm_rel_warn);
}

void check_one_thousandth(const Group& g) {
  if (g.ignore != IgnoreKind::none || g.outputs.empty()) return;
  const double in = extreme(g.inputs, k_col_one_thousandth, true);
  const double out = extreme(g.outputs, k_col_one_thousandth, true);
  if (in > 0.9 && out < 0.1) flag(g.outputs.front(), Level::error, k_msg_one_thousandth);
}

void check_cosine(const Group& g) {
  if (g.ignore != IgnoreKind::none || g.outputs.empty()) return;
  const double in = extreme(g.inputs, k_col_cosine, true);
  const double out = extreme(g.outputs, k_col_cosine, true);
  if (in > 0.9 && in - out > 0.1) flag(g.outputs.front(), Level::warning, k_msg_cosine);
}

void check_crc(const Group& g) {
  for_considered(g, [](const Item& it) {
    const std::string_view npu = it.npu->md5;
    const std::string_view bench = it.bench != nullptr ? std::string_view(it.bench->md5) : k_na;
    if (npu == bench) return;
    const bool unmatched = npu == k_na || npu == k_nan || bench == k_na || bench == k_nan;
    if (unmatched) {
      flag(it, Level::warning, k_msg_crc_unmatched);
    } else {
      flag(it, Level::error, k_msg_crc_differs);
    }
  });
}

void run_group(Mode mode, const Group& g) {
  switch (mode) {
    case Mode::summary:
      check_inf_nan(g);
      check_norm_relative_err(g);
      break;
    case Mode::tensor:
      check_inf_nan(g);
      check_one_thousandth(g);
      break;
    case Mode::md5:
      check_crc(g);
      return;
  }
  check_requires_grad(g);
  check_scalar_parameters(g);
  check_dtype(g);
  check_shape(g);
  if (mode == Mode::summary) {
    check_norm_relative_warn(g);
  } else {
    check_cosine(g);
  }
}

bool is_text(const Cell& c, std::string_view text) { return c.is_text() && c.as_text() == text; }

// A shape text with a dimension of size 0 ("[2, 0]").
bool has_zero_dimension(std::string_view shape) {
  std::size_t i = 0;
  while (i < shape.size()) {
    if (shape[i] < '0' || shape[i] > '9') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < shape.size() && shape[j] >= '0' && shape[j] <= '9') ++j;
    if (shape.substr(i, j - i) == "0") return true;
    i = j;
  }
  return false;
}

// Why a tensor-mode row has no (or only some) metrics; empty when it has them.
std::string_view tensor_info(const Item& it) {
  const Cell& cosine = metric(it, k_col_cosine);
  if (is_text(cosine, k_shape_unmatched)) return k_info_shape_unmatched;
  if (is_text(cosine, k_na)) return k_info_inf_nan_positions;
  if (!is_text(cosine, k_unsupported)) return {};
  if (!is_text(metric(it, k_col_max_abs_err), k_unsupported)) return k_info_zero_dim;
  if (!it.npu->tensor || !it.bench->tensor) return k_info_not_tensor;
  if (it.npu->data_name == "-1" || it.bench->data_name == "-1") return k_info_tensor_unread;
  if (has_zero_dimension(it.npu->shape)) return k_info_empty_tensor;
  return k_info_tensor_unread;
}

void add_info(Mode mode, const Item& it) {
  if (it.bench == nullptr) {
    it.row->messages.emplace_back(k_info_no_bench);
    return;
  }
  if (mode != Mode::tensor) return;
  if (const std::string_view info = tensor_info(it); !info.empty()) it.row->messages.emplace_back(info);
}

// Row indices of `table` ordered by the NPU row's entry, in table order within an entry.
// The table's rows grouped by entry into `order` (`next`: scratch).
void rows_by_entry(const Table& table, std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& next) {
  const auto& npu_rows = table.npu->rows;
  std::uint32_t last = 0;
  for (const TableRow& r : table.rows) last = std::max(last, npu_rows[r.npu].entry);
  next.assign(static_cast<std::size_t>(last) + 2, 0);
  for (const TableRow& r : table.rows) ++next[npu_rows[r.npu].entry + 1];
  for (std::size_t e = 1; e < next.size(); ++e) next[e] += next[e - 1];
  order.resize(table.rows.size());
  for (std::uint32_t i = 0; i < table.rows.size(); ++i) order[next[npu_rows[table.rows[i].npu].entry]++] = i;
}

// run_checkers' working storage, kept per thread: compare runs it once per entry.
struct CheckerScratch {
  std::vector<std::uint32_t> order, next;
  Group group;
};

}  // namespace

IgnoreKind ignore_kind(std::string_view first_input_row_name) {
  const std::size_t dot = first_input_row_name.find('.');
  if (dot == std::string_view::npos) return IgnoreKind::none;
  std::string_view api = first_input_row_name.substr(dot + 1);
  api = api.substr(0, api.find('.'));
  for (std::string_view name : k_all_ignored) {
    if (api == name) return IgnoreKind::all;
  }
  for (std::string_view name : k_inputs_ignored) {
    if (api == name) return IgnoreKind::inputs;
  }
  return IgnoreKind::none;
}

double convert_percent(const Cell& c) {
  if (!c.is_text()) return 0.0;
  std::string_view s = c.as_text();
  while (!s.empty() && s.front() == '%') s.remove_prefix(1);
  while (!s.empty() && s.back() == '%') s.remove_suffix(1);
  const auto v = parse_python_float(s);
  return v ? *v / 100.0 : 0.0;
}

std::optional<double> usable_metric(const Cell& c) {
  if (!c.is_text()) return c.to_double();
  const std::string_view s = c.as_text();
  if (s.empty() || s.back() != '%') return std::nullopt;  // None, Nan, N/A and other texts
  const auto v = parse_python_float(std::string_view(s).substr(0, s.size() - 1));
  if (!v) return std::nullopt;
  return *v / 100.0;
}

bool is_inf_or_nan_cell(const Cell& c) {
  if (c.kind() == Cell::Kind::floating) return !std::isfinite(c.as_float());
  if (!c.is_text()) return false;
  std::string_view s = c.as_text();
  while (!s.empty() && (s.front() == ' ' || (s.front() >= '\t' && s.front() <= '\r'))) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || (s.back() >= '\t' && s.back() <= '\r'))) s.remove_suffix(1);
  std::string lower(s);
  for (char& ch : lower) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return lower == "inf" || lower == "-inf" || lower == "nan";
}

std::string torch_dtype_spelling(std::string_view dtype) {
  // MindSpore spells dtypes Float32, BFloat16, UInt8, Bool, Complex64: an upper-case letter
  // first, letters and digits only.
  const bool ms = !dtype.empty() && std::isupper(static_cast<unsigned char>(dtype.front())) &&
                  std::all_of(dtype.begin(), dtype.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  if (!ms) return std::string(dtype);
  std::string out = "torch.";
  for (char c : dtype) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void run_checkers(Table& table, const CheckerOptions& options) {
  if (table.rows.empty()) return;
  thread_local CheckerScratch scratch;
  rows_by_entry(table, scratch.order, scratch.next);
  const std::vector<std::uint32_t>& order = scratch.order;
  Group& g = scratch.group;
  for (std::size_t begin = 0; begin < order.size();) {
    const std::uint32_t entry = table.npu->rows[table.rows[order[begin]].npu].entry;
    g.inputs.clear();
    g.outputs.clear();
    std::size_t end = begin;
    for (; end < order.size(); ++end) {
      TableRow& row = table.rows[order[end]];
      const Row& npu = table.npu->rows[row.npu];
      if (npu.entry != entry) break;
      row.result = Level::pass;
      row.messages.clear();
      const Row* bench = row.bench ? &table.bench->rows[*row.bench] : nullptr;
      (contains(npu.name, ".output.") ? g.outputs : g.inputs).push_back(Item{&row, &npu, bench});
    }
    g.ignore = g.inputs.empty() ? IgnoreKind::none : ignore_kind(g.inputs.front().npu->name);
    g.cross_framework = cross_framework(*table.npu, *table.bench);
    run_group(table.mode, g);
    if (!options.msprobe_messages_only) {
      for (const Item& it : g.inputs) add_info(table.mode, it);
      for (const Item& it : g.outputs) add_info(table.mode, it);
    }
    begin = end;
  }
}

}  // namespace msdump::compare
