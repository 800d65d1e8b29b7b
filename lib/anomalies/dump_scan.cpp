#include "anomalies/dump_scan.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <fmt/format.h>

#include "anomalies/block_scan.h"
#include "anomalies/clean_entry.h"
#include "anomalies/clean_shapes.h"
#include "anomalies/module_tree.h"
#include "anomalies/nested_origins.h"
#include "core/byte_source.h"
#include "dump/dump_paths.h"
#include "dump/entry_workers.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::anomalies {
namespace {

namespace fs = std::filesystem;

// Each worker thread scans the entries it parses (entry_scan.h); without tensor files, an entry
// whose text is clean (clean_entry.h, known shapes first: clean_shapes.h) is settled unparsed.
class EntryScanner final : public dump::EntryVisitorOf<EntryScan> {
 public:
  explicit EntryScanner(const ScanOptions& so) : m_so(so), m_clean(so.overflow_fraction), m_shapes(m_clean) {}
  bool visit_text(EntryScan& out, dump::EntryKey& key, std::string_view text) override {
    if (m_so.tensor_dir || !m_shapes.clean(key.name, text)) return false;
    out = empty_scan(std::move(key.name));
    return true;
  }
  void visit(EntryScan& out, dump::EntryKey&& key, pyjson::Value& entry) override {
    out = scan_entry(key.name, entry, m_so);
  }

 private:
  const ScanOptions& m_so;
  CleanEntryRule m_clean;
  CleanShapes m_shapes;
};

// Most entries are settled from their text, so a chunk of verify's size is over quickly and the
// hand-overs between threads begin to count: 256 KiB chunks took a 270 MB scan from 0.30 s to
// 0.26 s (docs/performance.md "Anomalies: entries with nothing to report, told from their text,
// in blocks").
constexpr std::size_t k_chunk_bytes = 256 * 1024;

// The entries followed in file order by a tracker: an error when an entry's tensor file could
// not be read (or the file's syntax, one entry at a time).
using Tracked = std::pair<std::unique_ptr<OriginTracker>, std::optional<Error>>;

// The entries scanned on several threads; nullopt when the raw stream gave up (a syntax error,
// an entry that is not valid JSON, a second "data"), and the one-entry pass then says why.
std::optional<Tracked> scan_in_parallel(const ByteSource& src, const ScanOptions& so, int threads) {
  Tracked t{std::make_unique<OriginTracker>(), std::nullopt};
  dump::EntryWorkers workers(src, std::max(threads, 2), k_chunk_bytes);
  dump::WorkerItem item;
  while (true) {
    auto more = workers.next(item);
    if (!more) return std::nullopt;
    if (!*more) return t;
    if (item.is_entry) {
      const EntryScan& scan = workers.entry<EntryScan>();
      if (scan.error) {
        t.second = *scan.error;
        return t;
      }
      t.first->add(scan);
    } else if (item.event.type == pyjson::DumpEvent::Type::data_begin) {
      workers.start_visiting([&so] { return std::make_unique<EntryScanner>(so); });
    }
  }
}

// Without tensor files: the block pass (block_scan.h), nullopt when it gave up.
std::optional<Tracked> scan_blocks(const ByteSource& src, const ScanOptions& so, int threads) {
  Tracked t{std::make_unique<OriginTracker>(), std::nullopt};
  if (!scan_in_blocks(src, so, threads, *t.first)) return std::nullopt;
  return t;
}

// One entry at a time (the reference messages for syntax errors).
Result<Tracked> scan_one_by_one(const ByteSource& src, const ScanOptions& so) {
  Tracked t{std::make_unique<OriginTracker>(), std::nullopt};
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent ev;
  while (true) {
    auto more = stream.next(ev);
    if (!more) {
      t.second = more.error();
      return t;
    }
    if (!*more) return t;
    if (ev.type != pyjson::DumpEvent::Type::entry) continue;
    EntryScan scan = scan_entry(ev.key, ev.value, so);
    if (scan.error) {
      t.second = *scan.error;
      return t;
    }
    t.first->add(scan);
  }
}

// construct.json beside dump.json, or an empty tree when there is none.
Result<ModuleTree> module_tree_beside(const fs::path& dir) {
  std::error_code ec;
  const fs::path construct = dir / dump::k_construct_json;
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
  auto dump_path = dump::resolve_dump(o.path);
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
  const fs::path tdir = dump::tensor_dir(dir, o.tensors);
  if (o.tensors && !fs::is_directory(tdir, ec)) return io_error(fmt::format("'{}': not a directory", tdir.string()));
  if (o.use_tensors && fs::is_directory(tdir, ec)) so.tensor_dir = tdir.string();
  if (o.tensors) so.tensor_dir_beneath = OpenBeneath::tensor_dir;
  out.from_tensor_files = so.tensor_dir.has_value();

  auto tracked = dump::parallel_else_one_by_one<Tracked>(
      true,
      [&] {
        auto blocks = scan_blocks(**src, so, o.threads);
        return blocks ? std::move(blocks) : scan_in_parallel(**src, so, o.threads);
      },
      [&] { return scan_one_by_one(**src, so); });
  if (!tracked) return tracked.error();
  if (tracked->second) return tracked->second->with_context(fmt::format("'{}'", *dump_path));
  out.analysis = tracked->first->finish();

  auto tree = module_tree_beside(dir);
  if (!tree) return tree.error();
  name_modules(out.analysis, *tree);
  fold_enclosing_origins(out.analysis);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace msdump::anomalies
