#include "anomalies/dump_scan.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <fmt/format.h>

#include "anomalies/module_tree.h"
#include "anomalies/nested_origins.h"
#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "verify/entry_workers.h"

namespace msdump::anomalies {
namespace {

namespace fs = std::filesystem;

Result<std::string> resolve_dump(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const auto p = (fs::path(path) / "dump.json").string();
    if (!fs::exists(p, ec)) return io_error(fmt::format("'{}': no dump.json in this directory", path));
    return p;
  }
  if (!fs::exists(path, ec)) return io_error(fmt::format("'{}': no such file or directory", path));
  return path;
}

// The entries scanned on several threads into `tracker`: false when the raw stream gave up (a
// syntax error, an entry that is not valid JSON, a second "data"), and the one-entry pass then
// says why; `error` set when an entry's tensor file could not be read.
bool scan_in_parallel(const ByteSource& src, const std::string& file, const ScanOptions& so, int threads,
                      OriginTracker& tracker, std::optional<Error>& error) {
  verify::EntryWorkers workers(src, file, std::max(threads, 2), {},
                               [&so](const std::string& name, const pyjson::Value& entry, verify::CheckedEntry& out) {
                                 out.payload = scan_entry(name, entry, so);
                               });
  verify::WorkerItem item;
  while (true) {
    auto more = workers.next(item);
    if (!more) return false;
    if (!*more) return true;
    if (item.is_entry) {
      const auto& scan = std::any_cast<const EntryScan&>(item.entry.payload);
      if (scan.error) {
        error = *scan.error;
        return true;
      }
      tracker.add(scan);
    } else if (item.event.type == pyjson::DumpEvent::Type::data_begin) {
      workers.start_checking({}, Framework::pytorch, Profile::current);
    }
  }
}

// One entry at a time (the reference messages for syntax errors).
std::optional<Error> scan_one_by_one(const ByteSource& src, const ScanOptions& so, OriginTracker& tracker) {
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent ev;
  while (true) {
    auto more = stream.next(ev);
    if (!more) return more.error();
    if (!*more) return std::nullopt;
    if (ev.type != pyjson::DumpEvent::Type::entry) continue;
    EntryScan scan = scan_entry(ev.key, ev.value, so);
    if (scan.error) return *scan.error;
    tracker.add(scan);
  }
}

// construct.json beside dump.json, or an empty tree when there is none.
Result<ModuleTree> module_tree_beside(const fs::path& dir) {
  std::error_code ec;
  const fs::path construct = dir / "construct.json";
  if (!fs::exists(construct, ec)) return ModuleTree{};
  return ModuleTree::load(construct.string());
}

void name_modules(DumpAnalysis& analysis, const ModuleTree& tree) {
  for (Anomaly& a : analysis.anomalies) {
    a.module = tree.module_of(a.entry);
    if (a.module) a.module_chain = tree.enclosing(*a.module);
  }
}

}  // namespace

Result<DumpAnomalies> scan_dump(const ScanDumpOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  auto dump_path = resolve_dump(o.path);
  if (!dump_path) return dump_path.error();
  const fs::path dir = fs::path(*dump_path).parent_path();
  auto src = FileSource::open(*dump_path);
  if (!src) return src.error();

  DumpAnomalies out;
  out.file = *dump_path;
  out.bytes = (*src)->size();
  ScanOptions so;
  so.overflow_fraction = o.overflow_fraction;
  std::error_code ec;
  const fs::path tdir = o.tensors ? fs::path(*o.tensors) : dir / "dump_tensor_data";
  if (o.tensors && !fs::is_directory(tdir, ec)) return io_error(fmt::format("'{}': not a directory", tdir.string()));
  if (o.use_tensors && fs::is_directory(tdir, ec)) so.tensor_dir = tdir.string();
  if (o.tensors) so.tensor_dir_beneath = OpenBeneath::tensor_dir;
  out.from_tensor_files = so.tensor_dir.has_value();

  std::optional<Error> error;
  auto tracker = std::make_unique<OriginTracker>();
  if (!scan_in_parallel(**src, *dump_path, so, o.threads, *tracker, error)) {
    tracker = std::make_unique<OriginTracker>();  // (what the parallel pass saw is dropped)
    error = scan_one_by_one(**src, so, *tracker);
  }
  if (error) return error->with_context(fmt::format("'{}'", *dump_path));
  out.analysis = tracker->finish();

  auto tree = module_tree_beside(dir);
  if (!tree) return tree.error();
  name_modules(out.analysis, *tree);
  fold_enclosing_origins(out.analysis);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace msdump::anomalies
