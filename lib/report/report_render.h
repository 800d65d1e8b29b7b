#pragma once
// Rendering verify reports: formatting only, no checks. One function per format, all taking
// the reports of one run (one per dump.json verified, in input order).
//   text   findings grouped by file and entry, colored when asked, one summary line per file
//          and a total line;
//   json   {"findings": [...], "summary": {...}} (one report) or {"reports": [...], "summary"}
//   junit  JUnit XML: a <testsuite> per dump.json, a <testcase> per entry with findings (plus
//          one for the file), a <failure> per error (GitLab and Jenkins read it).

#include <ostream>
#include <span>
#include <string_view>

#include "verify/verify.h"

namespace msdump::report {

enum class ReportFormat { text, json, junit };
std::optional<ReportFormat> report_format_from_string(std::string_view s);

void render_text(std::span<const verify::VerifyReport> reports, std::ostream& out, bool color);
void render_json(std::span<const verify::VerifyReport> reports, std::ostream& out);
void render_junit(std::span<const verify::VerifyReport> reports, std::ostream& out);
void render(std::span<const verify::VerifyReport> reports, ReportFormat format, std::ostream& out, bool color);

// "3 errors, 1 warning (schema 2, statistic 2) in 12 entries, 5 tensors checked" style summary.
std::string summary_line(const verify::VerifySummary& s);

}  // namespace msdump::report
