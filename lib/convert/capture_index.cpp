#include "convert/capture_index.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/logger.h"
#include "core/ordered_pool.h"
#include "dump/entry_name.h"
#include "pyjson/json_reader.h"
#include "trace/event_scan.h"
#include "trace/line_hash.h"
#include "trace/line_reader.h"
#include "trace/meta_event_parse.h"

namespace msdump::convert {
namespace {

using pyjson::Value;

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
};

constexpr std::size_t k_queue_batches = 4;  // read and not yet applied (plus the one being applied)
constexpr std::size_t k_batch_lines = 2048;

// Scans the lines of a batch (see capture_index.h); run by one thread at a time per batch.
void scan_batch(LineBatch& batch) {
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
}

// Applied batches, handed back to the reader to refill: their memory is mapped and warm.
class SpareBatches {
 public:
  std::unique_ptr<LineBatch> take() {
    std::unique_ptr<LineBatch> b;
    {
      std::lock_guard lock(m_mutex);
      if (!m_spare.empty()) {
        b = std::move(m_spare.back());
        m_spare.pop_back();
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
    return b;
  }
  void give(std::unique_ptr<LineBatch> b) {
    std::lock_guard lock(m_mutex);
    if (m_spare.size() < k_queue_batches) m_spare.push_back(std::move(b));
  }

 private:
  std::mutex m_mutex;
  std::vector<std::unique_ptr<LineBatch>> m_spare;
};

using BatchPool = OrderedPool<std::unique_ptr<LineBatch>, std::unique_ptr<LineBatch>>;

// The reader thread: the lines of `source` in batches, the last one marked (with the read
// error, if any). Returns when done or when the pool is cancelled.
void read_batches(const ByteSource& source, BatchPool& pool, SpareBatches& spares) {
  auto batch = spares.take();
  bool header_seen = false, stopped = false;
  auto r = trace::for_each_line(source, [&](const trace::Line& line) -> Result<void> {
    LineRec& rec = batch->recs.emplace_back();
    rec.number = line.number;
    rec.offset = line.offset;
    rec.length = static_cast<std::uint32_t>(line.text.size());
    rec.text_off = static_cast<std::uint32_t>(batch->text.size());
    rec.terminated = line.terminated;
    if (!header_seen && line.text.find_first_not_of(" \t\r") != std::string_view::npos)
      rec.header = header_seen = true;
    batch->text += line.text;
    if (batch->recs.size() < k_batch_lines && batch->text.size() < (std::size_t{1} << 30)) return {};
    if (!pool.submit(std::move(batch))) {
      stopped = true;
      return Error{ErrorCode::internal, "stopped"};
    }
    batch = spares.take();
    return {};
  });
  if (stopped) return;
  if (!r) batch->read_error = r.error();
  batch->last = true;
  (void)pool.submit(std::move(batch));
}

// Applies the scanned lines, in order, to the index being built.
class Indexer {
 public:
  Indexer(const ConvertOptions& o, const ByteSource& source, const std::string& trace_path, ConvertReport& report)
      : m_o(o), m_source(source), m_trace_path(trace_path), m_report(report), m_index(std::make_unique<CaptureIndex>()) {}

  Result<void> apply_batch(LineBatch& batch);
  bool has_header() const { return m_header.has_value(); }
  std::unique_ptr<CaptureIndex> take() {
    m_index->header = std::move(*m_header);
    m_index->plan = std::move(*m_plan);
    return std::move(m_index);
  }

 private:
  std::string at(std::uint64_t line) const { return fmt::format("{}:{}", m_trace_path, line); }
  Result<void> on_data(std::string_view name_text, std::uint64_t name_hash, const std::vector<std::string_view>& keys,
                       const LineRec& line);
  Result<void> apply_event(trace::TraceEvent& ev, const LineRec& line);
  Result<void> apply_line(LineBatch& batch, LineRec& line);
  Result<void> apply_header(Value& value, const LineRec& line);
  void prefetch(const LineRec& line) const;

  const ConvertOptions& m_o;
  const ByteSource& m_source;
  const std::string& m_trace_path;
  ConvertReport& m_report;
  std::unique_ptr<CaptureIndex> m_index;
  std::optional<trace::TraceHeader> m_header;
  std::optional<Plan> m_plan;
  std::vector<std::string> m_header_warnings;
  std::vector<std::string_view> m_keys;
};

// A data event: where it goes in the entry order. `keys` are its members but "kind" and "name".
Result<void> Indexer::on_data(std::string_view name_text, std::uint64_t name_hash,
                              const std::vector<std::string_view>& keys, const LineRec& line) {
  const auto name = dump::parse_entry_name(name_text);
  if (name.kind == dump::EntryKind::unknown) {
    const auto msg = fmt::format("entry name \"{}\" does not follow msprobe's naming; entry ignored", name_text);
    if (m_o.strict) return invalid_input(fmt::format("{}: /name: {}", at(line.number), msg));
    m_report.problems.push_back({Problem::Severity::warning, m_trace_path, line.number, std::string(name_text), msg});
    return {};
  }
  if (!dump::level_includes(m_plan->level, name) || !m_plan->kept_by_risk(name_text)) return {};
  if (m_plan->scope.active()) {
    bool has_input = false, has_output = false;
    for (const auto key : keys) {
      has_input = has_input || is_input_section(key);
      has_output = has_output || key == "output";
    }
    const auto [opens, closes] = ScopeFilter::module_edges(name, has_input, has_output);
    const std::string n(name_text);
    if (!m_plan->scope.event(n, opens, closes)) return {};
    m_index->scope_kept.insert(n);
  }
  if (name.kind == dump::EntryKind::parameters_grad && !m_plan->data_mode.keeps_parameters_grad()) return {};
  bool any = false, has_output = false;
  for (const auto key : keys) {
    if (!trace::is_known_section(key) && name.kind != dump::EntryKind::parameters_grad) {
      const auto msg = fmt::format("/{}: unknown section", key);
      if (m_o.strict) return invalid_input(fmt::format("{}: {}", at(line.number), msg));
      m_report.problems.push_back({Problem::Severity::warning, m_trace_path, line.number, std::string(name_text), msg});
    }
    if (key == "is_recompute" || !m_plan->data_mode.keeps_section(name.kind, key)) continue;
    any = true;
    has_output = has_output || key == "output";
  }
  if (!any) return {};
  m_index->order->add(name_text, name_hash, EventRef{line.number, line.offset, line.length, line.text_hash},
             name.kind == dump::EntryKind::module_forward, has_output);
  return {};
}

// One parsed event (not the header) of line `line`.
Result<void> Indexer::apply_event(trace::TraceEvent& ev, const LineRec& line) {
  switch (ev.kind) {
    case trace::EventKind::unknown:
      if (m_o.strict) return invalid_input(fmt::format("{}: /kind: unknown event kind \"{}\"", at(line.number), ev.unknown_kind));
      m_report.problems.push_back({Problem::Severity::warning, m_trace_path, line.number, "",
                                 fmt::format("unknown event kind \"{}\" ignored", ev.unknown_kind)});
      return {};
    case trace::EventKind::stack:
      m_index->stacks.push_back({std::move(ev.name), m_index->frame_lists.intern(std::move(ev.frames))});
      return {};
    case trace::EventKind::construct:
      if (construct_key_kept(ev.name, m_plan->level)) {
        std::optional<std::string> parent = std::move(ev.parent);
        if (parent && !construct_key_kept(*parent, m_plan->level)) parent.reset();
        const auto h = line.name_hash != 0 ? line.name_hash : dump::ConstructModel::hash(ev.name);
        m_index->construct.set(std::move(ev.name), h, std::move(parent),
                      m_header->megatron ? std::optional<std::int64_t>(ev.micro_step.value_or(0)) : std::nullopt);
      }
      return {};
    case trace::EventKind::data: break;
  }
  m_keys.clear();
  for (const auto& m : ev.sections) m_keys.push_back(m.key);
  return on_data(ev.name, EntryOrder::hash(ev.name), m_keys, line);
}

Result<void> Indexer::apply_line(LineBatch& batch, LineRec& line) {
  if (line.scanned) {
    m_keys.clear();
    for (std::uint32_t k = line.keys_begin; k < line.keys_end; ++k)
      m_keys.push_back(std::string_view(batch.chars).substr(batch.keys[k].first, batch.keys[k].second));
    return on_data(std::string_view(batch.chars).substr(line.name_off, line.name_len), line.name_hash, m_keys, line);
  }
  if (line.event) return apply_event(*line.event, line);
  if (line.error) {
    if (!line.terminated && m_header) {
      m_report.truncated = true;
      m_report.problems.push_back({Problem::Severity::warning, m_trace_path, line.number, "",
                                 "truncated last line ignored (the capture stopped mid-write): " +
                                     line.error->message});
      return {};
    }
    return line.error->with_context(at(line.number));
  }
  if (!line.value) return {};  // blank
  Value& value = *line.value;
  if (!m_header) return apply_header(value, line);
  auto ev = trace::parse_trace_event(std::move(value));
  if (!ev) return ev.error().with_context(at(line.number));
  return apply_event(*ev, line);
}

Result<void> Indexer::apply_header(Value& value, const LineRec& line) {
  auto h = trace::parse_trace_header(value, m_header_warnings);
  if (!h) return h.error().with_context(at(line.number));
  m_header = *h;
  auto p = make_plan(m_o, InputKind::capture, h->framework, h->level, h->task.value_or(Task::statistics),
                     h->summary_mode.value_or(SummaryMode::statistics), Profile::current, h->risk_level);
  if (!p) return p.error();
  m_plan = std::move(*p);
  m_index->order.emplace(m_plan->profile);
  // No rehashing while the index grows: about one entry per KiB of trace or more.
  const auto expected = static_cast<std::size_t>(std::min<std::uint64_t>(m_source.size() / 1024, 1u << 22));
  m_index->order->reserve(expected);
  m_index->construct.reserve(expected);
  for (auto& w : m_header_warnings)
    m_report.problems.push_back({Problem::Severity::warning, m_trace_path, line.number, "", std::move(w)});
  return {};
}

// Index slots of the names a few lines ahead are loaded while a line is applied.
constexpr std::size_t k_prefetch_lines = 8;

void Indexer::prefetch(const LineRec& line) const {
  if (line.name_hash == 0 || !m_index->order) return;
  if (line.scanned) m_index->order->prefetch(line.name_hash);
  else m_index->construct.prefetch(line.name_hash);
}

Result<void> Indexer::apply_batch(LineBatch& batch) {
  for (std::size_t i = 0; i < batch.recs.size() && i < k_prefetch_lines; ++i) prefetch(batch.recs[i]);
  for (std::size_t i = 0; i < batch.recs.size(); ++i) {
    if (i + k_prefetch_lines < batch.recs.size()) prefetch(batch.recs[i + k_prefetch_lines]);
    MSDUMP_TRY(apply_line(batch, batch.recs[i]));
  }
  if (batch.read_error) return *batch.read_error;
  return {};
}

}  // namespace

Result<std::unique_ptr<CaptureIndex>> index_capture(const ConvertOptions& o, const ByteSource& source,
                                                    const std::string& trace_path, ConvertReport& report) {
  const auto started = std::chrono::steady_clock::now();
  Indexer indexer(o, source, trace_path, report);
  SpareBatches spares;  // (outlives the pool: its reader thread uses it)
  // No worker threads: the reader scans while it waits, the caller when a batch is not scanned yet.
  BatchPool pool({.workers = 0, .capacity = k_queue_batches, .producer_helps = true},
                 [](std::unique_ptr<LineBatch>& b, std::size_t) {
                   scan_batch(*b);
                   return std::move(b);
                 });
  pool.start_producer([&](BatchPool& p) { read_batches(source, p, spares); });
  while (auto batch = pool.next()) {
    if (auto r = indexer.apply_batch(**batch); !r) return r.error();  // (the pool stops its reader)
    if ((*batch)->last) break;
    spares.give(std::move(*batch));
  }
  if (!indexer.has_header()) return invalid_input(fmt::format("{}: empty trace (expected a header line)", trace_path));
  auto index = indexer.take();
  logger().debug("{}: index pass: {} entries, {} stack events, {} construct.json keys in {:.3f} s", trace_path,
                 index->order->size(), index->stacks.size(), index->construct.size(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return index;
}

}  // namespace msdump::convert
