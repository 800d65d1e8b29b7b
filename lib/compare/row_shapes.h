#pragma once
// RowShapes: compare's pass 1 rows of an entry (EntryTextRows::read: per row its name, dtype and
// statistic cell types, and the entry's md5 flag) taken from an entry of the same shape read
// before. Those rows depend on the entry's text only through its structure (keys, strings,
// literals, and whether each number token is an integer or a float: value_kind) and on the
// entry's name only through the name itself, which begins every row name, and through tests of
// its dot-separated components against words that hold no digit (entry_kind, parameters_grad,
// src / dst).
//
// - An entry's shape: its name with each run of digits replaced by '#' (a component that holds a
//   digit equals no such word either way), then its text with every number token replaced by one
//   byte, 0x80 for an integer and 0x81 for a float. The tokens are found by their bytes
//   (pyjson/number_tokens.h), with no syntax check.
// - A shape learned before came from text that passed PlainScanner's syntax check and that
//   EntryTextRows read. This text differs from it only in number tokens, each checked whole, so
//   it is valid and plain too, and its rows are the plan's: each row's name the entry's name
//   followed by the plan's suffix, and the plan's dtype, statistic types and state.
// - Otherwise the caller checks and reads the entry as before, and learn()s its shape when
//   EntryTextRows read it.
// - Before any of this, as the stream reaches an entry, match() compares its text with the last
//   plans of names like its own, run by run and token by token: a text that matches has that
//   shape, and the stream passes over it where the match ends (pyjson::EntryMatcher).
//
// Never learned: an entry with a row named after its data_name (that name is not the entry's
// name and a suffix), and entries over k_max_entry_bytes (long entries are rare and seldom
// repeat). One RowShapes per thread; the shapes live in a RowShapeStore shared by the threads and
// files of the process, bounded (core/shape_table.h).
//
// Pass 2 reads the whole rows of an entry of a known shape the same way (RowShapePlan::Full,
// read_planned_rows): pass 1 keeps each entry's plan, and pass 2 reads text whose digest shows it
// is the text pass 1 read. A plan holds the rows EntryTextRows::read_rows made of the entry it
// was learned from, and where it made a cell from a value holding number tokens
// (EntryTextRows::TextUse). Another text of the shape differs only in those tokens, and each
// token starts a fixed number of bytes after the one before ends: such a value is found again by
// its first and last token and made the same way; every other part of the rows is the plan's.
// Entries whose rows make a value holding tokens some other way (a rank's or a process group's
// text) have no such plan, nor do entries whose containers read_rows reordered.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compare/dump_rows.h"
#include "compare/entry_text_rows.h"
#include "core/shape_table.h"
#include "pyjson/entry_matcher.h"
#include "pyjson/shape_writer.h"
#include "pyjson/text_shape.h"

namespace msdump::compare {

struct RowShapePlan {
  // Pass 2's whole rows (read_planned_rows).
  struct Patch {
    std::uint32_t row = 0;
    std::uint8_t stat = 0;
    EntryTextRows::Use how = EntryTextRows::Use::other;
    std::uint32_t first = 0, last = 0;  // the value's first and last number tokens
    std::uint32_t before = 0, after = 0;  // its bytes before the first token and after the last
  };
  struct Full {
    std::vector<Row> rows;  // as read_rows made them, each name only its suffix
    std::vector<Patch> patches;  // in read_rows' order
    std::vector<std::uint8_t> patched;  // per row, the cells patches make (bits 0-3 statistics, 4 shape, 5 md5): not copied
  };
  struct PlanRow {
    std::string suffix;  // the row's name after the entry's name
    std::string dtype;
    std::uint8_t stat_kinds = 0;
    RowState state = RowState::input;
  };
  std::vector<PlanRow> rows;
  bool has_md5 = false;  // the entry sets DumpIndex::has_md5
  std::optional<Full> full;
  // The shape's text (its bytes between the number tokens), and per token its marker (0x80 an
  // integer, 0x81 a float).
  pyjson::TextShape text;
  std::string kinds;
};

// Pass 2: `out` made the whole rows of entry `name` = `value`, a text of the plan's shape (its
// digest taken in pass 1), as EntryTextRows::read_rows makes them. The Rows `out` holds are
// overwritten in place. False when the plan has no whole rows or a value declines as read_rows
// declines it (`out` then unspecified).
bool read_planned_rows(const RowShapePlan& plan, std::string_view name, std::string_view value, std::vector<Row>& out);

class RowShapeStore : public ShapeTable<RowShapePlan> {
 public:
  static constexpr std::size_t k_default_max_bytes = 4u << 20;

  explicit RowShapeStore(std::size_t max_bytes = k_default_max_bytes) : ShapeTable(max_bytes) {}

  // The process's store (made on first use): pass 1 of every dump compared.
  static std::shared_ptr<RowShapeStore> shared();

  // Adds `shape` unless it is there or the store is full.
  void add(std::string_view shape, RowShapePlan plan);
};

class RowShapes : public pyjson::EntryMatcher {
 public:
  static constexpr std::size_t k_max_entry_bytes = 256u << 10;

  explicit RowShapes(std::shared_ptr<RowShapeStore> store = RowShapeStore::shared()) : m_store(std::move(store)) {}

  // The plan for entry `name` (an entry with a direction) whose value's text is `text`, or
  // nullptr: the entry must then be checked and read as usual, and its shape is kept for learn().
  const RowShapePlan* find(std::string_view name, std::string_view text);

  // After find() gave nullptr for entry `name` = `text`, and `rows` read it (EntryTextRows::read,
  // `md5` the flag it set for this entry): learns the entry's shape, and its whole rows where
  // read_rows reads them.
  // Returns the plan the store holds for the shape then (nullptr: the store is full).
  const RowShapePlan* learn(std::string_view name, std::string_view text, const EntryTextRows& rows, bool md5);

  // pyjson::EntryMatcher: an entry whose text has the shape of one of the plans last found or
  // learned for a name like `key` (the same but for its digits; at most k_recent_plans of them,
  // the last matched first), compared run by run and token by token with no other scan. Its plan
  // is then matched().
  const char* match(std::string_view key, const char* p, const char* end, pyjson::Newlines& newlines) override;
  const RowShapePlan* matched() const { return m_matched; }

  std::size_t shapes() const { return m_store->size(); }

 private:
  void head_of(std::string_view name);

  std::shared_ptr<RowShapeStore> m_store;
  std::string m_head;
  static constexpr std::size_t k_recent_plans = 4;
  using Recent = std::array<const RowShapePlan*, k_recent_plans>;  // the last used first; nullptr: none
  std::unordered_map<std::string, Recent> m_recent;  // by head
  void remember(const RowShapePlan* plan);
  const RowShapePlan* m_matched = nullptr;
  std::string m_buffer;
  pyjson::ShapeWriter m_writer;
  std::string_view m_shape;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> m_tokens;  // the text's number tokens: [begin, end) offsets
  std::string m_kinds;  // and their markers
  bool m_pending = false;  // m_shape is the unknown shape of the entry find() last read
};

}  // namespace msdump::compare
