// The JUnit report of `msdump compare`: one <testsuite>, a <testcase> per pair and per
// unpaired dump.
#include <fmt/format.h>

#include "compare/compare_report.h"
#include "report/text_util.h"

namespace msdump::compare {
namespace {

using report::plural;
using report::xml_escape;

struct Case {
  std::string xml;
  bool failure = false, error = false;
};

std::string locator_text(const Locator& l) {
  return fmt::format("{} (row {}){}", l.entry, l.row, l.message.empty() ? "" : ": " + l.message);
}

std::string element(std::string_view tag, const std::string& message, const std::string& body) {
  return fmt::format("      <{0} message=\"{1}\" type=\"compare\">{2}</{0}>\n", tag, xml_escape(message),
                     xml_escape(body));
}

// The failure's message: the pair's first divergence, else how many rows fail.
std::string failure_of(const PairResult& r) {
  if (r.answer.first_divergence) return "first divergence " + locator_text(*r.answer.first_divergence);
  if (r.errors > 0) return plural(r.errors, "error row", "error rows");
  return plural(r.warnings, "warning row", "warning rows") + " (--strict)";
}

std::string failure_body(const PairResult& r) {
  std::string s = fmt::format("{} rows: {} pass, {} warning, {} error, {} unmatched\n", r.rows, r.pass, r.warnings,
                              r.errors, r.unmatched);
  if (r.answer.first_difference) s += "first difference " + locator_text(*r.answer.first_difference) + "\n";
  for (const auto& t : r.tables) s += "table " + t + "\n";
  return s;
}

std::string problems_body(const std::vector<Problem>& problems) {
  std::string s;
  for (const auto& p : problems)
    s += problem_text(p) + "\n";
  return s;
}

Case pair_case(const TreeResult& t, std::size_t i, bool strict) {
  Case c;
  std::string body;
  const auto& r = t.results[i];
  if (!r) {
    c.error = true;
    body = element("error", pair_failure(t, i), "");
  } else {
    c.failure = r->errors > 0 || (strict && r->warnings > 0);
    c.error = !r->problems.empty();
    if (c.failure) body += element("failure", failure_of(*r), failure_body(*r));
    if (c.error) body += element("error", plural(r->problems.size(), "problem"), problems_body(r->problems));
  }
  const double seconds = i < t.report.items.size() ? t.report.items[i].outcome.seconds : 0.0;
  c.xml = fmt::format("    <testcase classname=\"msdump.compare\" name=\"{}\" time=\"{:.3f}\">\n{}    </testcase>\n",
                      xml_escape(pair_label(t.pairs[i])), seconds, body);
  return c;
}

Case unpaired_case(const Unpaired& u) {
  const auto label = where_label(u.step, u.rank, u.path);
  const auto message = fmt::format("{} dump without a {} partner: {}", u.side, u.side == "npu" ? "bench" : "npu", u.path);
  return {fmt::format("    <testcase classname=\"msdump.compare\" name=\"{}\" time=\"0.000\">\n{}    </testcase>\n",
                      xml_escape(fmt::format("{} ({} only)", label, u.side)), element("failure", message, "")),
          true, false};
}

}  // namespace

void render_compare_junit(const TreeResult& t, const CompareReportContext& ctx, std::ostream& out) {
  std::string cases;
  std::size_t failures = 0, errors = 0;
  const auto add = [&](const Case& c) {
    cases += c.xml;
    failures += c.failure ? 1 : 0;
    errors += c.error ? 1 : 0;
  };
  for (std::size_t i = 0; i < t.pairs.size(); ++i) add(pair_case(t, i, ctx.strict));
  for (const auto& u : t.unpaired) add(unpaired_case(u));
  const auto tests = t.pairs.size() + t.unpaired.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format("<testsuites tests=\"{}\" failures=\"{}\" errors=\"{}\">\n", tests, failures, errors)
      << fmt::format("  <testsuite name=\"msdump compare\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n", tests,
                     failures, errors)
      << cases << "  </testsuite>\n</testsuites>\n";
}

}  // namespace msdump::compare
