#include "convert/convert.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <unordered_set>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "convert/capture_entries.h"
#include "convert/capture_entry.h"
#include "convert/capture_index.h"
#include "convert/data_mode.h"
#include "convert/entry_order.h"
#include "convert/leaf_converter.h"
#include "convert/msprobe_dump_input.h"
#include "convert/plan.h"
#include "convert/risk_level.h"
#include "convert/scope_filter.h"
#include "core/byte_source.h"
#include "core/logger.h"
#include "dump/construct_model.h"
#include "dump/dump_paths.h"
#include "dump/dump_writer.h"
#include "dump/entry_name.h"
#include "dump/stack_model.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

namespace msdump::convert {
namespace {

namespace fs = std::filesystem;
using pyjson::Value;

constexpr std::string_view k_trace_file = "trace.jsonl";
using dump::k_dump_json;

// Scope on an msprobe dump (level L1): an API forward entry was two events, its inputs then its
// output; anything else one event. Drops the sections msprobe would not have dumped; false when
// none is left.
bool apply_scope_to_entry(const std::string& name, const dump::EntryName& parsed, Value& entry, ScopeFilter& scope) {
  auto& members = entry.as_object();
  if (parsed.kind != dump::EntryKind::api_forward) return scope.event(name, false, false);
  bool has_input = false, has_output = false;
  for (const auto& m : members) {
    has_input = has_input || is_input_section(m.key);
    has_output = has_output || m.key == "output";
  }
  const bool keep_input = has_input && scope.event(name, false, false);
  const bool keep_output = has_output && scope.event(name, false, false);
  std::erase_if(members, [&](const pyjson::Member& m) {
    return (is_input_section(m.key) && !keep_input) || (m.key == "output" && !keep_output);
  });
  return keep_input || keep_output;
}

// Prepares OUT: creates it, and refuses to replace existing outputs without overwrite before
// anything is written (so a refused run changes nothing).
Result<void> prepare_output(const std::string& out, const Plan& plan, bool writes_extra, Overwrite overwrite) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return io_error(fmt::format("cannot create '{}': {}", out, ec.message()));
  if (overwrite == Overwrite::no) {
    std::vector<std::string> names{std::string(k_dump_json)};
    if (writes_extra) names.insert(names.end(), {std::string(dump::k_stack_json), std::string(dump::k_construct_json)});
    for (const auto& n : names) {
      const auto p = join_path(out, n);
      if (fs::exists(fs::symlink_status(p)))
        return Error{ErrorCode::exists, fmt::format("'{}' exists (use --force to replace it)", p)};
    }
  }
  if (plan.task == Task::tensor) {
    fs::create_directories(join_path(out, dump::k_tensor_dir), ec);
    if (ec) return io_error(fmt::format("cannot create '{}/{}': {}", out, dump::k_tensor_dir, ec.message()));
  }
  return {};
}

void sort_problems(std::vector<Problem>& problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const Problem& a, const Problem& b) { return a.line < b.line; });
}



// ---------------------------------------------------------------------------------------------
// Captures: two passes over trace.jsonl. The index pass (capture_index.h) validates every line,
// orders the entries by the merge rules and collects stacks and construct edges; the entry pass
// (capture_entries.h) re-reads, per entry, exactly the lines that contribute to it, merges
// them, computes statistics and writes the entry.

// stack.json and construct.json, formatted but not yet published.
struct SideFiles {
  Result<std::unique_ptr<AtomicFile>> stack = Error{}, construct = Error{};
};

// Formats the side files from the index, then frees what only they needed. They depend on the
// index pass only: this runs on another thread while the entry pass runs.
void format_side_files(CaptureIndex& ix, const std::string& out, Overwrite overwrite, SideFiles& files) {
  const Plan& plan = ix.plan;
  {
    dump::StackModel stack;
    for (auto& s : ix.stacks)
      if (kept_by_level(s.name, plan.level) && plan.kept_by_risk(s.name) && kept_by_list(s.name, plan, ix.construct) &&
          (!plan.scope.active() || ix.scope_kept.contains(s.name)))
        stack.add(s.name, s.frames_id, ix.frame_lists);
    files.stack = dump::format_json_file(join_path(out, dump::k_stack_json), overwrite,
                                         [&](pyjson::JsonWriter& w) { stack.write(w); });
    if (files.stack)
      files.construct = dump::format_json_file(join_path(out, dump::k_construct_json), overwrite,
                                               [&](pyjson::JsonWriter& w) { ix.construct.write(w); });
  }
  // Nothing reads them any more: free them here, during the entry pass, rather than at the end.
  std::vector<StackEvent>().swap(ix.stacks);
  ix.construct = dump::ConstructModel();
}

Result<ConvertReport> convert_capture(const ConvertOptions& o, const std::string& dir, const std::string& out,
                                      ConvertReport report) {
  const std::string trace_path = join_path(dir, std::string(k_trace_file));
  auto src = FileSource::open(trace_path);
  if (!src) return src.error();
  auto indexed = index_capture(o, **src, trace_path, report);
  if (!indexed) return indexed.error();
  CaptureIndex& ix = **indexed;
  Plan& plan = ix.plan;
  report.framework = plan.framework;
  report.profile = plan.profile;
  report.level = plan.level;
  report.task = plan.task;
  // --dump-path, else the trace header's dump_path, else OUT as given.
  plan.dump_data_dir = dump_data_dir_for(plan.framework, o.dump_path ? *o.dump_path : ix.header.dump_path.value_or(out));
  if (auto r = prepare_output(out, plan, true, o.overwrite); !r) return r.error();

  auto writer = dump::DumpWriter::create(join_path(out, k_dump_json), dump_header(plan), o.overwrite);
  if (!writer) return writer.error();
  std::vector<const EntryOrder::Entry*> to_write;
  to_write.reserve(ix.order->size());
  for (const auto& entry : ix.order->entries())
    if (kept_by_list(entry.name, plan, ix.construct)) to_write.push_back(&entry);

  SideFiles side;
  std::jthread aux([&] { format_side_files(ix, out, o.overwrite, side); });
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
  auto totals = write_capture_entries(to_write, **src, trace_path, EntryRules{plan.data_mode, plan.profile, plan.framework},
                                      leaf_context(plan, o, out, dir, trace_path), threads, **writer, report.problems);
  if (!totals) return totals.error();
  report.entries = (*writer)->entry_count();
  report.dump_json_bytes = (*writer)->bytes_written();

  // stack.json and construct.json go first to disk, dump.json last: a complete dump.json marks
  // a complete output (batch --resume relies on it).
  aux.join();
  for (auto* file : {&side.stack, &side.construct}) {
    if (!*file) return file->error();
    if (auto r = (**file)->commit(); !r) return r.error();
  }
  if (totals->format_error) return totals->format_error->with_context(join_path(out, k_dump_json));
  if (auto r = (*writer)->finish(); !r) return r.error();

  report.tensors = totals->tensors;
  report.tensor_files = totals->tensor_files;
  report.bytes_read = totals->bytes_read;
  sort_problems(report.problems);
  return report;
}

// ---------------------------------------------------------------------------------------------
// msprobe dumps: one streaming pass over dump.json; the merge rules were applied by msprobe,
// so each entry is final as read.

// The conversion of one msprobe dump: the reader's visitor (msprobe_dump_input.h) calls
// on_header, then on_entry per entry.
class MsprobeDumpConversion {
 public:
  MsprobeDumpConversion(const ConvertOptions& o, const std::string& dir, const std::string& out, ConvertReport& report)
      : m_o(o), m_dir(dir), m_out(out), m_dump_path(join_path(dir, k_dump_json)), m_report(report) {}

  const std::string& dump_path() const { return m_dump_path; }
  Result<void> read_side_documents();
  Result<void> on_header(const MsprobeDumpHeader& h);
  Result<void> on_entry(const std::string& name, Value entry, std::uint64_t line);
  Result<void> finish();

 private:
  bool kept_in_stack(const std::string& name) const {
    return kept_by_level(name, m_plan->level) && m_plan->kept_by_risk(name) && kept_by_list(name, *m_plan, m_construct) &&
           (!m_plan->scope.active() || m_scope_kept.contains(name));
  }

  const ConvertOptions& m_o;
  const std::string& m_dir;
  const std::string& m_out;
  const std::string m_dump_path;
  ConvertReport& m_report;
  std::optional<Value> m_construct_doc, m_stack_doc;  // the input's, read whole (they are small)
  std::optional<Plan> m_plan;
  std::unique_ptr<dump::DumpWriter> m_writer;
  std::optional<LeafConverter> m_leaves;
  dump::ConstructModel m_construct;
  std::unordered_set<std::string> m_scope_kept;  // names with an event inside the scope
  std::optional<Profile> m_input_profile;        // detected from the input's forms
};

Result<void> MsprobeDumpConversion::read_side_documents() {
  for (auto [name, slot] : {std::pair{dump::k_construct_json, &m_construct_doc}, std::pair{dump::k_stack_json, &m_stack_doc}}) {
    const auto p = join_path(m_dir, name);
    if (!fs::exists(p)) continue;
    auto text = read_file(p);
    if (!text) return text.error();
    auto v = pyjson::parse_json(*text);
    if (!v) return v.error().with_context(p);
    *slot = std::move(*v);
  }
  return {};
}

Result<void> MsprobeDumpConversion::on_header(const MsprobeDumpHeader& h) {
  m_input_profile = h.profile;
  // A dump with no form of one generation only converts the same either way: current then.
  auto p = make_plan(m_o, InputKind::msprobe_dump, h.framework, h.level, h.task, h.summary_mode,
                     h.profile.value_or(Profile::current));
  if (!p) return p.error();
  m_plan = std::move(*p);
  Plan& plan = *m_plan;
  // The tensor files are the output's (msprobe names the directory it wrote them to), not
  // the input's, whose dump_data_dir is left behind.
  if (plan.task == Task::tensor) plan.dump_data_dir = dump_data_dir_for(plan.framework, m_o.dump_path ? *m_o.dump_path : m_out);
  if (plan.task == Task::tensor && h.task != Task::tensor)
    return invalid_input(fmt::format("{}: a {} dump has no tensor files to write a tensor dump from", m_dump_path,
                                     to_string(h.task)));
  if (m_construct_doc) {
    if (!m_construct_doc->is_object()) return invalid_input(fmt::format("{}/construct.json: /: expected an object", m_dir));
    for (const auto& m : m_construct_doc->as_object())
      if (construct_key_kept(m.key, plan.level)) m_construct.set_raw(m.key, m.value);
  }
  m_report.framework = plan.framework;
  m_report.profile = plan.profile;
  m_report.level = plan.level;
  m_report.task = plan.task;
  if (auto r = prepare_output(m_out, plan, m_construct_doc.has_value() || m_stack_doc.has_value(), m_o.overwrite); !r)
    return r;
  auto w = dump::DumpWriter::create(join_path(m_out, k_dump_json), dump_header(plan), m_o.overwrite);
  if (!w) return w.error();
  m_writer = std::move(*w);
  m_leaves.emplace(leaf_context(plan, m_o, m_out, join_path(m_dir, dump::k_tensor_dir), m_dump_path));
  return {};
}

Result<void> MsprobeDumpConversion::on_entry(const std::string& name, Value entry, std::uint64_t line) {
  const Plan& plan = *m_plan;
  const auto parsed = dump::parse_entry_name(name);
  if (!dump::level_includes(plan.level, parsed)) {
    if (parsed.kind == dump::EntryKind::unknown)
      m_report.problems.push_back({Problem::Severity::warning, m_dump_path, line, name,
                                   "entry name does not follow msprobe's naming; entry ignored"});
    return {};
  }
  if (parsed.kind == dump::EntryKind::parameters_grad && !plan.data_mode.keeps_parameters_grad()) return {};
  if (!plan.kept_by_risk(name) || !kept_by_list(name, plan, m_construct)) return {};
  if (!entry.is_object()) {
    m_report.problems.push_back({Problem::Severity::error, m_dump_path, line, name, "/: expected an object"});
    return {};
  }
  if (plan.scope.active()) {
    if (!apply_scope_to_entry(name, parsed, entry, m_plan->scope)) return {};
    m_scope_kept.insert(name);
  }
  std::optional<bool> is_recompute;
  if (const Value* r = entry.find("is_recompute"); r != nullptr && r->is_bool()) is_recompute = r->as_bool();
  auto kept = finish_entry(name, entry, is_recompute,
                           EntryRules{plan.data_mode, plan.profile, plan.framework, m_input_profile == plan.profile},
                           *m_leaves, m_dump_path, [line](std::size_t) { return line; }, m_report.problems);
  if (!kept) return kept.error();
  if (*kept) m_writer->write_entry(name, entry);
  return {};
}

// stack.json and construct.json (of the entries kept), then dump.json last.
Result<void> MsprobeDumpConversion::finish() {
  if (!m_writer) return invalid_input(fmt::format("{}: no \"data\" object", m_dump_path));
  if (m_stack_doc) {
    auto stack = dump::StackModel::from_json(*m_stack_doc, [&](const std::string& name) { return kept_in_stack(name); });
    if (!stack) return stack.error().with_context(join_path(m_dir, dump::k_stack_json));
    if (auto r = dump::write_json_file(join_path(m_out, dump::k_stack_json), m_o.overwrite,
                                       [&](pyjson::JsonWriter& w) { stack->write(w); });
        !r)
      return r.error();
  }
  if (m_construct_doc) {
    if (auto r = dump::write_json_file(join_path(m_out, dump::k_construct_json), m_o.overwrite,
                                       [&](pyjson::JsonWriter& w) { m_construct.write(w); });
        !r)
      return r.error();
  }
  m_report.entries = m_writer->entry_count();
  m_report.dump_json_bytes = m_writer->bytes_written();
  if (auto r = m_writer->finish(); !r) return r.error();
  m_report.tensors = m_leaves->tensors();
  m_report.tensor_files = m_leaves->tensor_files();
  m_report.bytes_read = m_leaves->bytes_read();
  return {};
}

Result<ConvertReport> convert_msprobe_dump(const ConvertOptions& o, const std::string& dir, const std::string& out,
                                           ConvertReport report) {
  MsprobeDumpConversion c(o, dir, out, report);
  auto src = FileSource::open(c.dump_path());
  if (!src) return src.error();
  if (auto r = c.read_side_documents(); !r) return r.error();
  MsprobeDumpVisitor visitor;
  visitor.on_header = [&](const MsprobeDumpHeader& h) { return c.on_header(h); };
  visitor.on_entry = [&](const std::string& name, Value entry, std::uint64_t line) {
    return c.on_entry(name, std::move(entry), line);
  };
  if (auto r = read_msprobe_dump(**src, visitor); !r) return r.error();
  if (auto r = c.finish(); !r) return r.error();
  sort_problems(report.problems);
  return report;
}

}  // namespace

std::string Problem::to_string() const {
  std::string s = file;
  if (line != 0) s += fmt::format(":{}", line);
  if (!entry.empty()) s += ": " + entry;
  return s + ": " + message;
}

bool ConvertReport::has_errors() const {
  return std::any_of(problems.begin(), problems.end(),
                     [](const Problem& p) { return p.severity == Problem::Severity::error; });
}

Result<ConvertReport> convert_one(const ConvertOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  std::error_code ec;
  // A file argument (trace.jsonl, dump.json) names its directory.
  const fs::path input_dir = fs::is_regular_file(o.input, ec) ? fs::path(o.input).parent_path() : fs::path(o.input);
  const std::string dir = input_dir.empty() ? std::string(1, '.') : input_dir.string();
  ConvertReport report;
  report.input = o.input;
  report.output = o.output;
  Result<ConvertReport> r = Error{};
  if (fs::exists(join_path(dir, std::string(k_trace_file)))) {
    report.input_kind = "capture";
    r = convert_capture(o, dir, o.output, std::move(report));
  } else if (fs::exists(join_path(dir, k_dump_json))) {
    report.input_kind = "msprobe-dump";
    r = convert_msprobe_dump(o, dir, o.output, std::move(report));
  } else {
    return invalid_input(fmt::format("'{}': neither trace.jsonl nor dump.json found", o.input));
  }
  if (r) r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace msdump::convert
