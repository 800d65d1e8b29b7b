#pragma once
// Rendering the anomalies of a run (formatting only):
//   text   one screen: the first forward and backward origins, the origins with counts and
//          module, warnings, info, the ranks, a total line (long lists cut, json has all);
//   json   {"anomalies": [...], "summary": {...}}: the contract a CI job parses (README);
//   junit  a <testcase> per dump, failing when it has origins (or warnings, with strict).

#include <ostream>
#include <span>
#include <string>

#include "anomalies/tree_summary.h"
#include "report/report_render.h"

namespace msdump::anomalies {

struct RenderOptions {
  bool strict = false;              // junit: warnings fail too
  std::size_t max_lines = 20;       // text: lines per list before "... and N more"
};

void render_text(std::span<const DumpResult> dumps, const TreeSummary& summary, std::ostream& out,
                 const RenderOptions& options = {});
void render_json(std::span<const DumpResult> dumps, const TreeSummary& summary, std::ostream& out);
void render_junit(std::span<const DumpResult> dumps, const TreeSummary& summary, std::ostream& out,
                  const RenderOptions& options = {});
void render(std::span<const DumpResult> dumps, const TreeSummary& summary, report::ReportFormat format,
            std::ostream& out, const RenderOptions& options = {});

// "2 origins, 1 warning, 0 info in 31 entries" for one dump.
std::string summary_line(const DumpAnalysis& analysis);

}  // namespace msdump::anomalies
