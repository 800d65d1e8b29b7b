#include "compare/compare_pair.h"

#include <filesystem>
#include <future>

#include <fmt/format.h>

#include "compare/checkers.h"
#include "compare/csv_writer.h"
#include "compare/dump_context.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metrics.h"
#include "compare/xlsx_writer.h"
#include "core/byte_source.h"
#include "core/ordered_pool.h"

namespace msdump::compare {
namespace {

namespace fs = std::filesystem;

Result<DumpRows> load_side(const std::string& path) {
  auto src = FileSource::open(path);
  if (!src) return src.error();
  return read_dump_rows(**src, path);
}

std::string parent_dir(const std::string& path) {
  auto p = fs::path(path).parent_path();
  return p.empty() ? std::string(".") : p.string();
}

// One tensor-mode row: both tensors read and compared, or why not.
struct TensorOutcome {
  TensorMetrics metrics;
  std::optional<Problem> problem;
};

TensorOutcome tensor_row(const Row& n, const Row* b, const std::string& npu_dir, const std::string& bench_dir,
                         const std::string& entry) {
  if (b == nullptr || n.data_name == "-1" || b->data_name == "-1") return {uniform_metrics(k_unsupported), {}};
  auto x = load_compare_tensor(npu_dir, n.data_name);
  if (!x) return {uniform_metrics(k_unsupported), Problem{fs::path(npu_dir) / n.data_name, entry, x.error().message}};
  auto y = load_compare_tensor(bench_dir, b->data_name);
  if (!y) return {uniform_metrics(k_unsupported), Problem{fs::path(bench_dir) / b->data_name, entry, y.error().message}};
  return {compute_tensor_metrics(*x, *y), {}};
}

void tensor_metrics_all(Table& t, const PairSpec& spec, int threads, std::vector<Problem>& problems) {
  const auto npu_dir = (fs::path(parent_dir(spec.npu)) / "dump_tensor_data").string();
  const auto bench_dir = (fs::path(parent_dir(spec.bench)) / "dump_tensor_data").string();
  const std::size_t workers = threads > 1 ? static_cast<std::size_t>(threads - 1) : 0;
  for_each_ordered<TensorOutcome>(
      t.rows.size(), {.workers = workers, .capacity = 4 * (workers + 1)},
      [&](std::size_t i, std::size_t) {
        const auto& tr = t.rows[i];
        const Row& n = t.npu->rows[tr.npu];
        return tensor_row(n, tr.bench ? &t.bench->rows[*tr.bench] : nullptr, npu_dir, bench_dir, t.npu->entries[n.entry]);
      },
      [&](std::size_t i, TensorOutcome out) {
        t.rows[i].metrics.assign(out.metrics.cells.begin(), out.metrics.cells.end());
        if (out.problem) problems.push_back(std::move(*out.problem));
        return true;
      });
}

void fill_metrics(Table& t, const PairSpec& spec, int threads, std::vector<Problem>& problems) {
  if (t.mode == Mode::tensor) return tensor_metrics_all(t, spec, threads, problems);
  if (t.mode == Mode::md5) return;
  for (auto& tr : t.rows) {
    const auto cells = stats_diff(t.npu->rows[tr.npu], tr.bench ? &t.bench->rows[*tr.bench] : nullptr);
    tr.metrics.assign(cells.begin(), cells.end());
  }
}

Result<void> write_table(const Table& t, const PairSpec& spec, const CompareOptions& o, PairResult& r) {
  std::error_code ec;
  fs::create_directories(spec.output_dir, ec);
  if (ec) return io_error(fmt::format("cannot create output directory '{}': {}", spec.output_dir, ec.message()));
  const CompareTableView view(t);
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

void count(const Table& t, PairResult& r) {
  r.rows = t.rows.size();
  for (const auto& tr : t.rows) {
    if (!tr.bench) ++r.unmatched;
    if (tr.result == Level::pass) ++r.pass;
    else if (tr.result == Level::warning) ++r.warnings;
    else ++r.errors;
  }
}

}  // namespace

Result<Mode> decide_mode(const DumpRows& npu, const DumpRows& bench) {
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
  auto bench_future = std::async(std::launch::async, [&] { return load_side(spec.bench); });
  auto npu = load_side(spec.npu);
  auto bench = bench_future.get();
  if (!npu) return npu.error();
  if (!bench) return bench.error();
  auto mode = decide_mode(*npu, *bench);
  if (!mode) return mode.error();

  PairResult r;
  r.mode = *mode;
  for (const auto* side : {&*npu, &*bench})
    if (side->error) r.problems.push_back({side->path, "", side->error->message});
  auto stacks = load_stack_cells(parent_dir(spec.npu), npu->entries);
  if (!stacks) {
    r.problems.push_back({parent_dir(spec.npu) + "/stack.json", "", stacks.error().message});
    stacks = StackCells{};
  }
  Table t{*mode, &*npu, &*bench, &*stacks, {}};
  auto matched = match_rows(*npu, *bench, o.match);
  t.rows.resize(npu->rows.size());
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    t.rows[i].npu = static_cast<std::uint32_t>(i);
    t.rows[i].bench = matched.bench_of[i];
  }
  for (auto b : matched.bench_only) r.bench_only.push_back(bench->rows[b].name);
  fill_metrics(t, spec, o.threads, r.problems);
  run_checkers(t, {});
  count(t, r);
  r.answer = find_answers(t);
  if (o.diff_analyze && r.answer.diff_analyze)
    r.da_record = make_da_record(t, *r.answer.diff_analyze, parent_dir(spec.npu));
  if (auto parents = load_module_parents(parent_dir(spec.npu)); parents) {
    for (auto* loc : {&r.answer.first_difference, &r.answer.first_divergence})
      if (*loc) (*loc)->module_chain = parents->chain((*loc)->entry);
  } else {
    r.problems.push_back({parent_dir(spec.npu) + "/construct.json", "", parents.error().message});
  }
  for (const auto* path : {&spec.npu, &spec.bench}) {
    std::error_code ec;
    const auto size = fs::file_size(*path, ec);
    if (!ec) r.bytes += size;
  }
  if (o.write_tables)
    if (auto w = write_table(t, spec, o, r); !w) return w.error();
  return r;
}

}  // namespace msdump::compare
