#include "convert/convert.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstring>
#include <filesystem>
#include <unordered_set>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "convert/capture_entry.h"
#include "convert/data_mode.h"
#include "convert/entry_order.h"
#include "convert/leaf_converter.h"
#include "convert/msprobe_dump_input.h"
#include "convert/risk_level.h"
#include "convert/scope_filter.h"
#include "core/byte_source.h"
#include "core/logger.h"
#include "dump/construct_model.h"
#include "dump/dump_writer.h"
#include "dump/entry_name.h"
#include "dump/frame_lists.h"
#include "dump/stack_model.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "trace/event_scan.h"
#include "trace/line_hash.h"
#include "trace/line_reader.h"
#include "trace/meta_event_parse.h"
#include "trace/trace_event.h"

namespace msdump::convert {
namespace {

namespace fs = std::filesystem;
using pyjson::Value;

constexpr std::string_view k_trace_file = "trace.jsonl";
constexpr std::string_view k_dump_file = "dump.json";

// Everything decided before the first entry is written.
struct Plan {
  InputKind kind = InputKind::capture;
  Framework framework = Framework::pytorch;
  Profile profile = Profile::current;
  Level input_level = Level::mix;
  Level level = Level::mix;
  Task task = Task::statistics;
  SummaryMode summary_mode = SummaryMode::statistics;
  DataMode data_mode;
  std::vector<std::string> list;
  ScopeFilter scope;
  std::optional<RiskLevel> risk;  // the risk filter to apply, if any
  std::optional<std::string> dump_data_dir;

  bool kept_by_risk(std::string_view name) const { return !risk || risk_keeps(*risk, name); }
};

bool level_narrows(Level input, Level wanted) { return input == wanted || input == Level::mix; }

// msprobe's "list" (BaseScope.check_api_list, MixRangeScope): a name is kept when a list item
// is a substring of it; at level mix a module that matches also keeps everything executed
// inside it (its construct.json descendants).
bool kept_by_list(std::string_view name, const Plan& plan, const dump::ConstructModel& construct) {
  if (plan.list.empty()) return true;
  for (const auto& item : plan.list)
    if (name.find(item) != std::string::npos) return true;
  if (plan.level != Level::mix) return false;
  std::string cur(name);
  for (std::size_t hops = 0; hops <= construct.size(); ++hops) {
    auto parent = construct.parent_of(cur);
    if (!parent) return false;
    for (const auto& item : plan.list)
      if (parent->find(item) != std::string::npos && dump::parse_entry_name(*parent).is_module()) return true;
    cur = std::move(*parent);
  }
  return false;
}

bool is_input_section(std::string_view key) { return key == "input_args" || key == "input_kwargs"; }

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

bool kept_by_level(const std::string& name, Level level) {
  return dump::level_includes(level, dump::parse_entry_name(name));
}

// construct.json keeps at L0 only module/cell nodes (docs/format.md §8.2); L1 records nothing.
bool construct_key_kept(const std::string& key, Level level) {
  if (level == Level::L1) return false;
  if (key == dump::k_megatron_key || level == Level::mix) return true;
  return dump::parse_entry_name(key).is_module();
}

std::string join_path(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  return a.back() == '/' ? a + b : a + "/" + b;
}

// dump_data_dir as msprobe writes it (docs/format.md §2): <dump_path>/dump_tensor_data, the
// dump_path as given for PyTorch, made absolute (os.path.abspath) first by the MindSpore side,
// which writes MindSpore and MSAdapter (mindtorch) dumps.
std::string dump_data_dir_for(Framework framework, const std::string& dump_path) {
  std::string base = dump_path;
  if (framework != Framework::pytorch) {
    std::error_code ec;
    const auto abs = fs::absolute(dump_path, ec).lexically_normal().string();
    if (!ec) base = abs.size() > 1 && abs.back() == '/' ? abs.substr(0, abs.size() - 1) : abs;
  }
  return join_path(base, "dump_tensor_data");
}

// msprobe applies risk_level to PyTorch API hooks only, and not at all when scope or list is
// configured. A capture that records every call (header risk_level) gets the default FOCUS.
Result<std::optional<RiskLevel>> risk_filter(const ConvertOptions& o, Framework framework, Level level,
                                             std::optional<RiskLevel> recorded) {
  if (framework != Framework::pytorch || level == Level::L0 || !o.list.empty() || !o.scope.empty())
    return std::optional<RiskLevel>{};
  if (!recorded) return o.risk_level;
  const RiskLevel wanted = o.risk_level.value_or(RiskLevel::focus);
  if (!risk_narrows(*recorded, wanted))
    return invalid_input(fmt::format("cannot convert a capture recorded at risk level {} to risk level {}: "
                                     "those calls were not recorded",
                                     to_string(*recorded), to_string(wanted)));
  return wanted == *recorded ? std::optional<RiskLevel>{} : std::optional<RiskLevel>{wanted};
}

Result<Plan> make_plan(const ConvertOptions& o, InputKind kind, Framework framework, Level input_level,
                       Task input_task, SummaryMode input_mode, Profile detected_profile,
                       std::optional<RiskLevel> recorded_risk = std::nullopt) {
  Plan p;
  p.kind = kind;
  p.framework = framework;
  p.input_level = input_level;
  p.level = o.level.value_or(input_level);
  if (!level_narrows(input_level, p.level))
    return invalid_input(fmt::format("cannot convert a level {} input to level {}: those entries were not recorded",
                                     to_string(input_level), to_string(p.level)));
  p.task = o.task.value_or(input_task);
  if (p.task == Task::structure) return unsupported("task structure is not produced by convert");
  p.summary_mode = o.summary_mode.value_or(input_mode);
  if (p.summary_mode == SummaryMode::xor_checksum && framework != Framework::pytorch)
    return invalid_input("summary mode xor exists only for PyTorch dumps");
  p.profile = o.profile.value_or(detected_profile);
  auto dm = DataMode::parse(o.data_mode);
  if (!dm) return dm.error();
  p.data_mode = *dm;
  p.list = o.list;
  auto scope = ScopeFilter::create(o.scope, p.level);
  if (!scope) return scope.error();
  p.scope = std::move(*scope);
  auto risk = risk_filter(o, framework, p.level, recorded_risk);
  if (!risk) return risk.error();
  p.risk = *risk;
  if (kind == InputKind::msprobe_dump && p.scope.active() && p.level != Level::L1)
    return invalid_input(
        "scope on an msprobe dump works at level L1 only (API names): a dump does not record when modules "
        "begin and end; convert the capture, or use --level L1");
  return p;
}

// Prepares OUT: creates it, and refuses to replace existing outputs without overwrite before
// anything is written (so a refused run changes nothing).
Result<void> prepare_output(const std::string& out, const Plan& plan, bool writes_extra, Overwrite overwrite) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return io_error(fmt::format("cannot create '{}': {}", out, ec.message()));
  if (overwrite == Overwrite::no) {
    std::vector<std::string> names{std::string(k_dump_file)};
    if (writes_extra) names.insert(names.end(), {"stack.json", "construct.json"});
    for (const auto& n : names) {
      const auto p = join_path(out, n);
      if (fs::exists(fs::symlink_status(p)))
        return Error{ErrorCode::exists, fmt::format("'{}' exists (use --force to replace it)", p)};
    }
  }
  if (plan.task == Task::tensor) {
    fs::create_directories(join_path(out, "dump_tensor_data"), ec);
    if (ec) return io_error(fmt::format("cannot create '{}/dump_tensor_data': {}", out, ec.message()));
  }
  return {};
}

void sort_problems(std::vector<Problem>& problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const Problem& a, const Problem& b) { return a.line < b.line; });
}

LeafContext leaf_context(const Plan& plan, const ConvertOptions& o, const std::string& out, std::string source_dir,
                         std::string input_file) {
  LeafContext c;
  c.input_kind = plan.kind;
  c.framework = plan.framework;
  c.profile = plan.profile;
  c.task = plan.task;
  c.summary_mode = plan.summary_mode;
  c.precision = o.precision;
  c.source_dir = std::move(source_dir);
  c.tensor_out = join_path(out, "dump_tensor_data");
  c.input_file = std::move(input_file);
  c.overwrite = o.overwrite;
  c.threads = o.threads;
  return c;
}

dump::DumpHeader dump_header(const Plan& plan) {
  return dump::DumpHeader{std::string(to_string(plan.task)), std::string(to_string(plan.level)),
                          std::string(to_string(plan.framework)),
                          plan.task == Task::tensor ? plan.dump_data_dir : std::nullopt};
}


// ---------------------------------------------------------------------------------------------
// Captures: two passes over trace.jsonl. Pass 1 validates every line, orders the entries by the
// merge rules and collects stacks and construct edges; pass 2 re-reads, per entry, exactly the
// lines that contribute to it, merges them, computes statistics and writes the entry.

struct StackEvent {
  std::string name;
  std::uint32_t frames_id = 0;  // in the conversion's FrameLists
};

Result<ConvertReport> convert_capture(const ConvertOptions& o, const std::string& dir, const std::string& out,
                                      ConvertReport report) {
  const std::string trace_path = join_path(dir, std::string(k_trace_file));
  auto src = FileSource::open(trace_path);
  if (!src) return src.error();
  auto at = [&](std::uint64_t line) { return fmt::format("{}:{}", trace_path, line); };

  std::optional<trace::TraceHeader> header;
  std::optional<Plan> plan;
  std::optional<EntryOrder> order;
  std::vector<StackEvent> stacks;
  dump::FrameLists frame_lists;  // distinct call stacks, interned as stack events are applied
  dump::ConstructModel construct;
  std::vector<std::string> header_warnings;
  std::unordered_set<std::string> scope_kept;  // names with an event inside the scope

  // Pass 1 runs as a pipeline: a reader thread reads the lines into batches; each batch is
  // scanned (plain data lines: no values built; stack and construct lines: parsed directly;
  // any other line: parsed fully) by whichever thread gets to it first: this thread, which
  // then applies the batches in line order (header, merge order, stacks, construct), or the
  // reader, which scans the newest batches while the queue is full. Errors come out in line
  // order as before.
  struct LineRec {
    std::uint64_t number = 0;
    std::uint64_t offset = 0;
    std::uint32_t length = 0;
    std::uint32_t text_off = 0;            // the line's bytes in the batch's text
    bool terminated = true;
    bool header = false;                   // the first non-blank line: always parsed fully
    bool scanned = false;                  // a plain data line: name and keys in the batch
    std::uint64_t name_hash = 0;           // NameTable hash of the event's name, when known
    std::uint64_t text_hash = 0;           // a plain data line: trace::line_hash of its text
    std::uint32_t name_off = 0, name_len = 0;
    std::uint32_t keys_begin = 0, keys_end = 0;
    std::optional<trace::TraceEvent> event;  // a stack or construct line, parsed directly; or
    std::optional<Value> value;            // otherwise: the parsed line, or
    std::optional<Error> error;            // why it does not parse
  };
  struct LineBatch {
    std::string text;   // the lines, back to back
    std::string chars;  // names and keys of the scanned lines
    std::vector<std::pair<std::uint32_t, std::uint32_t>> keys;
    std::vector<LineRec> recs;
    std::optional<Error> read_error;  // for_each_line failed after these lines
    bool last = false;
    enum class State { raw, scanning, scanned } state = State::raw;  // guarded by the queue's mutex
  };
  // Scans the lines of a raw batch (see above); run by one thread at a time per batch.
  auto scan_batch = [](LineBatch& batch) {
    trace::ScannedEvent scanned;
    trace::TraceEvent meta;
    for (auto& rec : batch.recs) {
      const std::string_view text = std::string_view(batch.text).substr(rec.text_off, rec.length);
      // Stack and construct lines as the writer of traces spells them go to their own parser
      // first (the data scan would only find their kind after reading them whole).
      const bool meta_line = text.starts_with(R"({"kind": "stack")") || text.starts_with(R"({"kind": "construct")");
      if (!rec.header && !meta_line && trace::scan_event_line(text, scanned) && scanned.kind == "data" &&
          !scanned.name.empty()) {
        rec.scanned = true;
        rec.text_hash = trace::line_hash(text);
        rec.name_hash = EntryOrder::hash(scanned.name);
        rec.name_off = static_cast<std::uint32_t>(batch.chars.size());
        rec.name_len = static_cast<std::uint32_t>(scanned.name.size());
        batch.chars += scanned.name;
        rec.keys_begin = static_cast<std::uint32_t>(batch.keys.size());
        for (const auto k : scanned.keys) {
          batch.keys.emplace_back(static_cast<std::uint32_t>(batch.chars.size()), static_cast<std::uint32_t>(k.size()));
          batch.chars += k;
        }
        rec.keys_end = static_cast<std::uint32_t>(batch.keys.size());
      } else if (!rec.header && trace::parse_meta_event_line(text, meta)) {
        rec.name_hash = EntryOrder::hash(meta.name);
        rec.event = std::move(meta);
      } else if (text.find_first_not_of(" \t\r") != std::string_view::npos) {
        auto v = pyjson::parse_json(text);
        if (v) {
          if (const auto* n = v->find("name"); n != nullptr && n->is_string()) rec.name_hash = EntryOrder::hash(n->as_string());
          rec.value = std::move(*v);
        } else {
          rec.error = v.error();
        }
      }
    }
  };

  // A data event of the index pass: where it goes in the entry order. `keys` are its members
  // but "kind" and "name".
  auto on_data = [&](std::string_view name_text, std::uint64_t name_hash, const std::vector<std::string_view>& keys,
                     const LineRec& line) -> Result<void> {
    const auto name = dump::parse_entry_name(name_text);
    if (name.kind == dump::EntryKind::unknown) {
      const auto msg = fmt::format("entry name \"{}\" does not follow msprobe's naming; entry ignored", name_text);
      if (o.strict) return invalid_input(fmt::format("{}: /name: {}", at(line.number), msg));
      report.problems.push_back({Problem::Severity::warning, trace_path, line.number, std::string(name_text), msg});
      return {};
    }
    if (!dump::level_includes(plan->level, name) || !plan->kept_by_risk(name_text)) return {};
    if (plan->scope.active()) {
      bool has_input = false, has_output = false;
      for (const auto key : keys) {
        has_input = has_input || is_input_section(key);
        has_output = has_output || key == "output";
      }
      const auto [opens, closes] = ScopeFilter::module_edges(name, has_input, has_output);
      const std::string n(name_text);
      if (!plan->scope.event(n, opens, closes)) return {};
      scope_kept.insert(n);
    }
    if (name.kind == dump::EntryKind::parameters_grad && !plan->data_mode.keeps_parameters_grad()) return {};
    bool any = false, has_output = false;
    for (const auto key : keys) {
      if (!trace::is_known_section(key) && name.kind != dump::EntryKind::parameters_grad) {
        const auto msg = fmt::format("/{}: unknown section", key);
        if (o.strict) return invalid_input(fmt::format("{}: {}", at(line.number), msg));
        report.problems.push_back({Problem::Severity::warning, trace_path, line.number, std::string(name_text), msg});
      }
      if (key == "is_recompute" || !plan->data_mode.keeps_section(name.kind, key)) continue;
      any = true;
      has_output = has_output || key == "output";
    }
    if (!any) return {};
    order->add(name_text, name_hash, EventRef{line.number, line.offset, line.length, line.text_hash},
               name.kind == dump::EntryKind::module_forward, has_output);
    return {};
  };

  std::vector<std::string_view> keys;
  // One parsed event (not the header) of line `line`.
  auto apply_event = [&](trace::TraceEvent& ev, const LineRec& line) -> Result<void> {
    switch (ev.kind) {
      case trace::EventKind::unknown:
        if (o.strict) return invalid_input(fmt::format("{}: /kind: unknown event kind \"{}\"", at(line.number), ev.unknown_kind));
        report.problems.push_back({Problem::Severity::warning, trace_path, line.number, "",
                                   fmt::format("unknown event kind \"{}\" ignored", ev.unknown_kind)});
        return {};
      case trace::EventKind::stack:
        stacks.push_back({std::move(ev.name), frame_lists.intern(std::move(ev.frames))});
        return {};
      case trace::EventKind::construct:
        if (construct_key_kept(ev.name, plan->level)) {
          std::optional<std::string> parent = std::move(ev.parent);
          if (parent && !construct_key_kept(*parent, plan->level)) parent.reset();
          const auto h = line.name_hash != 0 ? line.name_hash : dump::ConstructModel::hash(ev.name);
          construct.set(std::move(ev.name), h, std::move(parent),
                        header->megatron ? std::optional<std::int64_t>(ev.micro_step.value_or(0)) : std::nullopt);
        }
        return {};
      case trace::EventKind::data: break;
    }
    keys.clear();
    for (const auto& m : ev.sections) keys.push_back(m.key);
    return on_data(ev.name, EntryOrder::hash(ev.name), keys, line);
  };
  auto apply_line = [&](LineBatch& batch, LineRec& line) -> Result<void> {
    if (line.scanned) {
      keys.clear();
      for (std::uint32_t k = line.keys_begin; k < line.keys_end; ++k)
        keys.push_back(std::string_view(batch.chars).substr(batch.keys[k].first, batch.keys[k].second));
      return on_data(std::string_view(batch.chars).substr(line.name_off, line.name_len), line.name_hash, keys, line);
    }
    if (line.event) return apply_event(*line.event, line);
    if (line.error) {
      if (!line.terminated && header) {
        report.truncated = true;
        report.problems.push_back({Problem::Severity::warning, trace_path, line.number, "",
                                   "truncated last line ignored (the capture stopped mid-write): " +
                                       line.error->message});
        return {};
      }
      return line.error->with_context(at(line.number));
    }
    if (!line.value) return {};  // blank
    Value& value = *line.value;
    if (!header) {
      auto h = trace::parse_trace_header(value, header_warnings);
      if (!h) return h.error().with_context(at(line.number));
      header = *h;
      auto p = make_plan(o, InputKind::capture, h->framework, h->level, h->task.value_or(Task::statistics),
                         h->summary_mode.value_or(SummaryMode::statistics), Profile::current, h->risk_level);
      if (!p) return p.error();
      plan = std::move(*p);
      order.emplace(plan->profile);
      // No rehashing while the index grows: about one entry per KiB of trace or more.
      const auto expected = static_cast<std::size_t>(std::min<std::uint64_t>((*src)->size() / 1024, 1u << 22));
      order->reserve(expected);
      construct.reserve(expected);
      for (auto& w : header_warnings)
        report.problems.push_back({Problem::Severity::warning, trace_path, line.number, "", std::move(w)});
      return {};
    }
    auto ev = trace::parse_trace_event(std::move(value));
    if (!ev) return ev.error().with_context(at(line.number));
    return apply_event(*ev, line);
  };

  const auto pass1_started = std::chrono::steady_clock::now();
  auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  Result<void> pass1;
  {
    std::mutex qmu;
    std::condition_variable q_cv;
    std::deque<std::unique_ptr<LineBatch>> queue;
    std::vector<std::unique_ptr<LineBatch>> spare;  // applied batches, for the reader to refill
    bool q_stop = false;
    constexpr std::size_t k_queue_batches = 4;
    constexpr std::size_t k_batch_lines = 2048;
    // Takes the newest raw batch of the queue for scanning, or returns nullptr (lock held).
    auto claim_newest = [&]() -> LineBatch* {
      for (auto it = queue.rbegin(); it != queue.rend(); ++it)
        if ((*it)->state == LineBatch::State::raw) {
          (*it)->state = LineBatch::State::scanning;
          return it->get();
        }
      return nullptr;
    };
    std::jthread reader([&] {
      // A batch whose memory is already mapped and warm, when one came back from the applier.
      auto new_batch = [&] {
        std::unique_ptr<LineBatch> b;
        {
          std::lock_guard lock(qmu);
          if (!spare.empty()) {
            b = std::move(spare.back());
            spare.pop_back();
          }
        }
        if (!b) {
          b = std::make_unique<LineBatch>();
          b->recs.reserve(k_batch_lines);
          b->chars.reserve(k_batch_lines * 64);
          b->keys.reserve(k_batch_lines * 2);
        }
        b->text.clear();
        b->recs.clear();
        b->chars.clear();
        b->keys.clear();
        b->read_error.reset();
        b->last = false;
        b->state = LineBatch::State::raw;
        return b;
      };
      auto batch = new_batch();
      bool header_seen = false;
      // Queues the batch; while the queue is full, scans its newest raw batches.
      auto hand_over = [&](bool last) -> bool {
        batch->last = last;
        {
          std::unique_lock lock(qmu);
          if (q_stop) return false;
          queue.push_back(std::move(batch));
          q_cv.notify_all();
          while (!q_stop && queue.size() > k_queue_batches) {
            if (LineBatch* b = claim_newest()) {
              lock.unlock();
              scan_batch(*b);
              lock.lock();
              b->state = LineBatch::State::scanned;
              q_cv.notify_all();
              continue;
            }
            q_cv.wait(lock);
          }
          if (q_stop) return false;
        }
        if (!last) batch = new_batch();
        return true;
      };
      auto r = trace::for_each_line(**src, [&](const trace::Line& line) -> Result<void> {
        LineRec& rec = batch->recs.emplace_back();
        rec.number = line.number;
        rec.offset = line.offset;
        rec.length = static_cast<std::uint32_t>(line.text.size());
        rec.text_off = static_cast<std::uint32_t>(batch->text.size());
        rec.terminated = line.terminated;
        if (!header_seen && line.text.find_first_not_of(" \t\r") != std::string_view::npos)
          rec.header = header_seen = true;
        batch->text += line.text;
        if ((batch->recs.size() >= k_batch_lines || batch->text.size() >= (std::size_t{1} << 30)) && !hand_over(false))
          return Error{ErrorCode::internal, "stopped"};
        return {};
      });
      if (!r) {
        {
          std::lock_guard lock(qmu);
          if (q_stop) return;
        }
        batch->read_error = r.error();
      }
      hand_over(true);
    });
    auto stop_reader = [&] {
      {
        std::lock_guard lock(qmu);
        q_stop = true;
      }
      q_cv.notify_all();
    };
    // Index slots of the names a few lines ahead are loaded while this line is applied.
    constexpr std::size_t k_prefetch_lines = 8;
    auto prefetch = [&](const LineRec& line) {
      if (line.name_hash == 0 || !order) return;
      if (line.scanned) order->prefetch(line.name_hash);
      else construct.prefetch(line.name_hash);
    };
    while (true) {
      LineBatch* batch = nullptr;
      {
        std::unique_lock lock(qmu);
        q_cv.wait(lock, [&] { return !queue.empty(); });
        batch = queue.front().get();
        if (batch->state == LineBatch::State::raw) {
          batch->state = LineBatch::State::scanning;
          lock.unlock();
          scan_batch(*batch);
          lock.lock();
          batch->state = LineBatch::State::scanned;
        }
        q_cv.wait(lock, [&] { return batch->state == LineBatch::State::scanned; });
      }
      Result<void> r;
      for (std::size_t i = 0; i < batch->recs.size() && i < k_prefetch_lines; ++i) prefetch(batch->recs[i]);
      for (std::size_t i = 0; i < batch->recs.size(); ++i) {
        if (i + k_prefetch_lines < batch->recs.size()) prefetch(batch->recs[i + k_prefetch_lines]);
        r = apply_line(*batch, batch->recs[i]);
        if (!r) break;
      }
      if (r && batch->read_error) r = *batch->read_error;
      if (!r) {
        pass1 = r;
        stop_reader();
        break;
      }
      const bool last = batch->last;
      {
        std::lock_guard lock(qmu);
        auto done = std::move(queue.front());
        queue.pop_front();
        if (!last && spare.size() < k_queue_batches) spare.push_back(std::move(done));
      }
      q_cv.notify_all();
      if (last) break;
    }
  }
  if (!pass1) return pass1.error();
  if (!header) return invalid_input(fmt::format("{}: empty trace (expected a header line)", trace_path));
  logger().debug("{}: index pass: {} entries, {} stack events, {} construct.json keys in {:.3f} s", trace_path,
                 order->size(), stacks.size(), construct.size(), seconds_since(pass1_started));

  report.framework = plan->framework;
  report.profile = plan->profile;
  report.level = plan->level;
  report.task = plan->task;
  // --dump-path, else the trace header's dump_path, else OUT as given.
  plan->dump_data_dir =
      dump_data_dir_for(plan->framework, o.dump_path ? *o.dump_path : header->dump_path.value_or(out));
  if (auto r = prepare_output(out, *plan, true, o.overwrite); !r) return r.error();

  // Pass 2: batches of consecutive entries are merged, converted and formatted on worker
  // threads; this thread writes the formatted batches in order (the bytes do not depend on
  // the number of threads). Problems are collected per batch and appended in batch order.
  auto writer = dump::DumpWriter::create(join_path(out, std::string(k_dump_file)), dump_header(*plan), o.overwrite);
  if (!writer) return writer.error();
  const auto pass2_started = std::chrono::steady_clock::now();
  std::vector<const EntryOrder::Entry*> to_write;
  to_write.reserve(order->size());
  for (const auto& entry : order->entries())
    if (kept_by_list(entry.name, *plan, construct)) to_write.push_back(&entry);

  struct Worker {
    explicit Worker(LeafContext c) : leaves(std::move(c)) {}
    LeafConverter leaves;
    std::string span;                // the trace bytes of a batch's events, when they lie close together
    std::vector<std::string> lines;  // else the lines of one entry
    std::string name;
    std::vector<EventLine> events;
    CaptureEntry entry;
  };
  const EntryRules rules{plan->data_mode, plan->profile, plan->framework};
  struct Slot {
    dump::EntryFormatter fmt;
    std::vector<Problem> problems;
    std::optional<Error> error;         // the batch failed: the conversion stops
    std::optional<Error> format_error;  // the writer's verdict (reported as finish() would)
    std::string_view items;
    bool ready = false;
  };

  // One batch [begin, end) of `to_write` into `slot`.
  auto run_batch = [&](Worker& w, std::size_t begin, std::size_t end, Slot& slot) {
    slot.fmt.reset();
    slot.problems.clear();
    slot.error.reset();
    slot.format_error.reset();
    // Read the events of the whole batch at once when they are close together in the file.
    std::uint64_t lo = UINT64_MAX, hi = 0, bytes = 0;
    for (std::size_t i = begin; i < end; ++i)
      for (const auto& ref : to_write[i]->events) {
        lo = std::min(lo, ref.offset);
        hi = std::max(hi, ref.offset + ref.length);
        bytes += ref.length;
      }
    const bool spanned = lo < hi && hi - lo <= (std::uint64_t{16} << 20) && hi - lo <= 4 * bytes + (64 << 10);
    if (spanned) {
      if (auto r = trace::read_line_at(**src, lo, static_cast<std::uint32_t>(hi - lo), w.span); !r) {
        slot.error = r.error();
        return;
      }
    }
    for (std::size_t i = begin; i < end; ++i) {
      const auto& entry = *to_write[i];
      const std::string& name = w.name.assign(entry.name);
      w.events.clear();
      if (!spanned && w.lines.size() < entry.events.size()) w.lines.resize(entry.events.size());
      for (const auto& ref : entry.events) {
        if (spanned) {
          w.events.push_back({std::string_view(w.span).substr(ref.offset - lo, ref.length), ref.line, ref.text_hash});
          continue;
        }
        // One line at a time: each in its own buffer, all alive until the entry is written.
        std::string& text = w.lines[w.events.size()];
        if (auto r = trace::read_line_at(**src, ref.offset, ref.length, text); !r) {
          slot.error = r.error();
          return;
        }
        w.events.push_back({text, ref.line, ref.text_hash});
      }
      auto kept = w.entry.write(name, w.events, rules, w.leaves, trace_path, slot.fmt, slot.problems);
      if (!kept) {
        slot.error = kept.error();
        return;
      }
    }
    auto items = slot.fmt.finish();
    if (items) slot.items = *items;
    else slot.format_error = items.error();
  };

  constexpr std::size_t k_batch_entries = 256;
  const std::size_t n_batches = (to_write.size() + k_batch_entries - 1) / k_batch_entries;
  const std::size_t n_workers =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
  const std::size_t n_slots = 2 * n_workers + 2;  // batches in flight: bounds memory
  std::vector<std::unique_ptr<Slot>> slots;
  for (std::size_t k = 0; k < n_slots; ++k) slots.push_back(std::make_unique<Slot>());
  std::vector<std::unique_ptr<Worker>> workers;
  for (std::size_t k = 0; k < n_workers; ++k)
    workers.push_back(std::make_unique<Worker>(leaf_context(*plan, o, out, dir, trace_path)));

  // stack.json and construct.json depend only on the index pass: format them on another
  // thread while pass 2 runs, and publish them (in this order) once it has succeeded.
  Result<std::unique_ptr<AtomicFile>> stack_file = Error{}, construct_file = Error{};
  std::jthread aux([&] {
    {
      dump::StackModel stack;
      for (auto& s : stacks)
        if (kept_by_level(s.name, plan->level) && plan->kept_by_risk(s.name) && kept_by_list(s.name, *plan, construct) &&
            (!plan->scope.active() || scope_kept.contains(s.name)))
          stack.add(s.name, s.frames_id, frame_lists);
      stack_file = dump::format_json_file(join_path(out, "stack.json"), o.overwrite,
                                    [&](pyjson::JsonWriter& w) { stack.write(w); });
      if (stack_file)
        construct_file = dump::format_json_file(join_path(out, "construct.json"), o.overwrite,
                                          [&](pyjson::JsonWriter& w) { construct.write(w); });
    }
    // Nothing reads them any more: free them here, during pass 2, rather than at the end.
    std::vector<StackEvent>().swap(stacks);
    construct = dump::ConstructModel();
  });

  std::mutex mu;
  std::condition_variable cv_ready, cv_free;
  std::size_t next_batch = 0, written = 0;
  bool stop = false;
  std::optional<Error> failure, format_failure;
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < n_workers; ++t)
      threads.emplace_back([&, t] {
        Worker& w = *workers[t];
        while (true) {
          std::size_t k = 0;
          {
            std::unique_lock lock(mu);
            if (stop || next_batch >= n_batches) return;
            k = next_batch++;
            cv_free.wait(lock, [&] { return stop || k < written + n_slots; });
            if (stop) return;
          }
          Slot& slot = *slots[k % n_slots];
          run_batch(w, k * k_batch_entries, std::min(to_write.size(), (k + 1) * k_batch_entries), slot);
          {
            std::lock_guard lock(mu);
            slot.ready = true;
          }
          cv_ready.notify_all();
        }
      });
    for (std::size_t k = 0; k < n_batches; ++k) {
      Slot& slot = *slots[k % n_slots];
      {
        std::unique_lock lock(mu);
        cv_ready.wait(lock, [&] { return slot.ready; });
      }
      if (slot.error) {
        failure = std::move(slot.error);
        break;
      }
      if (slot.format_error && !format_failure) format_failure = std::move(slot.format_error);
      (*writer)->write_raw_entries(slot.items, slot.fmt.count());
      for (auto& p : slot.problems) report.problems.push_back(std::move(p));
      {
        std::lock_guard lock(mu);
        slot.ready = false;
        ++written;
      }
      cv_free.notify_all();
    }
    {
      std::lock_guard lock(mu);
      stop = true;
    }
    cv_free.notify_all();
  }
  if (failure) return std::move(*failure);
  logger().debug("{}: entry pass: {} entries in {} batches on {} threads in {:.3f} s", trace_path, to_write.size(),
                 n_batches, n_workers, seconds_since(pass2_started));
  std::uint64_t n_tensors = 0, n_tensor_files = 0, n_bytes_read = 0;
  for (const auto& w : workers) {
    n_tensors += w->leaves.tensors();
    n_tensor_files += w->leaves.tensor_files();
    n_bytes_read += w->leaves.bytes_read();
  }
  report.entries = (*writer)->entry_count();
  report.dump_json_bytes = (*writer)->bytes_written();

  // stack.json and construct.json go first to disk, dump.json last: a complete dump.json marks
  // a complete output (batch --resume relies on it). They were formatted during pass 2.
  aux.join();
  for (auto* side : {&stack_file, &construct_file}) {
    if (!*side) return side->error();
    if (auto r = (**side)->commit(); !r) return r.error();
  }
  if (format_failure) return format_failure->with_context(join_path(out, std::string(k_dump_file)));
  if (auto r = (*writer)->finish(); !r) return r.error();

  report.tensors = n_tensors;
  report.tensor_files = n_tensor_files;
  report.bytes_read = n_bytes_read;
  sort_problems(report.problems);
  return report;
}

// ---------------------------------------------------------------------------------------------
// msprobe dumps: one streaming pass over dump.json; the merge rules were applied by msprobe,
// so each entry is final as read.

Result<ConvertReport> convert_msprobe_dump(const ConvertOptions& o, const std::string& dir, const std::string& out,
                                           ConvertReport report) {
  const std::string dump_path = join_path(dir, std::string(k_dump_file));
  auto src = FileSource::open(dump_path);
  if (!src) return src.error();

  // construct.json and stack.json are small: read them whole.
  std::optional<Value> construct_doc, stack_doc;
  for (auto [name, slot] : {std::pair{"construct.json", &construct_doc}, std::pair{"stack.json", &stack_doc}}) {
    const auto p = join_path(dir, name);
    if (!fs::exists(p)) continue;
    auto text = read_file(p);
    if (!text) return text.error();
    auto v = pyjson::parse_json(*text);
    if (!v) return v.error().with_context(p);
    *slot = std::move(*v);
  }

  std::optional<Plan> plan;
  std::unique_ptr<dump::DumpWriter> writer;
  std::optional<LeafConverter> leaves;
  dump::ConstructModel construct;
  std::unordered_set<std::string> scope_kept;  // names with an event inside the scope
  std::optional<Profile> input_profile;         // detected from the input's forms

  MsprobeDumpVisitor visitor;
  visitor.on_header = [&](const MsprobeDumpHeader& h) -> Result<void> {
    input_profile = h.profile;
    // A dump with no form of one generation only converts the same either way: current then.
    auto p = make_plan(o, InputKind::msprobe_dump, h.framework, h.level, h.task, h.summary_mode,
                       h.profile.value_or(Profile::current));
    if (!p) return p.error();
    plan = std::move(*p);
    // The tensor files are the output's (msprobe names the directory it wrote them to), not
    // the input's, whose dump_data_dir is left behind.
    if (plan->task == Task::tensor)
      plan->dump_data_dir = dump_data_dir_for(plan->framework, o.dump_path ? *o.dump_path : out);
    if (plan->task == Task::tensor && h.task != Task::tensor)
      return invalid_input(fmt::format("{}: a {} dump has no tensor files to write a tensor dump from", dump_path,
                                       to_string(h.task)));
    if (construct_doc) {
      if (!construct_doc->is_object())
        return invalid_input(fmt::format("{}/construct.json: /: expected an object", dir));
      for (const auto& m : construct_doc->as_object())
        if (construct_key_kept(m.key, plan->level)) construct.set_raw(m.key, m.value);
    }
    report.framework = plan->framework;
    report.profile = plan->profile;
    report.level = plan->level;
    report.task = plan->task;
    if (auto r = prepare_output(out, *plan, construct_doc.has_value() || stack_doc.has_value(), o.overwrite); !r)
      return r;
    auto w = dump::DumpWriter::create(join_path(out, std::string(k_dump_file)), dump_header(*plan), o.overwrite);
    if (!w) return w.error();
    writer = std::move(*w);
    leaves.emplace(leaf_context(*plan, o, out, join_path(dir, "dump_tensor_data"), dump_path));
    return {};
  };
  visitor.on_entry = [&](const std::string& name, Value entry, std::uint64_t line) -> Result<void> {
    const auto parsed = dump::parse_entry_name(name);
    if (!dump::level_includes(plan->level, parsed)) {
      if (parsed.kind == dump::EntryKind::unknown)
        report.problems.push_back({Problem::Severity::warning, dump_path, line, name,
                                   "entry name does not follow msprobe's naming; entry ignored"});
      return {};
    }
    if (parsed.kind == dump::EntryKind::parameters_grad && !plan->data_mode.keeps_parameters_grad()) return {};
    if (!plan->kept_by_risk(name) || !kept_by_list(name, *plan, construct)) return {};
    if (!entry.is_object()) {
      report.problems.push_back({Problem::Severity::error, dump_path, line, name, "/: expected an object"});
      return {};
    }
    if (plan->scope.active()) {
      if (!apply_scope_to_entry(name, parsed, entry, plan->scope)) return {};
      scope_kept.insert(name);
    }
    std::optional<bool> is_recompute;
    if (const Value* r = entry.find("is_recompute"); r != nullptr && r->is_bool()) is_recompute = r->as_bool();
    auto kept = finish_entry(name, entry, is_recompute,
                             EntryRules{plan->data_mode, plan->profile, plan->framework, input_profile == plan->profile},
                             *leaves, dump_path,
                             [line](std::size_t) { return line; }, report.problems);
    if (!kept) return kept.error();
    if (*kept) writer->write_entry(name, entry);
    return {};
  };
  if (auto r = read_msprobe_dump(**src, visitor); !r) return r.error();
  if (!writer) return invalid_input(fmt::format("{}: no \"data\" object", dump_path));

  if (stack_doc) {
    auto stack = dump::StackModel::from_json(*stack_doc, [&](const std::string& name) {
      return kept_by_level(name, plan->level) && plan->kept_by_risk(name) && kept_by_list(name, *plan, construct) &&
             (!plan->scope.active() || scope_kept.contains(name));
    });
    if (!stack) return stack.error().with_context(join_path(dir, "stack.json"));
    if (auto r = dump::write_json_file(join_path(out, "stack.json"), o.overwrite,
                                       [&](pyjson::JsonWriter& w) { stack->write(w); });
        !r)
      return r.error();
  }
  if (construct_doc) {
    if (auto r = dump::write_json_file(join_path(out, "construct.json"), o.overwrite,
                                       [&](pyjson::JsonWriter& w) { construct.write(w); });
        !r)
      return r.error();
  }
  report.entries = writer->entry_count();
  report.dump_json_bytes = writer->bytes_written();
  if (auto r = writer->finish(); !r) return r.error();
  report.tensors = leaves->tensors();
  report.tensor_files = leaves->tensor_files();
  report.bytes_read = leaves->bytes_read();
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
  } else if (fs::exists(join_path(dir, std::string(k_dump_file)))) {
    report.input_kind = "msprobe-dump";
    r = convert_msprobe_dump(o, dir, o.output, std::move(report));
  } else {
    return invalid_input(fmt::format("'{}': neither trace.jsonl nor dump.json found", o.input));
  }
  if (r) r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace msdump::convert
