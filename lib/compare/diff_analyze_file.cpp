#include "compare/diff_analyze_file.h"

#include <chrono>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "compare/compare_tree.h"
#include "compare/stack_lookup.h"
#include "core/atomic_file.h"
#include "pyjson/json_writer.h"

namespace msdump::compare {
namespace {

namespace fs = std::filesystem;

void write_cell(pyjson::JsonWriter& w, const Cell& c) {
  switch (c.kind()) {
    case Cell::Kind::integer:
      if (c.is_big_integer()) w.raw_integer(c.as_text());
      else w.value(c.as_int());
      return;
    case Cell::Kind::floating: w.value(c.as_float()); return;
    case Cell::Kind::boolean: w.value(c.as_bool()); return;
    case Cell::Kind::text: w.value(c.as_text()); return;
  }
}

void write_rows(pyjson::JsonWriter& w, const std::vector<std::pair<std::string, std::array<Cell, 4>>>& rows) {
  static constexpr const char* k_keys[] = {"NPU max", "NPU min", "NPU mean", "NPU l2norm"};
  w.begin_object();
  for (const auto& [name, stats] : rows) {
    w.key(name);
    w.begin_object();
    for (int i = 0; i < 4; ++i) {
      w.key(k_keys[i]);
      write_cell(w, stats[i]);
    }
    w.key("NPU P2POp peer");
    w.value("None");
    w.end_object();
  }
  w.end_object();
}

// indent=1 text -> indent=2 (strings hold no raw newlines, so leading spaces are all indent).
std::string reindent(const std::string& text) {
  std::string out;
  out.reserve(text.size() * 5 / 4);
  bool line_start = true;
  for (char ch : text) {
    if (line_start && ch == ' ') {
      out += "  ";
      continue;
    }
    line_start = ch == '\n';
    out += ch;
  }
  return out;
}

}  // namespace

DaRecord make_da_record(const Table& t, const std::string& api, const std::string& npu_dir) {
  DaRecord r;
  r.op_name = api;
  for (const auto& tr : t.rows) {
    const Row& n = t.npu->rows[tr.npu];
    if (t.npu->entries[n.entry] != api) continue;
    if (n.state == RowState::input) r.inputs.emplace_back(n.name, n.stats);
    else if (n.state == RowState::output) r.outputs.emplace_back(n.name, n.stats);
  }
  // (an unreadable stack.json was reported when its cells were read: the record has no frames)
  if (auto frames = load_stack_frames(npu_dir, api)) r.stack = std::move(*frames);
  return r;
}

std::string da_file_text(const std::vector<std::pair<std::int64_t, const DaRecord*>>& records) {
  std::string text;
  pyjson::JsonWriter w(text);
  w.begin_object();
  for (const auto& [rank, rec] : records) {
    w.key(fmt::format("rank_{}", rank));
    w.begin_array();
    w.begin_object();
    w.key("op_name");
    w.value(rec->op_name);
    w.key("data_info");
    w.begin_object();
    w.key("input");
    write_rows(w, rec->inputs);
    w.key("output");
    write_rows(w, rec->outputs);
    w.end_object();
    w.key("stack_info");
    if (rec->stack) {
      w.begin_array();
      for (const auto& f : *rec->stack) w.value(f);
      w.end_array();
    } else {
      w.null();
    }
    w.end_object();
    w.end_array();
  }
  w.end_object();
  (void)w.finish();
  return reindent(text);
}

Result<std::vector<std::string>> write_diff_analyze(const TreeResult& result, const std::string& output_dir) {
  std::map<std::int64_t, std::vector<std::pair<std::int64_t, const DaRecord*>>> by_step;
  std::map<std::int64_t, std::string> dir_of;
  for (std::size_t i = 0; i < result.pairs.size(); ++i) {
    const auto& r = result.results[i];
    if (!r || !r->da_record) continue;
    const auto step = result.pairs[i].step.value_or(-1);
    by_step[step].emplace_back(result.pairs[i].rank.value_or(0), &*r->da_record);
    dir_of[step] = result.pairs[i].spec.output_dir;
  }
  std::vector<std::string> files;
  for (const auto& [step, records] : by_step) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    const auto dir = dir_of[step].empty() ? output_dir : dir_of[step];
    std::error_code ec;
    fs::create_directories(dir, ec);
    const auto path = (fs::path(dir) / fmt::format("diff_analyze_{}.json", ns)).string();
    if (auto w = write_file_atomic(path, da_file_text(records), Overwrite::yes); !w) return w.error();
    files.push_back(path);
  }
  return files;
}

}  // namespace msdump::compare
