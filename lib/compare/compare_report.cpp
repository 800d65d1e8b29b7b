// The text report of `msdump compare`, and what the three formats share (verdict, totals,
// labels).
#include "compare/compare_report.h"

#include <fmt/format.h>

#include "report/text_util.h"

namespace msdump::compare {
namespace {

using report::plural;

// Problems listed per pair before "... and N more".
constexpr std::size_t k_max_problem_lines = 10;

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string s;
  for (const auto& x : items) s += (s.empty() ? "" : std::string(separator)) + x;
  return s;
}

std::string join_numbers(const std::vector<std::int64_t>& items) {
  std::string s;
  for (auto x : items) s += fmt::format("{}{}", s.empty() ? "" : ", ", x);
  return s;
}

std::string counts_text(std::uint64_t rows, std::uint64_t pass, std::uint64_t warning, std::uint64_t error,
                        std::uint64_t unmatched) {
  return fmt::format("{}: {} pass, {} warning, {} error, {} unmatched", plural(rows, "row"), pass, warning, error,
                     unmatched);
}

void pair_lines(const TreeResult& t, std::size_t i, std::ostream& out) {
  const auto label = pair_label(t.pairs[i]);
  const auto& r = t.results[i];
  if (!r) {
    out << fmt::format("{}: failed: {}\n", label, pair_failure(t, i));
    return;
  }
  out << label << ": " << counts_text(r->rows, r->pass, r->warnings, r->errors, r->unmatched);
  if (!r->tables.empty()) out << " -> " << join(r->tables, ", ");
  out << "\n";
  if (!r->bench_only.empty())
    out << fmt::format("  {} without an NPU partner (--report json lists them)\n",
                       plural(r->bench_only.size(), "bench row", "bench rows"));
  for (std::size_t k = 0; k < r->problems.size() && k < k_max_problem_lines; ++k)
    out << "  problem: " << problem_text(r->problems[k]) << "\n";
  if (r->problems.size() > k_max_problem_lines)
    out << fmt::format("  ... and {} (--report json lists all)\n",
                       plural(r->problems.size() - k_max_problem_lines, "more problem", "more problems"));
}

void unpaired_line(const Unpaired& u, std::ostream& out) {
  const auto label = where_label(u.step, u.rank, u.path);
  out << fmt::format("unpaired: {} {} has no {} partner{}\n", u.side, label, u.side == "npu" ? "bench" : "npu",
                     label == u.path ? "" : ": " + u.path);
}

void answer_line(std::string_view title, const std::optional<TreeLocator>& l, std::ostream& out) {
  if (!l) {
    out << title << ": none\n";
    return;
  }
  std::string s;
  if (l->step) s += fmt::format("step {}, ", *l->step);
  if (l->rank) s += fmt::format("rank {}, ", *l->rank);
  s += fmt::format("{} (row {})", l->where.entry, l->where.row);
  if (!l->where.message.empty()) s += ": " + l->where.message;
  if (!l->where.module_chain.empty()) s += "; modules: " + join(l->where.module_chain, " > ");
  if (!l->ranks.empty()) s += "; ranks: " + join_numbers(l->ranks);
  out << title << ": " << s << "\n";
}

void verdict_line(const TreeResult& t, bool strict, std::ostream& out) {
  const auto c = compare_totals(t);
  out << fmt::format("verdict{}: {} ({}, {}; {}; {}; {}; {} failed)\n", strict ? " (--strict)" : "",
                     to_string(compare_verdict(t, strict)), plural(c.pairs, "pair"),
                     counts_text(c.rows, c.pass, c.warning, c.error, c.unmatched),
                     plural(c.bench_only, "bench-only row", "bench-only rows"),
                     plural(c.unpaired, "unpaired dump", "unpaired dumps"), plural(c.problems, "problem"), c.failed);
}

}  // namespace

std::string_view to_string(CompareVerdict v) {
  switch (v) {
    case CompareVerdict::pass: return "pass";
    case CompareVerdict::fail: return "fail";
    case CompareVerdict::error: return "error";
  }
  return "error";
}

CompareTotals compare_totals(const TreeResult& t) {
  CompareTotals c;
  c.pairs = t.pairs.size();
  c.unpaired = t.unpaired.size();
  for (const auto& r : t.results) {
    if (!r) {
      ++c.failed;
      continue;
    }
    c.rows += r->rows;
    c.pass += r->pass;
    c.warning += r->warnings;
    c.error += r->errors;
    c.unmatched += r->unmatched;
    c.bench_only += r->bench_only.size();
    c.problems += r->problems.size();
  }
  return c;
}

CompareVerdict compare_verdict(const TreeResult& t, bool strict) {
  const auto c = compare_totals(t);
  if (c.failed > 0 || c.problems > 0) return CompareVerdict::error;
  if (c.error > 0 || (strict && c.warning > 0) || c.unpaired > 0) return CompareVerdict::fail;
  return CompareVerdict::pass;
}

batch::ItemStatus pair_status(const TreeResult& t, std::size_t pair, bool strict) {
  const auto& r = t.results.at(pair);
  if (!r) return batch::ItemStatus::failed;
  if (r->errors > 0 || (strict && r->warnings > 0) || !r->problems.empty()) return batch::ItemStatus::findings;
  return batch::ItemStatus::ok;
}

std::string pair_failure(const TreeResult& t, std::size_t pair) {
  if (t.results.at(pair)) return {};
  if (pair < t.report.items.size() && !t.report.items[pair].outcome.message.empty())
    return t.report.items[pair].outcome.message;
  return "the pair could not be compared";
}

std::string where_label(const std::optional<std::int64_t>& step, const std::optional<std::int64_t>& rank,
                        const std::string& fallback) {
  if (!step && !rank) return fallback;
  std::string s;
  if (step) s = fmt::format("step{}", *step);
  if (rank) s += fmt::format("{}rank{}", s.empty() ? "" : "/", *rank);
  return s;
}

std::string pair_label(const PairItem& p) { return where_label(p.step, p.rank, p.npu); }

void render_compare_text(const TreeResult& t, const CompareReportContext& ctx, std::ostream& out) {
  for (std::size_t i = 0; i < t.pairs.size(); ++i) pair_lines(t, i, out);
  for (const auto& u : t.unpaired) unpaired_line(u, out);
  answer_line("first difference", t.first_difference, out);
  answer_line("first divergence", t.first_divergence, out);
  verdict_line(t, ctx.strict, out);
}

void render_compare_report(const TreeResult& t, const CompareReportContext& ctx, report::ReportFormat format,
                           std::ostream& out) {
  switch (format) {
    case report::ReportFormat::text: return render_compare_text(t, ctx, out);
    case report::ReportFormat::json: return render_compare_json(t, ctx, out);
    case report::ReportFormat::junit: return render_compare_junit(t, ctx, out);
  }
}

}  // namespace msdump::compare
