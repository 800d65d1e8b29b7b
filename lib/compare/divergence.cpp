#include "compare/divergence.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "compare/stats_diff.h"

namespace msdump::compare {
namespace {

// [begin, end) of the table rows of each entry, in table order.
struct EntrySpan {
  std::uint32_t entry;
  std::size_t begin, end;
};

std::vector<EntrySpan> entry_spans(const Table& t) {
  std::vector<EntrySpan> spans;
  spans.reserve(t.npu->entries.size());
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto e = t.npu->rows[t.rows[i].npu].entry;
    if (spans.empty() || spans.back().entry != e) spans.push_back({e, i, i + 1});
    else spans.back().end = i + 1;
  }
  return spans;
}

// Forward entries first, then the others, each in dump order.
std::vector<EntrySpan> execution_order(const Table& t) {
  auto spans = entry_spans(t);
  std::vector<EntrySpan> out;
  out.reserve(spans.size());
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& s : spans)
      if ((entry_kind(t.npu->entries[s.entry]) == EntryKind::forward) == (pass == 0)) out.push_back(s);
  return out;
}

bool same_value(const Cell& a, const Cell& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.to_double(), y = b.to_double();
    return x == y || (std::isnan(x) && std::isnan(y));
  }
  return a.str() == b.str();
}

const char* k_stat_names[] = {"Max", "Min", "Mean", "Norm"};

// What differs between a paired row's two sides ("" when nothing does).
std::string difference(const Table& t, const TableRow& tr) {
  const Row& n = t.npu->rows[tr.npu];
  const Row& b = t.bench->rows[*tr.bench];
  if (n.shape != b.shape) return fmt::format("shape {} vs {}", n.shape, b.shape);
  if (t.mode == Mode::md5) return n.md5 != b.md5 ? fmt::format("md5 {} vs {}", n.md5, b.md5) : std::string();
  for (int i = 0; i < 4; ++i)
    if (!same_value(n.stats[i], b.stats[i]))
      return fmt::format("{} {} vs {}", k_stat_names[i], n.stats[i].str(), b.stats[i].str());
  if (t.mode == Mode::tensor && tr.metrics.size() == 6) {
    const Cell& max_abs = tr.metrics[2];
    if (max_abs.is_number() && max_abs.to_double() != 0.0) return fmt::format("MaxAbsErr {}", max_abs.str());
    if (max_abs.is_text() && (max_abs.as_text() == k_shape_unmatched || max_abs.as_text() == k_na))
      return fmt::format("tensor elements: {}", max_abs.as_text());
  }
  return {};
}

bool is_input_side(RowState s) { return s == RowState::input || s == RowState::parameters; }

Locator locate(const Table& t, const TableRow& tr, std::string message) {
  const Row& n = t.npu->rows[tr.npu];
  return {t.npu->entries[n.entry], n.name, tr.result, std::move(message), {}};
}

std::optional<Locator> first_difference(const Table& t, const std::vector<EntrySpan>& order) {
  for (const auto& s : order)
    for (std::size_t i = s.begin; i < s.end; ++i) {
      const auto& tr = t.rows[i];
      if (!tr.bench) continue;
      if (auto what = difference(t, tr); !what.empty()) return locate(t, tr, std::move(what));
    }
  return std::nullopt;
}

std::optional<Locator> first_divergence(const Table& t, const std::vector<EntrySpan>& order) {
  for (const auto& s : order) {
    bool inputs_pass = true;
    const TableRow* first_bad = nullptr;
    for (std::size_t i = s.begin; i < s.end; ++i) {
      const auto& tr = t.rows[i];
      if (!tr.bench) continue;
      if (tr.result == Level::pass) continue;
      if (is_input_side(t.npu->rows[tr.npu].state)) inputs_pass = false;
      if (first_bad == nullptr) first_bad = &tr;
    }
    if (first_bad && inputs_pass)
      return locate(t, *first_bad, first_bad->messages.empty() ? std::string() : std::string(first_bad->messages.front()));
  }
  return std::nullopt;
}

bool ignored_by_da(std::string_view name) {
  return name.find("Torch.empty") != std::string_view::npos || name.find("Torch.fill") != std::string_view::npos ||
         name.find("Tensor.__setitem__") != std::string_view::npos;
}

// A relative-error text "12.5%" above 50 %.
bool above_half(const Cell& c) {
  if (!c.is_text() || c.as_text().empty() || c.as_text().back() != '%') return false;
  const std::string_view text = c.as_text().substr(0, c.as_text().size() - 1);
  char small[64];
  std::string large;
  const char* num = small;
  if (text.size() < sizeof small) {
    *std::copy(text.begin(), text.end(), small) = '\0';
  } else {
    large.assign(text);
    num = large.c_str();
  }
  char* end = nullptr;
  const double v = std::strtod(num, &end);
  return end != num && v / 100.0 > 0.5;
}

std::optional<std::string> diff_analyze(const Table& t) {
  for (const auto& s : entry_spans(t)) {
    const auto& name = t.npu->entries[s.entry];
    if (ignored_by_da(name)) continue;
    if (is_communication_api(name)) return std::nullopt;
    if (std::count(name.begin(), name.end(), '.') < 3) continue;
    if (!da_is_same(t, s.begin, s.end)) return name;
  }
  return std::nullopt;
}

}  // namespace

bool is_communication_api(std::string_view name) {
  static constexpr std::string_view k_prefixes[] = {"Distributed", "MintDistributed", "communication.comm_func"};
  static constexpr std::string_view k_keywords[] = {"send", "recv", "broadcast", "reduce", "gather", "scatter", "all_to_all"};
  bool prefixed = false;
  for (auto p : k_prefixes) prefixed = prefixed || name.substr(0, p.size()) == p;
  if (!prefixed) return false;
  for (auto k : k_keywords)
    if (name.find(k) != std::string_view::npos) return true;
  return false;
}

bool da_is_same(const Table& t, std::size_t first_row, std::size_t end_row) {
  const auto& entry = t.npu->entries[t.npu->rows[t.rows[first_row].npu].entry];
  const bool fusion_attention = entry.find("npu_fusion_attention") != std::string::npos;
  int output_index = -1;
  for (std::size_t i = first_row; i < end_row; ++i) {
    const auto& tr = t.rows[i];
    const Row& n = t.npu->rows[tr.npu];
    if (n.state != RowState::output) continue;
    ++output_index;
    if (fusion_attention && (output_index == 4 || output_index == 5)) continue;
    if (t.mode == Mode::md5) {
      if (tr.bench && n.md5 != t.bench->rows[*tr.bench].md5) return false;
      continue;
    }
    if (t.mode == Mode::summary && tr.metrics.size() == 8) {  // (the same cells, made already)
      for (int k = 4; k < 8; ++k)
        if (above_half(tr.metrics[k])) return false;
      continue;
    }
    const auto cells = stats_diff(n, tr.bench ? &t.bench->rows[*tr.bench] : nullptr);
    for (int k = 4; k < 8; ++k)
      if (above_half(cells[k])) return false;
  }
  return true;
}

PairAnswer find_answers(const Table& table, AnswerScope scope) {
  PairAnswer a;
  if (scope.difference || scope.divergence) {
    const auto order = execution_order(table);
    if (scope.difference) a.first_difference = first_difference(table, order);
    if (scope.divergence) a.first_divergence = first_divergence(table, order);
  }
  if (scope.diff_analyze) a.diff_analyze = diff_analyze(table);
  return a;
}

}  // namespace msdump::compare
