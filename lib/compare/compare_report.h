#pragma once
// The report of `msdump compare` (formatting only; docs/compare.md "Reports"):
//   text   one line per pair (rows by result, the tables written), its problems and bench-only
//          rows, the unpaired dumps, then the two answers of the whole tree (first difference,
//          first divergence) and a verdict line;
//   json   {"command": "compare", ..., "pairs": [...], "unpaired": [...], "summary": {...}}:
//          the documented contract a CI job parses, keys in a fixed order, written like
//          json.dump(indent=1);
//   junit  one <testsuite> "msdump compare": a <testcase> per pair (a <failure> for error rows,
//          an <error> when it could not be compared or has problems) and one failing testcase
//          per unpaired dump.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "batch/batch_runner.h"
#include "compare/compare_tree.h"
#include "report/report_render.h"

namespace msdump::compare {

struct CompareReportContext {
  std::string npu, bench, output_dir;  // as given on the command line
  bool strict = false;                 // warning rows count like error rows
};

// The whole run's answer: error when a pair could not be compared or has problems; else fail
// when a row is an error (with strict: or a warning) or a dump has no partner; else pass.
enum class CompareVerdict : std::uint8_t { pass, fail, error };
std::string_view to_string(CompareVerdict v);  // "pass", "fail", "error"

struct CompareTotals {
  std::uint64_t pairs = 0, rows = 0, pass = 0, warning = 0, error = 0, unmatched = 0;
  std::uint64_t bench_only = 0;  // bench rows without an NPU partner
  std::uint64_t unpaired = 0;    // dumps without a partner
  std::uint64_t problems = 0;
  std::uint64_t failed = 0;      // pairs that could not be compared
};

CompareTotals compare_totals(const TreeResult& result);
CompareVerdict compare_verdict(const TreeResult& result, bool strict);

// A pair's status: failed (no table), findings (error rows, warning rows with strict, or
// problems), ok.
batch::ItemStatus pair_status(const TreeResult& result, std::size_t pair, bool strict);

// Why pair `pair` could not be compared (its batch report message), "" when it was.
std::string pair_failure(const TreeResult& result, std::size_t pair);

// "step0/rank1", "rank1", "step0" or, without either, the NPU dump.json path.
std::string pair_label(const PairItem& pair);
std::string where_label(const std::optional<std::int64_t>& step, const std::optional<std::int64_t>& rank,
                        const std::string& fallback);

void render_compare_text(const TreeResult& result, const CompareReportContext& ctx, std::ostream& out);
void render_compare_json(const TreeResult& result, const CompareReportContext& ctx, std::ostream& out);
void render_compare_junit(const TreeResult& result, const CompareReportContext& ctx, std::ostream& out);
void render_compare_report(const TreeResult& result, const CompareReportContext& ctx, report::ReportFormat format,
                           std::ostream& out);

}  // namespace msdump::compare
