#pragma once
// compare's streaming view of one dump.json, so that a pair is compared in memory that does not
// grow with its rows' contents (docs/compare.md "Memory"):
//   index_dump    pass 1: every entry's byte range and, per row, its pairing key (a 128-bit hash,
//                 row_match.h) and dtype and statistic cell types; 32 bytes per entry and 19 per row
//   EntryFetcher  pass 2: one entry's name and rows again, read from its range (a window of the
//                 file for runs of neighbouring entries, a few entries cached)

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compare/dump_rows.h"
#include "compare/entry_text_rows.h"
#include "compare/row_match.h"
#include "compare/row_shapes.h"
#include "core/byte_source.h"
#include "core/result.h"
#include "pyjson/plain_reader.h"
#include "pyjson/tree_arena.h"

namespace msdump::compare {

struct EntryExtent {
  std::uint64_t offset : 63 = 0;  // of the entry's key (its opening quote)
  // Pass 1 found the value valid in the plain form (pyjson::PlainScanner): once the digest shows
  // it is the same text, pass 2 need not look for escapes in it again.
  std::uint64_t plain_value : 1 = 0;
  std::uint32_t length = 0;   // key, colon and value
  std::uint32_t first_row = 0;
  std::uint64_t digest = 0;   // entry_digest of its key and value as pass 1 read them
  const RowShapePlan* plan = nullptr;  // its shape's plan, if pass 1 had one (DumpIndex::shapes holds it)
};

// A hash of an entry's key (decoded) and value text: pass 2 reads an entry whose text is plain
// (pyjson::plain_json_text) without a full parse when the digest shows it is the text pass 1
// checked.
std::uint64_t entry_digest(std::string_view key, std::string_view value_text);

struct DumpIndex {
  std::string path;
  std::string task, level, framework = "pytorch";
  bool has_md5 = false;
  std::vector<EntryExtent> entries;        // entries with a direction, in file order
  std::vector<KeyHash> keys;               // per row, in parse order
  std::vector<std::uint16_t> dtypes;       // per row: index into dtype_names
  std::vector<std::uint8_t> stat_kinds;    // per row: its statistic cells' types (unmatched_stats.h)
  std::vector<std::string> dtype_names;
  std::optional<Error> error;              // as DumpRows::error: entries before it are indexed
  std::shared_ptr<const RowShapeStore> shapes;  // the entries' plans
  std::uint32_t row_count = 0;             // (keys and dtypes may be dropped once paired)
  std::uint32_t rows() const { return row_count; }
  std::uint32_t entry_rows(std::uint32_t entry) const;
  std::uint32_t entry_of_row(std::uint32_t row) const;  // binary search over first_row
};

struct DumpHeader {
  std::string task, level, framework = "pytorch";
};

// The top-level members before "data" (task, level, framework).
Result<DumpHeader> read_dump_header(const ByteSource& src, const std::string& shown_as);

// Pass 1. `keyer` derives each row's key (its side's mappings, renumbering). Entries of a shape
// read before take their rows from `shapes` (row_shapes.h), and entries read add theirs. Fails
// as read_dump_rows fails (no header); a later error is kept in DumpIndex::error.
Result<DumpIndex> index_dump(const ByteSource& src, const std::string& shown_as, RowKeyer& keyer,
                             std::shared_ptr<RowShapeStore> shapes = RowShapeStore::shared());

struct EntryRows {
  std::string name;
  std::vector<Row> rows;  // Row::entry = 0
};

// Pass 2: entry i of an index, parsed and flattened again. Not thread-safe: one per thread.
class EntryFetcher {
 public:
  EntryFetcher(const ByteSource& src, const DumpIndex& index) : m_src(src), m_index(index) {}
  // Fails (internal) if the entry no longer reads as it did in pass 1 (the file changed).
  Result<std::shared_ptr<const EntryRows>> fetch(std::uint32_t entry);
  // The same, not cached: for entries read once (the NPU side's), whose rows the caller keeps.
  Result<EntryRows> read(std::uint32_t entry);
  // The same into `name` and `rows`, whose buffers are reused (the Rows `rows` holds are
  // overwritten in place: EntryTextRows::read_rows); both unspecified after an error.
  Result<void> read(std::uint32_t entry, std::string& name, std::vector<Row>& rows);

 private:
  Result<std::string_view> bytes(const EntryExtent& e);
  Result<void> read_plain(std::uint32_t entry, std::string_view text, std::string& name, std::vector<Row>& rows);
  Error changed_error(const EntryExtent& e) const;
  const ByteSource& m_src;
  const DumpIndex& m_index;
  std::string m_window;
  std::uint64_t m_window_offset = 0;
  pyjson::TreeArena m_arena;
  EntryTextRows m_text;         // plain entries: rows read from the text
  pyjson::PlainReader m_plain;  // what m_text declines: one tree, reused
  static constexpr std::size_t k_cached = 8;
  // Most recent last; an entry pushed out whose rows no caller holds any more is read into again.
  std::vector<std::pair<std::uint32_t, std::shared_ptr<EntryRows>>> m_cache;
};

}  // namespace msdump::compare
