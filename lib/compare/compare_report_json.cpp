// The JSON report of `msdump compare`: the contract of docs/compare.md "JSON report". Keys are
// written in a fixed order by the Python-compatible writer, so the bytes are stable.
#include "compare/compare_report.h"
#include "pyjson/json_writer.h"

namespace msdump::compare {
namespace {

void optional_number(pyjson::JsonWriter& w, const std::optional<std::int64_t>& n) {
  if (n) w.value(*n);
  else w.null();
}

void strings(pyjson::JsonWriter& w, const std::vector<std::string>& items) {
  w.begin_array();
  for (const auto& s : items) w.value(s);
  w.end_array();
}

// The members of a locator L (the caller opens and closes the object).
void locator_members(pyjson::JsonWriter& w, const std::optional<std::int64_t>& step,
                     const std::optional<std::int64_t>& rank, const Locator& l) {
  w.key("step"); optional_number(w, step);
  w.key("rank"); optional_number(w, rank);
  w.key("entry"); w.value(l.entry);
  w.key("row"); w.value(l.row);
  w.key("result"); w.value(to_string(l.result));
  w.key("message"); w.value(l.message);
  w.key("module_chain"); strings(w, l.module_chain);
}

void pair_locator(pyjson::JsonWriter& w, const PairItem& p, const std::optional<Locator>& l) {
  if (!l) return w.null();
  w.begin_object();
  locator_members(w, p.step, p.rank, *l);
  w.end_object();
}

void tree_locator(pyjson::JsonWriter& w, const std::optional<TreeLocator>& l) {
  if (!l) return w.null();
  w.begin_object();
  locator_members(w, l->step, l->rank, l->where);
  w.key("ranks");
  w.begin_array();
  for (auto r : l->ranks) w.value(r);
  w.end_array();
  w.end_object();
}

void problems(pyjson::JsonWriter& w, const std::vector<Problem>& list) {
  w.begin_array();
  for (const auto& p : list) {
    w.begin_object();
    w.key("file"); w.value(p.file);
    w.key("entry"); w.value(p.entry);
    w.key("message"); w.value(p.message);
    w.end_object();
  }
  w.end_array();
}

void pair_object(pyjson::JsonWriter& w, const TreeResult& t, std::size_t i, bool strict) {
  const PairItem& p = t.pairs[i];
  const auto& r = t.results[i];
  static const PairResult k_none;
  const PairResult& x = r ? *r : k_none;
  w.begin_object();
  w.key("step"); optional_number(w, p.step);
  w.key("rank"); optional_number(w, p.rank);
  w.key("npu"); w.value(p.npu);
  w.key("bench"); w.value(p.bench);
  w.key("status"); w.value(batch::to_string(pair_status(t, i, strict)));
  w.key("message"); w.value(pair_failure(t, i));
  w.key("rows"); w.value(x.rows);
  w.key("pass"); w.value(x.pass);
  w.key("warning"); w.value(x.warnings);
  w.key("error"); w.value(x.errors);
  w.key("unmatched"); w.value(x.unmatched);
  w.key("bench_only"); strings(w, x.bench_only);
  w.key("tables"); strings(w, x.tables);
  w.key("problems"); problems(w, x.problems);
  w.key("first_difference"); pair_locator(w, p, x.answer.first_difference);
  w.key("first_divergence"); pair_locator(w, p, x.answer.first_divergence);
  w.key("diff_analyze");
  if (x.answer.diff_analyze) w.value(*x.answer.diff_analyze);
  else w.null();
  w.end_object();
}

void unpaired(pyjson::JsonWriter& w, const std::vector<Unpaired>& list) {
  w.begin_array();
  for (const auto& u : list) {
    w.begin_object();
    w.key("side"); w.value(u.side);
    w.key("step"); optional_number(w, u.step);
    w.key("rank"); optional_number(w, u.rank);
    w.key("path"); w.value(u.path);
    w.end_object();
  }
  w.end_array();
}

void summary(pyjson::JsonWriter& w, const TreeResult& t, bool strict) {
  const auto c = compare_totals(t);
  w.begin_object();
  w.key("pairs"); w.value(c.pairs);
  w.key("rows"); w.value(c.rows);
  w.key("pass"); w.value(c.pass);
  w.key("warning"); w.value(c.warning);
  w.key("error"); w.value(c.error);
  w.key("unmatched"); w.value(c.unmatched);
  w.key("bench_only"); w.value(c.bench_only);
  w.key("unpaired"); w.value(c.unpaired);
  w.key("problems"); w.value(c.problems);
  w.key("failed"); w.value(c.failed);
  w.key("verdict"); w.value(to_string(compare_verdict(t, strict)));
  w.key("first_difference"); tree_locator(w, t.first_difference);
  w.key("first_divergence"); tree_locator(w, t.first_divergence);
  w.end_object();
}

bool any_compared(const TreeResult& t) {
  for (const auto& r : t.results)
    if (r) return true;
  return false;
}

}  // namespace

void render_compare_json(const TreeResult& t, const CompareReportContext& ctx, std::ostream& out) {
  std::string buf;
  pyjson::JsonWriter w(buf);
  w.begin_object();
  w.key("command"); w.value("compare");
  w.key("npu"); w.value(ctx.npu);
  w.key("bench"); w.value(ctx.bench);
  w.key("output"); w.value(ctx.output_dir);
  w.key("mode");
  if (any_compared(t)) w.value(to_string(t.mode));
  else w.null();
  w.key("pairs");
  w.begin_array();
  for (std::size_t i = 0; i < t.pairs.size(); ++i) pair_object(w, t, i, ctx.strict);
  w.end_array();
  w.key("unpaired"); unpaired(w, t.unpaired);
  w.key("summary"); summary(w, t, ctx.strict);
  w.end_object();
  // Paths come from the command line and may not be UTF-8: the writer puts U+FFFD for such
  // bytes, so the document stays valid JSON; nothing else can fail here.
  (void)w.finish();
  out << buf << "\n";
}

}  // namespace msdump::compare
