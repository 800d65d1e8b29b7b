#include "batch/batch.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <deque>
#include <map>

#include "core/atomic_file.h"
#include "dump/dump_paths.h"

namespace msdump::batch {
namespace {

namespace fs = std::filesystem;

// The items this process works on, and the report's header: the run (the whole work list,
// before sharding, and `options`) and the shard.
std::vector<WorkItem> work_list(const BatchOptions& o, std::string options, BatchReport& report, Result<void>& error) {
  auto items = discover(o.roots);
  if (!items) {
    error = items.error();
    return {};
  }
  report.run = identify_run(*items, std::move(options));
  if (!o.shard) return std::move(*items);
  report.shard = *o.shard;
  return select_shard(*items, *o.shard);
}

std::ostream& progress_stream(const BatchOptions& o) { return o.progress_out != nullptr ? *o.progress_out : std::cerr; }

// A single item needs no progress display.
ProgressStyle progress_style(const BatchOptions& o, std::size_t items) {
  return items < 2 ? ProgressStyle::none : o.progress;
}

// The file whose modification time says when an input last changed.
std::optional<fs::file_time_type> input_time(const std::string& input) {
  std::error_code ec;
  fs::path p = input;
  if (fs::is_directory(p, ec)) p = fs::exists(p / "trace.jsonl", ec) ? p / "trace.jsonl" : p / dump::k_dump_json;
  auto t = fs::last_write_time(p, ec);
  if (ec) return std::nullopt;
  return t;
}

// A previous run's output is complete when its dump.json (written last, atomically) exists and
// is not older than the input.
bool output_complete(const std::string& input, const std::string& out_dir) {
  std::error_code ec;
  const auto out_time = fs::last_write_time(fs::path(out_dir) / dump::k_dump_json, ec);
  if (ec) return false;
  const auto in_time = input_time(input);
  return in_time && out_time >= *in_time;
}

std::uint64_t file_size_or_zero(const fs::path& p) {
  std::error_code ec;
  const auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
}

}  // namespace

std::string output_dir_for(const WorkItem& item, const std::vector<std::string>& roots, const std::string& out) {
  fs::path p = out;
  if (roots.size() > 1) p /= fs::path(item.root).filename();
  if (!item.relative.empty()) p /= item.relative;
  return p.string();
}

Result<ConvertBatchResult> convert_batch(const ConvertBatchOptions& o) {
  Result<void> error;
  ConvertBatchResult result;
  result.report.command = "convert";
  auto items = work_list(o.batch, result_options(o.convert), result.report, error);
  if (!error) return error.error();
  result.converts.resize(items.size());
  Progress progress(progress_stream(o.batch), progress_style(o.batch, items.size()), items.size());
  auto outcomes = run_batch(items, o.batch.jobs, [&](const WorkItem& item, std::size_t index) {
    ItemOutcome out;
    convert::ConvertOptions co = o.convert;
    co.input = item.input;
    co.output = output_dir_for(item, o.batch.roots, o.convert.output);
    if (o.convert.dump_path) co.dump_path = output_dir_for(item, o.batch.roots, *o.convert.dump_path);
    out.output = co.output;
    if (o.resume) {
      if (output_complete(item.input, co.output)) {
        out.status = ItemStatus::skipped;
        out.message = "output complete and newer than its input (--resume)";
        return out;
      }
      // A killed run may have left temporaries and a partial set of files: start this item over.
      std::error_code ec;
      if (fs::is_directory(co.output, ec)) {
        remove_stale_temporaries(co.output);
        remove_stale_temporaries((fs::path(co.output) / dump::k_tensor_dir).string());
      }
      co.overwrite = Overwrite::yes;
    }
    auto r = convert::convert_one(co);
    if (!r) {
      out.status = ItemStatus::failed;
      out.message = r.error().message;
      return out;
    }
    out.entries = r->entries;
    out.tensors = r->tensors;
    out.bytes = r->bytes_read + file_size_or_zero(fs::path(item.input) / "trace.jsonl") +
                file_size_or_zero(fs::path(item.input) / dump::k_dump_json);
    for (const auto& p : r->problems) {
      (p.severity == convert::Problem::Severity::error ? out.errors : out.warnings) += 1;
      out.details.push_back(fmt::format("{}: {}", p.severity == convert::Problem::Severity::error ? "error" : "warning",
                                        p.to_string()));
    }
    out.status = r->has_findings() ? ItemStatus::findings : ItemStatus::ok;
    out.seconds = r->seconds;
    result.converts[index] = std::move(*r);
    return out;
  }, progress);
  for (std::size_t i = 0; i < items.size(); ++i) result.report.items.push_back({items[i], std::move(outcomes[i])});
  return result;
}

void check_cross_rank(const std::vector<WorkItem>& items, std::vector<verify::VerifyReport>& reports) {
  // step directory -> indices of its ranks
  std::map<std::string, std::vector<std::size_t>> steps;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!items[i].rank.empty()) steps[items[i].group].push_back(i);
  for (const auto& [key, ranks] : steps) {
    if (ranks.size() < 2) continue;
    // The reference is the most common name list (ties: the first rank's).
    std::map<std::deque<std::string>, std::size_t> votes;
    for (auto i : ranks) ++votes[reports[i].entry_names];
    std::size_t ref = ranks.front();
    for (auto i : ranks)
      if (votes[reports[i].entry_names] > votes[reports[ref].entry_names]) ref = i;
    const auto& want = reports[ref].entry_names;
    for (auto i : ranks) {
      const auto& have = reports[i].entry_names;
      if (have == want) continue;
      std::size_t k = 0;
      while (k < have.size() && k < want.size() && have[k] == want[k]) ++k;
      // A warning: pipeline stages, point-to-point pairs (isend on one rank, irecv on the
      // other) and rank-dependent code make the ranks of real runs differ.
      verify::Finding f;
      f.severity = verify::Severity::warning;
      f.kind = verify::FindingKind::rank;
      f.file = reports[i].summary.file;
      f.entry = k < have.size() ? have[k] : "";
      f.expected = k < want.size() ? want[k] : "(no more entries)";
      f.actual = k < have.size() ? have[k] : "(no more entries)";
      f.message = fmt::format("{} diverges from {} of {} at entry #{} ({} vs {} entries)", items[i].rank, items[ref].rank,
                              items[i].step.empty() ? key : items[i].step, k, have.size(), want.size());
      reports[i].findings.push_back(std::move(f));
      ++reports[i].summary.warnings;
      ++reports[i].summary.by_kind["rank"];
    }
  }
}

Result<VerifyBatchResult> verify_batch(const VerifyBatchOptions& o) {
  Result<void> error;
  VerifyBatchResult result;
  result.report.command = "verify";
  auto items = work_list(o.batch, result_options(o.verify, o.cross_rank), result.report, error);
  if (!error) return error.error();
  result.verifies.resize(items.size());
  Progress progress(progress_stream(o.batch), progress_style(o.batch, items.size()), items.size());
  auto outcomes = run_batch(items, o.batch.jobs, [&](const WorkItem& item, std::size_t index) {
    ItemOutcome out;
    verify::VerifyOptions vo = o.verify;
    vo.path = item.input;
    vo.keep_entry_names = o.cross_rank;
    auto r = verify::verify_dump(vo);
    if (!r) {
      out.status = ItemStatus::failed;
      out.message = r.error().message;
      return out;
    }
    out.bytes = r->summary.bytes;
    out.seconds = r->summary.seconds;
    result.verifies[index] = std::move(*r);
    return out;
  }, progress);
  if (o.cross_rank) check_cross_rank(items, result.verifies);
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto& out = outcomes[i];
    auto& r = result.verifies[i];
    if (out.status != ItemStatus::failed) {
      out.entries = r.summary.entries;
      out.tensors = r.summary.tensors_checked;
      out.errors = r.summary.errors;
      out.warnings = r.summary.warnings;
      out.status = r.clean() ? ItemStatus::ok : ItemStatus::findings;
      for (const auto& f : r.findings)
        out.details.push_back(fmt::format("{} [{}] {}{}: {}", to_string(f.severity), to_string(f.kind), f.entry,
                                          f.pointer.empty() ? "" : " " + f.pointer, f.message));
    }
    result.report.items.push_back({items[i], std::move(out)});
  }
  return result;
}

}  // namespace msdump::batch
