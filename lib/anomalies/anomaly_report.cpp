#include "anomalies/anomaly_report.h"

#include <fmt/format.h>

#include "pyjson/json_writer.h"
#include "report/text_util.h"

namespace msdump::anomalies {
namespace {

using report::plural;

// "[step0 rank1] " inside a tree, "[<key>] " for one of several dumps outside one, else "".
std::string where(const DumpResult& d, std::size_t dumps) {
  if (d.step || d.rank) {
    std::string s = "[";
    if (d.step) s += fmt::format("step{}", *d.step);
    if (d.rank) s += fmt::format("{}rank{}", d.step ? " " : "", *d.rank);
    return s + "] ";
  }
  return dumps > 1 ? fmt::format("[{}] ", d.key) : "";
}

std::string module_text(const Anomaly& a) {
  if (!a.module) return "";
  std::string s = fmt::format("; module {}", *a.module);
  for (const auto& m : a.module_chain) s += fmt::format(" < {}", m);
  return s;
}

std::string anomaly_line(const DumpResult& d, const Anomaly& a, std::size_t dumps) {
  std::string s = fmt::format("{}{} {}: {}", where(d, dumps), to_string(a.role), a.entry, a.message);
  if (a.role == Role::origin || a.role == Role::argument || a.role == Role::propagated)
    s += fmt::format("; {} downstream", plural(a.downstream, "entry", "entries"));
  return s + module_text(a);
}

void section(std::span<const DumpResult> dumps, Severity severity, std::string_view title, std::ostream& out,
             std::size_t max_lines) {
  std::vector<std::string> lines;
  std::size_t total = 0;
  for (const auto& d : dumps)
    for (const auto& a : d.dump.analysis.anomalies) {
      if (severity_of(a.role) != severity) continue;
      if (++total <= max_lines) lines.push_back(anomaly_line(d, a, dumps.size()));
    }
  if (total == 0) return;
  out << fmt::format("{} ({}):\n", title, total);
  for (const auto& l : lines) out << "  " << l << "\n";
  if (total > max_lines) out << fmt::format("  ... and {} more (--report json lists all)\n", total - max_lines);
}

void first_line(std::span<const DumpResult> dumps, const std::optional<OriginRef>& ref, std::string_view title,
                std::ostream& out) {
  if (!ref) {
    out << fmt::format("{}: none\n", title);
    return;
  }
  const DumpResult& d = dumps[ref->dump];
  const Anomaly& a = d.dump.analysis.anomalies[ref->anomaly];
  out << fmt::format("{}: {}{} at {}{}\n", title, where(d, dumps.size()), a.entry, a.pointer, module_text(a));
}

std::string join(const std::vector<long>& v, std::string_view prefix) {
  std::string s;
  for (long x : v) s += fmt::format("{}{}{}", s.empty() ? "" : ", ", prefix, x);
  return s;
}

void ranks_text(const TreeSummary& s, std::ostream& out) {
  if (s.first_step_with_origin) out << fmt::format("First step with an origin: step{}\n", *s.first_step_with_origin);
  if (!s.ranks_with_origins.empty()) out << fmt::format("Ranks with origins: {}\n", join(s.ranks_with_origins, "rank"));
  for (const auto& d : s.divergences)
    out << fmt::format("Ranks diverge{}: origin {} in {} only, not in {}\n",
                       d.step ? fmt::format(" in step{}", *d.step) : "", d.entry, join(d.with, "rank"),
                       join(d.without, "rank"));
}

std::string totals(const TreeSummary& s) {
  return fmt::format("{}, {}, {} in {} ({})", plural(s.origins, "origin"), plural(s.warnings, "warning"),
                     plural(s.infos, "info", "info"), plural(s.dumps, "dump"), plural(s.entries, "entry", "entries"));
}

}  // namespace

std::string summary_line(const DumpAnalysis& a) {
  return fmt::format("{}, {}, {} in {}", plural(a.origins, "origin"), plural(a.count(Severity::warning), "warning"),
                     plural(a.count(Severity::info), "info", "info"), plural(a.entries, "entry", "entries"));
}

void render_text(std::span<const DumpResult> dumps, const TreeSummary& s, std::ostream& out, const RenderOptions& o) {
  first_line(dumps, s.first_origin, "First forward origin", out);
  first_line(dumps, s.first_backward_origin, "First backward origin", out);
  section(dumps, Severity::error, "Origins", out, o.max_lines);
  section(dumps, Severity::warning, "Warnings", out, o.max_lines);
  section(dumps, Severity::info, "Info", out, o.max_lines);
  ranks_text(s, out);
  out << totals(s) << "\n";
}

}  // namespace msdump::anomalies
