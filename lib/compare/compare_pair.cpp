#include "compare/compare_pair.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <limits>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "compare/checkers.h"
#include "compare/csv_writer.h"
#include "compare/module_parents.h"
#include "compare/stack_lookup.h"
#include "compare/dump_index.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metrics.h"
#include "compare/unmatched_stats.h"
#include "compare/xlsx_writer.h"
#include "core/byte_source.h"
#include "core/ordered_pool.h"
#include "dump/dump_paths.h"

namespace msdump::compare {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t k_unpaired = std::numeric_limits<std::uint32_t>::max();

std::string parent_dir(const std::string& path) {
  auto p = fs::path(path).parent_path();
  return p.empty() ? std::string(".") : p.string();
}

struct Side {
  std::unique_ptr<FileSource> src;
  DumpIndex index;
};

Result<std::unique_ptr<FileSource>> open_source(const std::string& path) {
  auto src = FileSource::open(path);
  if (!src) return src.error();
  return std::move(*src);
}

Result<Side> index_side(std::unique_ptr<FileSource> src, const std::string& path, RowKeyer& keyer) {
  auto index = index_dump(*src, path, keyer);
  if (!index) return index.error();
  return Side{std::move(src), std::move(*index)};
}

// One NPU entry compared: its rows, its partners' rows, the finished table of the entry.
// Groups are reused from entry to entry (GroupStock): reset_group resets every member.
struct Group {
  DumpRows npu, bench;
  StackCells stack;
  Table table;
  // With PassInputs::row_format: the rows' text, and per row where it ends and how many cells
  // the format neutralised.
  TextBuffer text;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> text_ends;
  PairAnswer answer;
  std::vector<Problem> problems;
  std::optional<Error> error;  // the pass could not go on (a file changed under it)
};

// The tensor directories of a pair's two sides (tensor mode reads them).
struct TensorDirs {
  std::string npu, bench;
};

// One TensorOutcome per tensor-mode row: both tensors read and compared, or why not.
struct TensorOutcome {
  TensorMetrics metrics;
  std::optional<Problem> problem;
};

TensorOutcome tensor_row(const Row& n, const Row* b, const TensorDirs& dirs, const std::string& entry) {
  if (b == nullptr || n.data_name == "-1" || b->data_name == "-1") return {uniform_metrics(k_unsupported), {}};
  auto x = load_compare_tensor(dirs.npu, n.data_name);
  if (!x) return {uniform_metrics(k_unsupported), Problem{fs::path(dirs.npu) / n.data_name, entry, x.error().message}};
  auto y = load_compare_tensor(dirs.bench, b->data_name);
  if (!y) return {uniform_metrics(k_unsupported), Problem{fs::path(dirs.bench) / b->data_name, entry, y.error().message}};
  return {compute_tensor_metrics(*x, *y), {}};
}

TensorDirs tensor_dirs(const PairSpec& spec) {
  return {dump::tensor_dir(parent_dir(spec.npu), std::nullopt).string(), dump::tensor_dir(parent_dir(spec.bench), std::nullopt).string()};
}

void fill_metrics(Table& t, const TensorDirs& dirs, std::vector<Problem>& problems) {
  for (auto& tr : t.rows) {
    const Row& n = t.npu->rows[tr.npu];
    const Row* b = tr.bench ? &t.bench->rows[*tr.bench] : nullptr;
    if (t.mode == Mode::tensor) {
      auto out = tensor_row(n, b, dirs, t.npu->entries[n.entry]);
      tr.metrics.assign(out.metrics.cells.begin(), out.metrics.cells.end());
      if (out.problem) problems.push_back(std::move(*out.problem));
    } else if (t.mode == Mode::summary) {
      tr.metrics.resize(8);  // (reused table rows keep their cells' buffers)
      stats_diff(n, b, std::span<Cell, 8>(tr.metrics.data(), 8));
    }
  }
}

// Per answer, the lowest NPU entry known to hold it (difference and divergence per kind:
// forward entries, then the others; -da for the dump): pass 2's threads do not look for an
// answer in later entries, which the gathering in NPU order passes over.
struct AnswerFloors {
  static constexpr std::uint32_t k_none = std::numeric_limits<std::uint32_t>::max();
  std::atomic<std::uint32_t> difference[2] = {k_none, k_none};
  std::atomic<std::uint32_t> divergence[2] = {k_none, k_none};
  std::atomic<std::uint32_t> diff_analyze = k_none;

  static void lower(std::atomic<std::uint32_t>& floor, std::uint32_t entry) {
    auto now = floor.load(std::memory_order_relaxed);
    while (entry < now && !floor.compare_exchange_weak(now, entry, std::memory_order_relaxed)) {}
  }
  static bool above(const std::atomic<std::uint32_t>& floor, std::uint32_t entry) {
    return entry > floor.load(std::memory_order_relaxed);
  }
};

// Everything pass 2 reads, shared by its threads.
struct PassInputs {
  const PairSpec& spec;
  Mode mode;
  const Side& npu;
  const Side& bench;
  const std::vector<std::uint32_t>& bench_of;  // per NPU row
  const StackLookup& stacks;
  TensorDirs dirs;
  IntsAsFloats unmatched_ints;  // the statistics of NPU rows without a partner (unmatched_stats.h)
  AnswerFloors& floors;
  const RowFormat* row_format;  // the table writer's, to format each row where it is made (or nullptr)
};

// One entry's side of the table: its rows come from the fetchers; of the dump's own fields,
// the short ones (not the path, which the table's readers never use: one allocation an entry).
// The entries and rows `d` held keep their buffers, for the fetchers to overwrite.
void reset_side(DumpRows& d, const DumpIndex& index) {
  DumpRows fresh;
  fresh.task = index.task;
  fresh.level = index.level;
  fresh.framework = index.framework;
  fresh.has_md5 = index.has_md5;
  fresh.entries.swap(d.entries);
  fresh.rows.swap(d.rows);
  d = std::move(fresh);
}

// `rows` made n default TableRows, those it held keeping their vectors' buffers.
void reset_table_rows(std::vector<TableRow>& rows, std::size_t n) {
  rows.resize(n);
  for (auto& tr : rows) {
    TableRow fresh;
    fresh.metrics.swap(tr.metrics);
    fresh.messages.swap(tr.messages);
    fresh.metrics.clear();
    fresh.messages.clear();
    tr = std::move(fresh);
  }
}

// A group made ready for the next entry of pass `in`: every member reset, the vectors, the
// rows' strings and the cells keeping their buffers.
void reset_group(Group& g, const PassInputs& in) {
  reset_side(g.npu, in.npu.index);
  reset_side(g.bench, in.bench.index);
  g.bench.entries.clear();
  StackCells stack;
  stack.present = in.stacks.present;
  stack.per_entry.swap(g.stack.per_entry);
  g.stack = std::move(stack);
  Table table{in.mode, &g.npu, &g.bench, &g.stack, {}};
  table.rows.swap(g.table.rows);
  g.table = std::move(table);
  g.text.len = 0;
  g.text_ends.clear();
  g.answer = {};
  g.problems.clear();
  g.error.reset();
}

// The groups one pass-2 thread made, handed back once the writer has used them, for that
// thread to reuse: an entry's rows and table rows are then not allocated and freed again for
// every entry (the thread that made a group is the one to free it: see PairStream::retire).
class GroupStock {
 public:
  std::unique_ptr<Group> take() {
    if (m_spare.empty()) return std::make_unique<Group>();
    auto g = std::move(m_spare.back());
    m_spare.pop_back();
    return g;
  }
  void give(std::vector<std::unique_ptr<Group>>& groups) {
    for (auto& g : groups)
      if (m_spare.size() < k_kept) m_spare.push_back(std::move(g));
    groups.clear();
  }

 private:
  static constexpr std::size_t k_kept = 256;  // (more in hand are freed)
  std::vector<std::unique_ptr<Group>> m_spare;
};

bool is_forward(const Group& g) { return entry_kind(g.npu.entries.front()) == EntryKind::forward; }

// The answers of NPU entry `entry` (group g) that no earlier entry is known to hold.
void find_entry_answers(AnswerFloors& floors, std::uint32_t entry, Group& g) {
  const int kind = is_forward(g) ? 0 : 1;
  const AnswerScope scope{!AnswerFloors::above(floors.difference[kind], entry), !AnswerFloors::above(floors.divergence[kind], entry),
                          !AnswerFloors::above(floors.diff_analyze, entry)};
  g.answer = find_answers(g.table, scope);
  if (g.answer.first_difference) AnswerFloors::lower(floors.difference[kind], entry);
  if (g.answer.first_divergence) AnswerFloors::lower(floors.divergence[kind], entry);
  // (-da's scan in dump order stops at the first communication API)
  if (g.answer.diff_analyze || is_communication_api(g.npu.entries.front())) AnswerFloors::lower(floors.diff_analyze, entry);
}

// The text of g's rows in `format`, made on this thread while the rows are in its cache.
void format_rows(const RowFormat& format, Group& g) {
  const CompareTableView view(g.table);
  for (std::size_t k = 0; k < g.table.rows.size(); ++k) {
    const auto neutralised = format.append_row(view, k, g.text);
    g.text_ends.emplace_back(static_cast<std::uint32_t>(g.text.len), static_cast<std::uint32_t>(neutralised));
  }
}

// Compares NPU entry `entry` with its partners (fetchers and stock: this thread's).
std::unique_ptr<Group> compare_entry(const PassInputs& in, std::uint32_t entry, EntryFetcher& npu_fetch,
                                     EntryFetcher& bench_fetch, GroupStock& stock) {
  auto g = stock.take();
  reset_group(*g, in);
  g->npu.entries.resize(1);
  if (auto read = npu_fetch.read(entry, g->npu.entries[0], g->npu.rows); !read) {
    g->error = read.error();
    return g;
  }
  g->stack.per_entry.assign(1, in.stacks.cell(g->npu.entries[0]));
  const auto npu_rows = static_cast<std::uint32_t>(g->npu.rows.size());
  reset_table_rows(g->table.rows, npu_rows);
  std::size_t bench_rows = 0;  // (g->bench.rows: those before this are this entry's)
  const std::uint32_t first = in.npu.index.entries[entry].first_row;
  for (std::uint32_t k = 0; k < npu_rows; ++k) {
    TableRow& tr = g->table.rows[k];
    tr.npu = k;
    if (const auto b = in.bench_of[first + k]; b != k_unpaired) {
      const auto be = in.bench.index.entry_of_row(b);
      auto fetched = bench_fetch.fetch(be);
      if (!fetched) {
        g->error = fetched.error();
        return g;
      }
      const Row& partner = (*fetched)->rows[b - in.bench.index.entries[be].first_row];
      if (bench_rows < g->bench.rows.size()) g->bench.rows[bench_rows] = partner;  // (buffers reused)
      else g->bench.rows.push_back(partner);
      tr.bench = static_cast<std::uint32_t>(bench_rows++);
    } else {
      apply_unmatched_int_rule(g->npu.rows[k], in.unmatched_ints);
    }
  }
  g->bench.rows.resize(bench_rows);
  fill_metrics(g->table, in.dirs, g->problems);
  run_checkers(g->table, {});
  find_entry_answers(in.floors, entry, *g);
  if (in.row_format != nullptr) format_rows(*in.row_format, *g);
  return g;
}

// A run of neighbouring NPU entries: the unit pass 2's threads take (one entry each would
// cost more in hand-overs than in work).
struct Chunk {
  std::uint32_t begin = 0, end = 0;
};
using Groups = std::vector<std::unique_ptr<Group>>;

std::vector<Chunk> chunks_of(const DumpIndex& index) {
  constexpr std::uint64_t k_chunk_bytes = std::uint64_t{64} << 10;
  constexpr std::uint32_t k_chunk_entries = 128;
  std::vector<Chunk> out;
  const auto n = static_cast<std::uint32_t>(index.entries.size());
  for (std::uint32_t b = 0; b < n;) {
    std::uint32_t e = b;
    std::uint64_t bytes = 0;
    while (e < n && (e == b || (bytes < k_chunk_bytes && e - b < k_chunk_entries))) bytes += index.entries[e++].length;
    out.push_back({b, e});
    b = e;
  }
  return out;
}

Groups compare_chunk(const PassInputs& in, const Chunk& c, EntryFetcher& npu_fetch, EntryFetcher& bench_fetch, GroupStock& stock) {
  Groups out;
  for (std::uint32_t e = c.begin; e < c.end; ++e) {
    out.push_back(compare_entry(in, e, npu_fetch, bench_fetch, stock));
    if (out.back()->error) break;
  }
  return out;
}

struct ChunkResult {
  std::size_t slot = 0;  // the pool slot (thread) that made it
  Groups groups;
};

// The rows of a pair as the writers read them: pass 2 runs as the rows are asked for, entry by
// entry in NPU order, and what each entry found is gathered here.
class PairStream final : public TableView {
 public:
  PairStream(const PassInputs& in, int threads, bool diff_analyze, PairResult& result)
      : m_in(in),
        m_header(table_header(in.mode, in.stacks.present)),
        m_diff_analyze(diff_analyze),
        m_result(result),
        m_chunks(chunks_of(in.npu.index)),
        m_sequential(threads <= 1),
        // threads - 1 workers and the consumer (the writer's thread) run the chunks: as many as
        // `threads`. The producer only hands out chunk numbers: were it to run chunks too when
        // the pool is full, one thread more than the cores would compute, and the newest chunks,
        // the ones the writer needs last, would wait in memory (docs/performance.md "Compare: two
        // passes, a pairing index, chunks reused where they were made").
        m_pool({.workers = static_cast<std::size_t>(std::max(1, threads) - 1),
                .capacity = 2 * static_cast<std::size_t>(std::max(1, threads)),
                .producer_helps = false},
               [this](std::uint32_t& chunk, std::size_t slot) {
                 take_back(slot);
                 return ChunkResult{slot, compare_chunk(m_in, m_chunks[chunk], *m_npu_fetch[slot], *m_bench_fetch[slot], m_stock[slot])};
               }) {
    m_garbage.resize(m_pool.slots());
    m_stock.resize(m_pool.slots());
    for (std::size_t s = 0; s < m_pool.slots(); ++s) {
      m_npu_fetch.push_back(std::make_unique<EntryFetcher>(*in.npu.src, in.npu.index));
      m_bench_fetch.push_back(std::make_unique<EntryFetcher>(*in.bench.src, in.bench.index));
    }
    if (threads <= 1) return;  // one thread: advance() runs the chunks itself, in order
    const auto chunks = static_cast<std::uint32_t>(m_chunks.size());
    m_pool.start_producer([chunks](auto& pool) {
      for (std::uint32_t c = 0; c < chunks; ++c)
        if (!pool.submit(c)) return;
    });
  }

  const std::vector<std::string>& header() const override { return m_header; }
  std::size_t row_count() const override { return m_in.npu.index.rows(); }
  void emit(std::size_t, CellSink& sink) const override {
    auto* self = const_cast<PairStream*>(this);  // the writers read rows once, in order
    if (!self->to_next_row()) {
      for (std::size_t k = 0; k < m_header.size(); ++k) sink.text("");  // (only after an error, reported by finish())
      return;
    }
    m_view->emit(self->m_pos++, sink);
  }
  const RowFormat* row_format() const override { return m_in.row_format; }
  std::optional<RowText> row_text(std::size_t) const override {
    auto* self = const_cast<PairStream*>(this);  // (as emit)
    if (!self->to_next_row()) return std::nullopt;  // (emit then gives the blank row)
    const auto& ends = m_group->text_ends;
    const std::size_t k = self->m_pos++;
    const std::uint32_t begin = k == 0 ? 0 : ends[k - 1].first;
    return RowText{m_group->text.text().substr(begin, ends[k].first - begin), ends[k].second};
  }

  // Runs what the writers did not ask for (no table, or a writer that stopped) and gathers it.
  Result<void> finish() {
    while (advance()) {}
    if (m_error) return *m_error;
    const auto pick = [](std::optional<Locator>& fwd, std::optional<Locator>& other) { return fwd ? fwd : other; };
    m_result.answer.first_difference = pick(m_difference[0], m_difference[1]);
    m_result.answer.first_divergence = pick(m_divergence[0], m_divergence[1]);
    return {};
  }

 private:
  // Moves to the group that holds the next row; false when there is none (the end, or an error).
  bool to_next_row() {
    while (m_view == nullptr || m_pos >= m_group->table.rows.size())
      if (!advance()) return false;
    return true;
  }
  bool advance() {
    if (m_error) return false;
    while (m_next_group >= m_chunk.groups.size()) {
      retire();
      if (m_sequential) {
        if (m_next_chunk == m_chunks.size()) return false;
        m_chunk = {0, compare_chunk(m_in, m_chunks[m_next_chunk++], *m_npu_fetch[0], *m_bench_fetch[0], m_stock[0])};
      } else {
        auto next = m_pool.next();
        if (!next) return false;
        m_chunk = std::move(*next);
      }
      m_next_group = 0;
    }
    m_group = m_chunk.groups[m_next_group++].get();
    m_view.reset();
    m_pos = 0;
    if (m_group->error) {
      m_error = m_group->error;
      return false;
    }
    gather(*m_group);
    m_view = std::make_unique<CompareTableView>(m_group->table);
    return true;
  }

  // A consumed chunk goes back to the thread that made it, to be reused or freed there
  // (freeing on another thread contends for the maker's malloc arena).
  void retire() {
    m_view.reset();
    m_group = nullptr;
    if (m_chunk.groups.empty()) return;
    if (m_sequential || m_chunk.slot == m_pool.consumer_slot()) {
      m_stock[m_chunk.slot].give(m_chunk.groups);
      return;
    }
    std::lock_guard lock(m_garbage_mutex);
    m_garbage[m_chunk.slot].push_back(std::move(m_chunk.groups));
    m_chunk.groups.clear();
  }

  // The chunks of `slot` the writer is done with, into the slot's stock (on the slot's thread).
  void take_back(std::size_t slot) {
    std::vector<Groups> mine;
    {
      std::lock_guard lock(m_garbage_mutex);
      mine.swap(m_garbage[slot]);
    }
    for (auto& groups : mine) m_stock[slot].give(groups);
  }

  void gather(Group& g) {
    for (const auto& tr : g.table.rows) {
      if (!tr.bench) ++m_result.unmatched;
      if (tr.result == Level::pass) ++m_result.pass;
      else if (tr.result == Level::warning) ++m_result.warnings;
      else ++m_result.errors;
    }
    m_result.rows += g.table.rows.size();
    for (auto& p : g.problems) m_result.problems.push_back(std::move(p));
    const int kind = is_forward(g) ? 0 : 1;
    if (!m_difference[kind] && g.answer.first_difference) m_difference[kind] = g.answer.first_difference;
    if (!m_divergence[kind] && g.answer.first_divergence) m_divergence[kind] = g.answer.first_divergence;
    gather_diff_analyze(g);
  }

  // msprobe's -da scan in dump order: stops at the first communication API.
  void gather_diff_analyze(const Group& g) {
    if (m_da_done) return;
    const auto& name = g.npu.entries.front();
    if (is_communication_api(name)) {
      m_da_done = true;
      return;
    }
    if (!g.answer.diff_analyze) return;
    m_da_done = true;
    m_result.answer.diff_analyze = name;
    if (m_diff_analyze) m_result.da_record = make_da_record(g.table, name, parent_dir(m_in.spec.npu));
  }

  const PassInputs& m_in;
  std::vector<std::string> m_header;
  bool m_diff_analyze;
  PairResult& m_result;
  std::vector<std::unique_ptr<EntryFetcher>> m_npu_fetch, m_bench_fetch;
  std::vector<Chunk> m_chunks;
  bool m_sequential;
  std::size_t m_next_chunk = 0;
  ChunkResult m_chunk;
  std::size_t m_next_group = 0;
  Group* m_group = nullptr;
  std::unique_ptr<CompareTableView> m_view;
  std::size_t m_pos = 0;
  std::optional<Error> m_error;
  std::optional<Locator> m_difference[2], m_divergence[2];  // forward, then the others
  bool m_da_done = false;
  std::mutex m_garbage_mutex;
  std::vector<std::vector<Groups>> m_garbage;  // per slot: chunks consumed, for their maker to take back
  std::vector<GroupStock> m_stock;             // per slot: groups to reuse (its thread's only)
  OrderedPool<std::uint32_t, ChunkResult> m_pool;  // last: its threads stop before the rest goes
};

Result<void> write_table(const TableView& view, const PairSpec& spec, const CompareOptions& o, PairResult& r) {
  std::error_code ec;
  fs::create_directories(spec.output_dir, ec);
  if (ec) return io_error(fmt::format("cannot create output directory '{}': {}", spec.output_dir, ec.message()));
  const auto stem = (fs::path(spec.output_dir) / (spec.table_stem + "_" + spec.timestamp)).string();
  if (o.xlsx) {
    auto w = write_xlsx(view, stem + ".xlsx");
    if (!w) return w.error();
    r.tables = {w->path};
  } else {
    auto w = write_csv(view, stem + ".csv");
    if (!w) return w.error();
    r.tables = w->paths;
    r.neutralised_cells = w->neutralised_cells;
  }
  return {};
}

// Per NPU row its bench partner after the dtype gate; marks the bench rows taken. `sorted`:
// the bench keys sorted (sort_keys) for exact pairing.
std::vector<std::uint32_t> pair_sides(const DumpIndex& npu, const DumpIndex& bench, std::optional<SortedKeys>& sorted,
                                      const CompareOptions& o, bool cross, std::vector<bool>& taken) {
  const auto paired = sorted ? pair_sorted(npu.keys, *sorted) : pair_hashed(npu.keys, bench.keys, true);
  std::vector<std::uint32_t> out(paired.size(), k_unpaired);
  taken.assign(bench.rows(), false);
  for (std::size_t i = 0; i < paired.size(); ++i) {
    if (!paired[i]) continue;
    const auto& nd = npu.dtype_names[npu.dtypes[i]];
    const auto& bd = bench.dtype_names[bench.dtypes[*paired[i]]];
    if (o.match.data_mapping == nullptr && !dtypes_pair(nd, bd, cross)) continue;
    out[i] = *paired[i];
    taken[*paired[i]] = true;
  }
  return out;
}

Result<std::vector<std::string>> bench_only_names(const Side& bench, const std::vector<bool>& taken) {
  std::vector<std::string> names;
  EntryFetcher fetch(*bench.src, bench.index);
  for (std::uint32_t r = 0; r < taken.size(); ++r) {
    if (taken[r]) continue;
    const auto e = bench.index.entry_of_row(r);
    auto rows = fetch.fetch(e);
    if (!rows) return rows.error();
    names.push_back((*rows)->rows[r - bench.index.entries[e].first_row].name);
  }
  return names;
}

}  // namespace

std::string problem_text(const Problem& p) {
  const std::string entry = p.entry.empty() ? std::string() : fmt::format("entry '{}': ", p.entry);
  if (p.message.find(p.file) != std::string::npos) return entry + p.message;
  return fmt::format("{}: {}{}", p.file, entry, p.message);
}

Result<Mode> decide_mode(const ModeEvidence& npu, const ModeEvidence& bench) {
  if (npu.task != bench.task)
    return invalid_input(fmt::format("'{}' is a dump of task '{}' but '{}' of task '{}': compare needs dumps of one task",
                                     npu.path, npu.task, bench.path, bench.task));
  if (npu.task == "tensor") return Mode::tensor;
  if (npu.task != "statistics")
    return unsupported(fmt::format("'{}': task '{}' cannot be compared (statistics or tensor dumps only)", npu.path, npu.task));
  if (npu.has_md5 != bench.has_md5)
    return invalid_input(fmt::format("'{}' {} md5 values but '{}' {}: both dumps must be statistics dumps, or both md5 dumps",
                                     npu.path, npu.has_md5 ? "has" : "has no", bench.path, bench.has_md5 ? "has" : "has none"));
  return npu.has_md5 ? Mode::md5 : Mode::summary;
}

Result<PairResult> compare_pair(const PairSpec& spec, const CompareOptions& o) {
  auto npu_src = open_source(spec.npu);
  if (!npu_src) return npu_src.error();
  auto bench_src = open_source(spec.bench);
  if (!bench_src) return bench_src.error();
  auto npu_header = read_dump_header(**npu_src, spec.npu);
  if (!npu_header) return npu_header.error();
  auto bench_header = read_dump_header(**bench_src, spec.bench);
  if (!bench_header) return bench_header.error();
  const bool cross = cross_framework(npu_header->framework, bench_header->framework);

  // (optional: each is freed, by the thread that used it, once its side is indexed)
  std::optional<RowKeyer> npu_keys(std::in_place, true, o.match, cross), bench_keys(std::in_place, false, o.match, cross);
  // The bench side's thread also sorts its keys for pairing; the NPU side's stack.json is read
  // by whichever thread is done first, so neither waits long for the other.
  std::optional<Result<StackLookup>> stacks;
  std::atomic<bool> stack_claimed{false};
  const auto read_stacks_if_first = [&] {
    if (!stack_claimed.exchange(true)) stacks = load_stack_lookup(parent_dir(spec.npu));
  };
  std::optional<SortedKeys> sorted;
  auto bench_future = std::async(std::launch::async, [&] {
    auto side = index_side(std::move(*bench_src), spec.bench, *bench_keys);
    bench_keys.reset();
    if (!side) return side;
    if (!fuzzy_pairing(o.match)) {
      sorted = sort_keys(std::move(side->index.keys));  // (sorted in place: exact pairing reads nothing else)
      side->index.keys = {};
    }
    read_stacks_if_first();
    return side;
  });
  auto npu = index_side(std::move(*npu_src), spec.npu, *npu_keys);
  npu_keys.reset();
  read_stacks_if_first();
  auto bench = bench_future.get();
  if (!npu) return npu.error();
  if (!bench) return bench.error();
  auto mode = decide_mode({spec.npu, npu->index.task, npu->index.has_md5}, {spec.bench, bench->index.task, bench->index.has_md5});
  if (!mode) return mode.error();

  PairResult r;
  r.mode = *mode;
  for (const auto* side : {&npu->index, &bench->index})
    if (side->error) r.problems.push_back({side->path, "", side->error->message});
  if (!*stacks) {
    r.problems.push_back({(fs::path(parent_dir(spec.npu)) / dump::k_stack_json).string(), "", stacks->error().message});
    *stacks = StackLookup{};
  }
  std::vector<bool> taken;
  const auto bench_of = pair_sides(npu->index, bench->index, sorted, o, cross, taken);
  sorted.reset();
  std::vector<bool> paired(bench_of.size());
  for (std::size_t i = 0; i < bench_of.size(); ++i) paired[i] = bench_of[i] != k_unpaired;
  const auto unmatched_ints = unmatched_int_rule(npu->index.stat_kinds, paired);
  // The keys are done with: pass 2 needs the ranges and the partners only.
  for (auto* side : {&npu->index, &bench->index}) {
    side->keys = {};
    side->dtypes = {};
    side->stat_kinds = {};
  }
  AnswerFloors floors;
  const RowFormat* row_format = o.write_tables && !o.xlsx ? &csv_row_format() : nullptr;
  const PassInputs in{spec, *mode, *npu, *bench, bench_of, **stacks, tensor_dirs(spec), unmatched_ints, floors, row_format};
  std::error_code ec;
  {
    PairStream stream(in, o.threads, o.diff_analyze, r);
    if (o.write_tables)
      if (auto w = write_table(stream, spec, o, r); !w) return w.error();
    if (auto f = stream.finish(); !f) {
      // (a dump changed under pass 2: the rows written after that point are blank)
      for (const auto& t : r.tables) fs::remove(t, ec);
      return f.error();
    }
  }
  auto names = bench_only_names(*bench, taken);
  if (!names) return names.error();
  r.bench_only = std::move(*names);
  if (auto parents = load_module_parents(parent_dir(spec.npu)); parents) {
    for (auto* loc : {&r.answer.first_difference, &r.answer.first_divergence})
      if (*loc) (*loc)->module_chain = parents->chain((*loc)->entry);
  } else {
    r.problems.push_back({(fs::path(parent_dir(spec.npu)) / dump::k_construct_json).string(), "", parents.error().message});
  }
  for (const auto* path : {&spec.npu, &spec.bench}) {
    std::error_code size_ec;
    const auto size = fs::file_size(*path, size_ec);
    if (!size_ec) r.bytes += size;
  }
  return r;
}

}  // namespace msdump::compare
