#include "verify/golden.h"

#include <cmath>
#include <fmt/format.h>

#include "core/byte_source.h"
#include "dump/entry_name.h"
#include "dump/leaf_walk.h"
#include "pyjson/dump_json_stream.h"
#include "stats/tolerance.h"
#include "verify/leaf_rules.h"

namespace msdump::verify {
namespace {

using pyjson::Value;

// Leaves of an entry by their path ("/input_args/0", "/output/0/1", ...).
std::map<std::string, const Value*> leaves_of(const Value& entry) {
  std::map<std::string, const Value*> out;
  if (!entry.is_object()) return out;
  for (const auto& section : entry.as_object()) {
    if (section.key == "is_recompute" || section.key == "is_nan") continue;
    std::vector<std::string> path;
    dump::walk_leaves(section.value, path, [&](const Value& leaf, dump::LeafKind, const std::vector<std::string>& p) {
      out.emplace(dump::leaf_pointer("", section.key, p), &leaf);
    });
  }
  return out;
}

bool within(double a, double b, const GoldenTolerance& t) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= std::max(t.atol, t.rtol * std::fabs(b));
}

void compare_tensor(const Value& a, const Value& g, const std::string& name, const std::string& ptr,
                    const GoldenTolerance& tol, FindingSink& sink) {
  auto text = [](const Value* v) { return json_text(v); };
  for (const char* key : {"type", "dtype"}) {
    const Value *x = a.find(key), *y = g.find(key);
    if ((x == nullptr) != (y == nullptr) || (x && !x->identical(*y)))
      sink.add(std::string_view(key) == "dtype" ? FindingKind::dtype : FindingKind::value, name, ptr + "/" + key,
               fmt::format("{} differs from the golden", key), text(y), text(x));
  }
  const Value *sa = a.find("shape"), *sg = g.find("shape");
  if ((sa == nullptr) != (sg == nullptr) || (sa && !sa->identical(*sg))) {
    sink.add(FindingKind::shape, name, ptr + "/shape", "shape differs from the golden", text(sg), text(sa));
    return;  // statistics of different shapes are not comparable
  }
  for (const char* key : {"Max", "Min"}) {
    const Value *x = a.find(key), *y = g.find(key);
    if (x == nullptr || y == nullptr) continue;
    auto sx = x->to_scalar(), sy = y->to_scalar();
    if (!sx || !sy || !stats::same_extreme(*sx, *sy))
      sink.add(FindingKind::statistic, name, ptr + "/" + key, fmt::format("{} differs from the golden", key), text(y),
               text(x));
  }
  for (const char* key : {"Mean", "Norm"}) {
    const Value *x = a.find(key), *y = g.find(key);
    if (x == nullptr || y == nullptr) continue;
    const auto nx = number_of(x), ny = number_of(y);
    const bool ok = (nx && ny) ? within(*nx, *ny, tol) : x->identical(*y);
    if (!ok)
      sink.add(FindingKind::statistic, name, ptr + "/" + key,
               fmt::format("{} differs from the golden beyond rtol {} / atol {}", key, tol.rtol, tol.atol), text(y),
               text(x));
  }
  const Value *ma = a.find("md5"), *mg = g.find("md5");
  if (ma != nullptr && mg != nullptr && !ma->identical(*mg))
    sink.add(FindingKind::checksum, name, ptr + "/md5", "md5 differs from the golden", text(mg), text(ma));
  const Value *ra = a.find("requires_grad"), *rg = g.find("requires_grad");
  if (ra != nullptr && rg != nullptr && !ra->identical(*rg))
    sink.add(FindingKind::value, name, ptr + "/requires_grad", "requires_grad differs from the golden", text(rg), text(ra));
}

}  // namespace

Result<Golden> Golden::load(const std::string& dump_json, const std::string& shown_as) {
  auto src = FileSource::open(dump_json);
  if (!src) return src.error();
  Golden g;
  g.m_path = shown_as.empty() ? dump_json : shown_as;
  g.m_show_lines = shown_as.empty();
  dump::MatchKeys keys;
  pyjson::DumpJsonStream stream(**src);
  pyjson::DumpEvent ev;
  while (true) {
    auto more = stream.next(ev);
    if (!more) return more.error().with_context(dump_json);
    if (!*more) break;
    if (ev.type != pyjson::DumpEvent::Type::entry) continue;
    const std::string key = keys.key(ev.key);
    g.m_by_key.emplace(key, g.m_items.size());
    g.m_items.push_back(Item{ev.key, std::move(ev.value), ev.position.line, false});
  }
  return g;
}

void Golden::compare(const std::string& name, const std::string& key, const Value& entry, const std::string& pointer,
                     const GoldenTolerance& tol, FindingSink& sink) {
  auto it = m_by_key.find(key);
  if (it == m_by_key.end()) {
    sink.add(FindingKind::extra, name, pointer, fmt::format("entry is not in the golden {}", m_path), "", name);
    return;
  }
  Item& g = m_items[it->second];
  g.matched = true;
  const auto mine = leaves_of(entry);
  const auto theirs = leaves_of(g.entry);
  for (const auto& [path, gv] : theirs) {
    auto m = mine.find(path);
    if (m == mine.end()) {
      sink.add(FindingKind::missing, name, pointer + path, "the golden has a value here", json_text(gv), "");
      continue;
    }
    const Value& av = *m->second;
    const auto ka = dump::classify_leaf(av), kg = dump::classify_leaf(*gv);
    if (ka != kg || ka == dump::LeafKind::value) {
      if (!av.identical(*gv))
        sink.add(FindingKind::value, name, pointer + path, "value differs from the golden", json_text(gv), json_text(&av));
      continue;
    }
    compare_tensor(av, *gv, name, pointer + path, tol, sink);
  }
  for (const auto& [path, av] : mine)
    if (theirs.count(path) == 0)
      sink.add(FindingKind::extra, name, pointer + path, "the golden has no value here", "", json_text(av));
}

void Golden::report_unmatched(FindingSink& sink) const {
  for (const auto& g : m_items)
    if (!g.matched) {
      Finding f;
      f.kind = FindingKind::missing;
      f.entry = g.name;
      f.message = m_show_lines ? fmt::format("golden entry is missing (golden {}:{})", m_path, g.line)
                               : fmt::format("golden entry is missing (golden {})", m_path);
      f.expected = g.name;
      sink.add(std::move(f));
    }
}

}  // namespace msdump::verify
