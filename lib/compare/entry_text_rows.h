#pragma once
// compare's rows of one entry read straight from its text, without building the entry's tree:
// for pass 1 the names, dtypes and statistic cell types flatten_entry(...,
// FlattenDetail::names_and_dtypes) gives, kept per row with nothing allocated once the buffers
// have grown; for pass 2 the whole rows flatten_entry gives (docs/performance.md "Compare: two
// passes, a pairing index, chunks reused where they were made").
//
// The text must be valid JSON in the plain form (pyjson/plain_scanner.h: pass 1 checks it with
// PlainScanner, pass 2 reads text whose digest pass 1 took). The reader covers what dumps hold;
// for anything else (a dtype that is not a string, a requires_grad that is not a boolean, a
// shape that is not an array, nesting deeper than k_max_leaf_depth, and in pass 2 what is listed
// at read_rows) it declines, and the caller reads the entry the tree way, which gives the rows
// or the error. Where it does read an entry, its rows are flatten_entry's
// (tests/compare/entry_text_rows_test.cpp and the compare fuzz target check the two agree).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compare/dump_rows.h"
#include "compare/value_text.h"

namespace msdump::compare {

namespace entry_text {
struct Fields;
}  // namespace entry_text

class EntryTextRows {
 public:
  struct TextRow {
    std::uint32_t name_begin = 0, name_end = 0;  // in names()
    std::string_view dtype;                      // in the entry's text, or a constant
    std::uint8_t stat_kinds = 0;                 // as unmatched_stats.h packs them
    RowState state = RowState::input;
  };

  // Pass 1: reads the rows of entry `name` (an entry with a direction: entry_kind(name) !=
  // other) whose value is `value`, as FlattenDetail::names_and_dtypes has them. Returns false
  // when the reader declines (see above); rows() and names() are then unspecified. Sets
  // `has_md5` as flatten_entry does.
  bool read(std::string_view name, std::string_view value, bool& has_md5);
  // Pass 2: makes `out` the entry's whole rows (FlattenDetail::full, Row::entry 0). The Rows
  // `out` holds are overwritten in place, so that their strings keep their buffers from entry to
  // entry. It also declines a statistic that is a dict or an integer of more than 18 digits, a
  // number that overflows a double, and a value or md5 whose str() is a dict's; `out` is then
  // unspecified.
  bool read_rows(std::string_view name, std::string_view value, std::vector<Row>& out);

  const std::vector<TextRow>& rows() const { return m_rows; }
  // Whether a row of the entry last read is named after its descriptor's data_name (not after
  // the entry's name and the row's path in it).
  bool named_by_data_name() const { return m_data_named; }
  // Whether read_rows put the rows of the entry last read in flatten's order after reading them
  // (containers out of order or repeated).
  bool reordered() const { return m_reordered_rows; }

  // Where read_rows made a row's cells from a value's text, for plans that make them again from
  // another text of the same shape (row_shapes.h): `row` (in reading order) got the cells `how`
  // names from `text` (which may be absent: a member that is not there), in this order, a later
  // use overwriting what an earlier one made. Everything else in its rows is made from the
  // text's structure, strings and literals.
  enum class Use : std::uint8_t {
    stat_cell,    // stats[stat] = stat_cell_of(text)
    value_cells,  // every statistic = value_cell_of(text)
    shape_str,    // shape = python_str_of(text)
    md5_str,      // md5 = python_str_of(text)
    md5_crc,      // md5 = crc_text(python_str_of(text))
    other,        // every statistic and md5 from something else (a rank's or a group's text)
  };
  struct TextUse {
    std::uint32_t row = 0;
    std::uint8_t stat = 0;
    Use how = Use::other;
    ValueText text;
  };
  // Makes read_rows list its uses into `uses` (cleared per entry); nullptr: not listed.
  void list_uses(std::vector<TextUse>* uses) { m_uses = uses; }
  std::string_view name(const TextRow& r) const {
    return std::string_view(m_names).substr(r.name_begin, r.name_end - r.name_begin);
  }

 private:
  const char* walk(const char* p, RowState state, int depth, int md5);
  bool read_containers(std::string_view name, const char* entry);
  bool read_entry(std::string_view name, std::string_view value);
  bool leaf(const entry_text::Fields& f, RowState state);
  bool full_leaf(const entry_text::Fields& f, std::string_view name, bool tensor, RowState state);
  void null_row(RowState state);
  void add_row(std::string_view name, std::string_view dtype, std::uint8_t kinds, RowState state);
  Row& new_row(std::string_view name, RowState state);

  const char* m_end = nullptr;
  bool m_md5 = false;   // an md5 member where flatten's rule looks
  bool m_data_named = false;
  bool m_reordered_rows = false;
  std::vector<TextUse>* m_uses = nullptr;
  void use(Use how, ValueText text, std::uint8_t stat = 0);
  std::vector<Row>* m_full = nullptr;  // read_rows' output (pass 2), else pass 1's rows
  std::size_t m_full_rows = 0;         // the rows of *m_full made so far (the rest: to overwrite)
  std::string m_path;   // the row name so far
  std::string m_names;  // every row's name, one after the other
  std::vector<TextRow> m_rows;
  std::vector<TextRow> m_reordered;  // (rows of containers out of order)
};

}  // namespace msdump::compare
