// The JSON report: {"anomalies": [...], "summary": {...}} (README "msdump anomalies").
#include <fmt/format.h>

#include "anomalies/anomaly_report.h"
#include "pyjson/json_writer.h"

namespace msdump::anomalies {
namespace {

void optional_number(pyjson::JsonWriter& w, const std::optional<long>& n) {
  if (n) w.value(static_cast<std::int64_t>(*n));
  else w.null();
}

void write_counts(pyjson::JsonWriter& w, const std::optional<ValueCounts>& c) {
  if (!c) return w.null();
  w.begin_object();
  w.key("nan"); w.value(c->nan);
  w.key("inf"); w.value(c->pos_inf);
  w.key("-inf"); w.value(c->neg_inf);
  w.key("total"); w.value(c->total);
  w.end_object();
}

void write_anomaly(pyjson::JsonWriter& w, const DumpResult& d, const Anomaly& a) {
  w.begin_object();
  w.key("step"); optional_number(w, d.step);
  w.key("rank"); optional_number(w, d.rank);
  w.key("entry"); w.value(a.entry);
  w.key("role"); w.value(to_string(a.role));
  w.key("kind");
  if (a.values.any()) w.value(kind_name(a.values));
  else w.null();
  w.key("pointer"); w.value(a.pointer);
  w.key("module");
  if (a.module) w.value(*a.module);
  else w.null();
  w.key("counts"); write_counts(w, a.counts);
  w.key("message"); w.value(a.message);
  w.key("severity"); w.value(to_string(severity_of(a.role)));
  w.key("direction"); w.value(to_string(a.direction));
  w.key("downstream"); w.value(a.downstream);
  w.key("module_chain");
  w.begin_array();
  for (const auto& m : a.module_chain) w.value(m);
  w.end_array();
  w.key("dump"); w.value(d.dump.file);
  w.end_object();
}

void write_origin(pyjson::JsonWriter& w, std::span<const DumpResult> dumps, const std::optional<OriginRef>& ref) {
  if (!ref) return w.null();
  const DumpResult& d = dumps[ref->dump];
  const Anomaly& a = d.dump.analysis.anomalies[ref->anomaly];
  w.begin_object();
  w.key("step"); optional_number(w, d.step);
  w.key("rank"); optional_number(w, d.rank);
  w.key("entry"); w.value(a.entry);
  w.key("pointer"); w.value(a.pointer);
  w.key("module");
  if (a.module) w.value(*a.module);
  else w.null();
  w.key("dump"); w.value(d.dump.file);
  w.end_object();
}

void write_numbers(pyjson::JsonWriter& w, const std::vector<long>& v) {
  w.begin_array();
  for (long x : v) w.value(static_cast<std::int64_t>(x));
  w.end_array();
}

void write_summary(pyjson::JsonWriter& w, std::span<const DumpResult> dumps, const TreeSummary& s) {
  w.begin_object();
  w.key("dumps"); w.value(static_cast<std::uint64_t>(s.dumps));
  w.key("entries"); w.value(s.entries);
  w.key("origins"); w.value(s.origins);
  w.key("first_origin"); write_origin(w, dumps, s.first_origin);
  w.key("first_backward_origin"); write_origin(w, dumps, s.first_backward_origin);
  w.key("warnings"); w.value(s.warnings);
  w.key("infos"); w.value(s.infos);
  w.key("first_step_with_origin"); optional_number(w, s.first_step_with_origin);
  w.key("ranks_with_origins"); write_numbers(w, s.ranks_with_origins);
  w.key("rank_divergences");
  w.begin_array();
  for (const auto& d : s.divergences) {
    w.begin_object();
    w.key("step"); optional_number(w, d.step);
    w.key("entry"); w.value(d.entry);
    w.key("ranks"); write_numbers(w, d.with);
    w.key("missing_in"); write_numbers(w, d.without);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

void render_json(std::span<const DumpResult> dumps, const TreeSummary& s, std::ostream& out) {
  std::string buf;
  pyjson::JsonWriter w(buf);
  w.begin_object();
  w.key("anomalies");
  w.begin_array();
  for (const auto& d : dumps)
    for (const auto& a : d.dump.analysis.anomalies) write_anomaly(w, d, a);
  w.end_array();
  w.key("summary");
  write_summary(w, dumps, s);
  w.end_object();
  (void)w.finish();  // entry names and pointers came from parsed files: valid UTF-8
  out << buf << "\n";
}

}  // namespace msdump::anomalies
