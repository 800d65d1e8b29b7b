// The JUnit report: a <testcase> per dump, failing when it has origins (or warnings, strict).
#include <fmt/format.h>

#include "anomalies/anomaly_report.h"
#include "report/text_util.h"

namespace msdump::anomalies {
namespace {

using report::xml_escape;

std::string listing(const DumpAnalysis& a, bool (*wanted)(Role)) {
  std::string s;
  for (const auto& x : a.anomalies)
    if (wanted(x.role)) s += fmt::format("{} {} {}: {}\n", to_string(x.role), x.entry, x.pointer, x.message);
  return s;
}

std::string testcase(const DumpResult& d, bool strict, bool& failed) {
  const DumpAnalysis& a = d.dump.analysis;
  const auto warnings = a.count(Severity::warning);
  failed = a.origins > 0 || (strict && warnings > 0);
  std::string body;
  if (failed) {
    const auto first = a.first_origin ? a.first_origin : a.first_backward_origin;
    const std::string message = first ? fmt::format("first origin {} at {}", a.anomalies[*first].entry,
                                                    a.anomalies[*first].pointer)
                                      : fmt::format("{} (--strict)", report::plural(warnings, "warning"));
    body += fmt::format("      <failure message=\"{}\" type=\"anomalies\">{}</failure>\n", xml_escape(message),
                        xml_escape(listing(a, [](Role r) { return severity_of(r) != Severity::info; })));
  }
  const std::string notes = listing(a, [](Role r) { return severity_of(r) != Severity::error; });
  if (!notes.empty()) body += fmt::format("      <system-out>{}</system-out>\n", xml_escape(notes));
  return fmt::format("    <testcase classname=\"msdump.anomalies\" name=\"{}\" time=\"{:.3f}\">\n{}    </testcase>\n",
                     xml_escape(d.dump.file), d.dump.seconds, body);
}

}  // namespace

void render_junit(std::span<const DumpResult> dumps, const TreeSummary&, std::ostream& out, const RenderOptions& o) {
  std::string cases;
  std::size_t failures = 0;
  for (const auto& d : dumps) {
    bool failed = false;
    cases += testcase(d, o.strict, failed);
    failures += failed ? 1 : 0;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format("<testsuites tests=\"{}\" failures=\"{}\">\n", dumps.size(), failures)
      << fmt::format("  <testsuite name=\"msdump anomalies\" tests=\"{}\" failures=\"{}\">\n", dumps.size(), failures)
      << cases << "  </testsuite>\n</testsuites>\n";
}

void render(std::span<const DumpResult> dumps, const TreeSummary& s, report::ReportFormat format, std::ostream& out,
            const RenderOptions& o) {
  switch (format) {
    case report::ReportFormat::text: return render_text(dumps, s, out, o);
    case report::ReportFormat::json: return render_json(dumps, s, out);
    case report::ReportFormat::junit: return render_junit(dumps, s, out, o);
  }
}

}  // namespace msdump::anomalies
