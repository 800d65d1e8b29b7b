#include "report/report_render.h"

#include <fmt/format.h>

#include <map>

#include "pyjson/json_writer.h"
#include "report/text_util.h"

namespace msdump::report {
namespace {

using verify::Finding;
using verify::Severity;

std::string describe(const Finding& f) {
  std::string s = f.message;
  if (!f.expected.empty() || !f.actual.empty())
    s += fmt::format(" (expected {}, got {})", f.expected.empty() ? "-" : f.expected, f.actual.empty() ? "-" : f.actual);
  return s;
}

}  // namespace

std::optional<ReportFormat> report_format_from_string(std::string_view s) {
  if (s == "text") return ReportFormat::text;
  if (s == "json") return ReportFormat::json;
  if (s == "junit") return ReportFormat::junit;
  return std::nullopt;
}

std::string summary_line(const verify::VerifySummary& s) {
  std::string kinds;
  for (const auto& [k, n] : s.by_kind) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", k, n);
  std::string line = fmt::format("{}, {}", plural(s.errors, "error"), plural(s.warnings, "warning"));
  if (!kinds.empty()) line += " (" + kinds + ")";
  line += fmt::format(" in {}, {} checked against tensor files", plural(s.entries, "entry", "entries"),
                      plural(s.tensors_checked, "tensor"));
  if (s.profile) line += fmt::format(" [{} {}]", to_string(s.framework), to_string(*s.profile));
  else line += fmt::format(" [{}, profile undetermined]", to_string(s.framework));
  if (s.dropped) line += fmt::format("; {} more findings not shown (--max-findings)", s.dropped);
  return line;
}

void render_text(std::span<const verify::VerifyReport> reports, std::ostream& out, bool color) {
  const char* red = color ? "\x1b[31m" : "";
  const char* yellow = color ? "\x1b[33m" : "";
  const char* bold = color ? "\x1b[1m" : "";
  const char* reset = color ? "\x1b[0m" : "";
  std::uint64_t errors = 0, warnings = 0;
  for (const auto& r : reports) {
    std::string last_group;
    for (const auto& f : r.findings) {
      const std::string group = f.file + (f.entry.empty() ? "" : ": " + f.entry);
      if (group != last_group) {
        out << bold << group << reset << "\n";
        last_group = group;
      }
      const char* c = f.severity == Severity::error ? red : f.severity == Severity::warning ? yellow : "";
      out << "  " << c << to_string(f.severity) << reset << " [" << to_string(f.kind) << "]";
      if (!f.pointer.empty()) out << " " << f.pointer;
      if (f.line != 0) out << " (line " << f.line << ")";
      out << ": " << describe(f) << "\n";
    }
    out << (r.clean() ? "" : red) << r.summary.file << ": " << summary_line(r.summary) << reset << "\n";
    errors += r.summary.errors;
    warnings += r.summary.warnings;
  }
  if (reports.size() > 1)
    out << bold << fmt::format("total: {} dumps, {}, {}", reports.size(), plural(errors, "error"),
                               plural(warnings, "warning"))
        << reset << "\n";
}

namespace {

void write_summary(pyjson::JsonWriter& w, const verify::VerifySummary& s) {
  w.begin_object();
  w.key("file"); w.value(s.file);
  w.key("framework"); w.value(to_string(s.framework));
  w.key("profile"); w.value(s.profile ? to_string(*s.profile) : "undetermined");
  w.key("task"); w.value(s.task);
  w.key("level"); w.value(s.level);
  w.key("entries"); w.value(s.entries);
  w.key("tensor_leaves"); w.value(s.leaves);
  w.key("tensors_checked"); w.value(s.tensors_checked);
  w.key("bytes"); w.value(s.bytes);
  w.key("errors"); w.value(s.errors);
  w.key("warnings"); w.value(s.warnings);
  w.key("not_shown"); w.value(s.dropped);
  w.key("by_kind");
  w.begin_object();
  for (const auto& [k, n] : s.by_kind) {
    w.key(k);
    w.value(n);
  }
  w.end_object();
  w.key("clean"); w.value(s.errors == 0);
  w.end_object();
}

void write_findings(pyjson::JsonWriter& w, const std::vector<Finding>& findings) {
  w.begin_array();
  for (const auto& f : findings) {
    w.begin_object();
    w.key("severity"); w.value(to_string(f.severity));
    w.key("kind"); w.value(to_string(f.kind));
    w.key("entry"); w.value(f.entry);
    w.key("pointer"); w.value(f.pointer);
    w.key("expected"); w.value(f.expected);
    w.key("actual"); w.value(f.actual);
    w.key("message"); w.value(f.message);
    w.key("file"); w.value(f.file);
    w.key("line"); w.value(f.line);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void render_json(std::span<const verify::VerifyReport> reports, std::ostream& out) {
  std::string buf;
  pyjson::JsonWriter w(buf);
  if (reports.size() == 1) {
    w.begin_object();
    w.key("findings");
    write_findings(w, reports[0].findings);
    w.key("summary");
    write_summary(w, reports[0].summary);
    w.end_object();
  } else {
    std::uint64_t errors = 0, warnings = 0;
    w.begin_object();
    w.key("reports");
    w.begin_array();
    for (const auto& r : reports) {
      w.begin_object();
      w.key("findings");
      write_findings(w, r.findings);
      w.key("summary");
      write_summary(w, r.summary);
      w.end_object();
      errors += r.summary.errors;
      warnings += r.summary.warnings;
    }
    w.end_array();
    w.key("summary");
    w.begin_object();
    w.key("dumps"); w.value(static_cast<std::uint64_t>(reports.size()));
    w.key("errors"); w.value(errors);
    w.key("warnings"); w.value(warnings);
    w.key("clean"); w.value(errors == 0);
    w.end_object();
    w.end_object();
  }
  (void)w.finish();  // every string written here is our own valid UTF-8 or came from a parsed file
  out << buf << "\n";
}

void render_junit(std::span<const verify::VerifyReport> reports, std::ostream& out) {
  std::uint64_t tests = 0, failures = 0;
  std::string suites;
  for (const auto& r : reports) {
    // One testcase per entry that has findings, in order of first finding, plus the file itself.
    std::vector<std::string> order(1);  // "" first: the file-level testcase
    std::map<std::string, std::vector<const Finding*>> by_entry{{std::string(), {}}};
    for (const auto& f : r.findings) {
      if (!by_entry.count(f.entry)) order.push_back(f.entry);
      by_entry[f.entry].push_back(&f);
    }
    std::uint64_t suite_failures = 0;
    std::string cases;
    for (const auto& entry : order) {
      const std::string name = entry.empty() ? "dump" : entry;
      // One <failure> per testcase (strict JUnit consumers reject several): its message is the
      // first error, its text lists them all; warnings go to <system-out>.
      std::string body, failure_text, failure_message, failure_type, notes;
      std::size_t errors = 0;
      for (const Finding* f : by_entry[entry]) {
        const std::string line = fmt::format("{} [{}] {}{}: {}", to_string(f->severity), to_string(f->kind), f->pointer,
                                             f->line != 0 ? fmt::format(" (line {})", f->line) : "", describe(*f));
        if (f->severity != Severity::error) {
          notes += line + "\n";
          continue;
        }
        if (errors++ == 0) {
          failure_message = describe(*f);
          failure_type = std::string(to_string(f->kind));
        }
        failure_text += line + "\n";
      }
      if (errors > 1) failure_message += fmt::format(" (+{} more)", errors - 1);
      if (errors > 0)
        body += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", failure_type,
                            xml_escape(failure_message), xml_escape(failure_text));
      if (!notes.empty()) body += fmt::format("      <system-out>{}</system-out>\n", xml_escape(notes));
      const bool failed = body.find("<failure") != std::string::npos;
      suite_failures += failed ? 1 : 0;
      cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n{}    </testcase>\n", xml_escape(r.summary.file),
                           xml_escape(name), body);
    }
    tests += order.size();
    failures += suite_failures;
    suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n{}  </testsuite>\n",
                          xml_escape(r.summary.file), order.size(), suite_failures, r.summary.seconds, cases);
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format("<testsuites name=\"msdump verify\" tests=\"{}\" failures=\"{}\">\n", tests, failures) << suites
      << "</testsuites>\n";
}

void render(std::span<const verify::VerifyReport> reports, ReportFormat format, std::ostream& out, bool color) {
  switch (format) {
    case ReportFormat::text: return render_text(reports, out, color);
    case ReportFormat::json: return render_json(reports, out);
    case ReportFormat::junit: return render_junit(reports, out);
  }
}

}  // namespace msdump::report
