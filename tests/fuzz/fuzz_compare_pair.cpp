// libFuzzer target: compare's pairing. The input is two dump.json texts and a mapping YAML,
// separated by the marker "\n#--8<--\n" (missing parts are empty). Both dumps are read into
// rows (compare::read_dump_rows); the YAML is parsed as a data, a cell and an API mapping; the
// rows are paired exactly, fuzzily and under each mapping that parsed (the API mapping with the
// NPU side taken as MindSpore, so it applies). Checked: every partner is a bench row, the bench
// rows no NPU row took are listed once each in order, and mapped or fuzzy pairs pass the dtype
// gate unless a data mapping switched it off. The streaming path compare runs (dump_index.h)
// must agree with the in-memory rows: the same row count, the same statistic cell types and
// dtypes (pass 1's rows, read from the entries' text where it is plain, against the full ones),
// the same md5 flag, the same rows entry by entry when re-read (pass 2 reads them from the text
// where it is plain), and the same pairs. Pass 1 reads entries of a shape it has read before by
// that shape (compare/row_shapes.h, shapes kept across inputs): it must give the index, and the
// error with its position, that pass 1 gives without shapes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compare/api_mapping.h"
#include "compare/dump_index.h"
#include "compare/dump_rows.h"
#include "compare/name_mapping.h"
#include "compare/row_match.h"
#include "compare/unmatched_stats.h"
#include "core/byte_source.h"

namespace {

using namespace msdump::compare;

constexpr std::string_view k_marker = "\n#--8<--\n";

std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> parts;
  while (parts.size() < 2) {
    const auto at = text.find(k_marker);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + k_marker.size());
  }
  parts.push_back(text);
  parts.resize(3);
  return parts;
}

DumpRows rows_of(std::string_view text, const char* name) {
  const msdump::MemorySource src(std::as_bytes(std::span(text.data(), text.size())), name);
  auto rows = read_dump_rows(src, name);
  return rows ? std::move(*rows) : DumpRows{};
}

void check(const DumpRows& npu, const DumpRows& bench, const MatchOptions& options) {
  const auto m = match_rows(npu, bench, options);
  if (m.bench_of.size() != npu.rows.size()) __builtin_trap();
  std::vector<bool> taken(bench.rows.size(), false);
  const bool cross = cross_framework(npu, bench);
  for (std::size_t i = 0; i < m.bench_of.size(); ++i) {
    if (!m.bench_of[i]) continue;
    const auto b = *m.bench_of[i];
    if (b >= bench.rows.size()) __builtin_trap();
    if (options.data_mapping == nullptr && !dtypes_pair(npu.rows[i].dtype, bench.rows[b].dtype, cross))
      __builtin_trap();
    taken[b] = true;
  }
  std::size_t next = 0;
  for (auto b : m.bench_only) {
    if (b >= bench.rows.size() || taken[b]) __builtin_trap();
    if (next > b) __builtin_trap();  // in bench order, once each
    next = b + 1;
  }
  std::size_t free = 0;
  for (bool t : taken) free += t ? 0 : 1;
  if (free != m.bench_only.size()) __builtin_trap();
}

// index_dump + EntryFetcher against read_dump_rows on the same text.
void check_index(std::string_view text, const DumpRows& rows, std::vector<msdump::compare::KeyHash>& keys) {
  const msdump::MemorySource src(std::as_bytes(std::span(text.data(), text.size())), "dump.json");
  MatchOptions options;
  RowKeyer keyer(false, options, false);
  auto index = index_dump(src, "dump.json", keyer);
  if (!index) {
    if (!rows.rows.empty()) __builtin_trap();
    return;
  }
  if (index->rows() != rows.rows.size() || index->error.has_value() != rows.error.has_value()) __builtin_trap();
  if (index->stat_kinds.size() != rows.rows.size() || index->dtypes.size() != rows.rows.size()) __builtin_trap();
  for (std::size_t r = 0; r < rows.rows.size(); ++r) {
    if (index->stat_kinds[r] != stat_kinds(rows.rows[r])) __builtin_trap();
    if (index->dtype_names[index->dtypes[r]] != rows.rows[r].dtype) __builtin_trap();
  }
  if (index->has_md5 != rows.has_md5) __builtin_trap();
  // The same index without entries read by their shape (the shared store persists across inputs).
  RowKeyer plain_keyer(false, options, false);
  auto plain = index_dump(src, "dump.json", plain_keyer, std::make_shared<RowShapeStore>(0));
  if (!plain || plain->keys != index->keys || plain->stat_kinds != index->stat_kinds || plain->has_md5 != index->has_md5 ||
      plain->entries.size() != index->entries.size() || plain->error.has_value() != index->error.has_value() ||
      (plain->error && plain->error->message != index->error->message))
    __builtin_trap();
  for (std::size_t e = 0; e < index->entries.size(); ++e) {
    const auto &a = index->entries[e], &b = plain->entries[e];
    if (a.offset != b.offset || a.length != b.length || a.plain_value != b.plain_value || a.digest != b.digest ||
        a.first_row != b.first_row)
      __builtin_trap();
  }
  EntryFetcher fetch(src, *index);
  std::size_t row = 0;
  for (std::uint32_t e = 0; e < index->entries.size(); ++e) {
    auto entry = fetch.read(e);
    if (!entry) __builtin_trap();
    for (const auto& r : entry->rows) {
      const Row& full = rows.rows[row++];
      if (r.name != full.name || r.state != full.state || r.dtype != full.dtype || r.shape != full.shape ||
          r.requires_grad != full.requires_grad || r.stats != full.stats || r.md5 != full.md5 ||
          r.data_name != full.data_name || r.tensor != full.tensor)
        __builtin_trap();
    }
  }
  keys = index->keys;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = split(std::string_view(reinterpret_cast<const char*>(data), size));
  DumpRows npu = rows_of(parts[0], "npu/dump.json");
  const DumpRows bench = rows_of(parts[1], "bench/dump.json");

  MatchOptions options;
  check(npu, bench, options);
  std::vector<KeyHash> npu_keys, bench_keys;
  check_index(parts[0], npu, npu_keys);
  check_index(parts[1], bench, bench_keys);
  if (npu_keys.size() == npu.rows.size() && bench_keys.size() == bench.rows.size()) {
    // The same pairs from the index's hashes (the bench keyer on both sides: no mapping).
    DumpRows npu_as_bench = npu;
    const auto m = match_rows(npu_as_bench, bench, options);
    const auto hashed = pair_hashed(npu_keys, bench_keys, false);
    for (std::size_t i = 0; i < hashed.size(); ++i) {
      if (m.bench_of[i] && hashed[i] != m.bench_of[i]) __builtin_trap();
    }
  }
  options.fuzzy = true;
  check(npu, bench, options);

  const auto dm = parse_data_mapping(parts[2], "mapping.yaml");
  const auto cm = parse_cell_mapping(parts[2], "mapping.yaml");
  const auto am = parse_api_mapping(parts[2], "mapping.yaml");
  if (dm) {
    MatchOptions o;
    o.data_mapping = &*dm;
    check(npu, bench, o);
  }
  if (cm) {
    MatchOptions o;
    o.cell_mapping = &*cm;
    check(npu, bench, o);
  }
  const ApiMapping builtin;
  npu.framework = "mindspore";
  MatchOptions o;
  o.api_mapping = am ? &*am : &builtin;
  check(npu, bench, o);
  o.fuzzy = true;
  check(npu, bench, o);
  return 0;
}
