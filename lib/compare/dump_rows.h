#pragma once
// One side of a compare: a dump.json flattened into msprobe's compare rows (docs/compare.md
// "Rows"). Every entry whose name ends in a direction (`.forward` / `.backward`, module style
// `.forward.<N>` / `.backward.<N>`) or is a `parameters_grad[.<N>]` entry yields one row per
// leaf (a tensor or scalar descriptor, a null list item), named by its path below the entry:
// `<entry>.input.<i>[.<j>...]`, `<entry>.input.<kwarg>`, `<entry>.output.<i>`,
// `<entry>.parameters.<name>`, `<parameters_grad entry>.<name>`. Per entry the rows run
// inputs and kwargs, parameters, outputs, parameters_grad.
//
//   flatten_entry  one entry's Value -> rows (pure; the unit the fuzzer and tests drive)
//   read_dump_rows dump.json bytes -> DumpRows, one streaming pass (memory: the rows)

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/cell.h"
#include "core/byte_source.h"
#include "core/result.h"
#include "pyjson/json_value.h"

namespace msdump::compare {

// Which part of its entry a row comes from: drives the checkers (checkers.h) and the
// first-divergence rules (divergence.h).
enum class RowState : std::uint8_t { input, output, parameters, parameters_grad };
std::string_view to_string(RowState s);

enum class Stat : std::uint8_t { max, min, mean, norm };

struct Row {
  std::string name;             // NPU Name / Bench Name cell
  std::uint32_t entry = 0;      // index into DumpRows::entries
  RowState state = RowState::input;
  std::string dtype;            // "torch.float32", "<class 'int'>", "None", ...
  std::string shape;            // "[2, 4, 8]", "[]", "None", "(3,)"
  std::string requires_grad;    // "True", "False", "N/A"
  std::array<Cell, 4> stats;    // Max, Min, Mean, Norm cells as msprobe shows them
  std::string md5;              // the md5 cell ("N/A" for null rows)
  std::string data_name;        // the leaf's data_name, "-1" when it has none
  bool tensor = false;          // the leaf is a tensor descriptor

  // Back to a default Row, keeping the strings' buffers (for rows reused entry after entry).
  // A member added to Row is reset there too, copied in read_planned_rows (row_shapes.cpp) and
  // checked in tests/compare/row_test_checks.h.
  void reset();
};

struct DumpRows {
  std::string path;             // the dump.json read (for messages)
  std::string task;             // "statistics", "tensor", ...
  std::string level;
  std::string framework;        // "pytorch" when the key is missing
  bool has_md5 = false;         // some entry carries an md5 key (msprobe's rule: compare.md)
  // Every entry with a direction (or parameters_grad), in file order, also those that yield no
  // rows (they still count in the backward call order, as in msprobe).
  std::vector<std::string> entries;
  std::vector<Row> rows;        // in msprobe's parse order
  // Set when the file could not be read to its end (truncated, invalid JSON, a malformed
  // entry): `entries` and `rows` then hold what came before the error.
  std::optional<Error> error;
};

// The last two dotted components of `name` (`second_last` empty when there is one).
void last_two_components(std::string_view name, std::string_view& last, std::string_view& second_last);
// Whether one dotted component of `name` is `component`.
bool has_component(std::string_view name, std::string_view component);
// The md5 cell of a leaf without an md5: the CRC-32 of its value's str(), 8 hex digits.
std::string crc_text(std::string_view text);
inline constexpr std::string_view k_crc_of_empty = "00000000";  // crc_text("")
// Python's type() text of a JSON value of kind `kind` ("<class 'int'>"; null: NoneType).
std::string_view python_type_name(pyjson::Kind kind);

// A leaf descriptor's members that make its row, and those that make an object one (class_type,
// tensor), each as the caller holds a value (`V`: a pointer into a tree, or the value's text).
// note_leaf_member files one member by its key; fed the members in order, the last of a
// duplicated key wins, as in Python's json.load. V{} is "no such member".
template <class V>
struct LeafMembers {
  V data_name{}, requires_grad{}, type{}, value{}, dtype{}, md5{}, shape{}, group_ranks{}, class_type{}, tensor{};
  std::array<V, 4> stats{};  // Max, Min, Mean, Norm
};

template <class V>
void note_leaf_member(LeafMembers<V>& f, std::string_view k, const V& v) {
  switch (k.size()) {
    case 3:
      if (k == "Max") f.stats[0] = v;
      else if (k == "Min") f.stats[1] = v;
      else if (k == "md5") f.md5 = v;
      break;
    case 4:
      if (k == "Mean") f.stats[2] = v;
      else if (k == "Norm") f.stats[3] = v;
      else if (k == "type") f.type = v;
      break;
    case 5:
      if (k == "dtype") f.dtype = v;
      else if (k == "shape") f.shape = v;
      else if (k == "value") f.value = v;
      break;
    case 6:
      if (k == "tensor") f.tensor = v;
      break;
    case 9:
      if (k == "data_name") f.data_name = v;
      break;
    case 10:
      if (k == "class_type") f.class_type = v;
      break;
    case 11:
      if (k == "group_ranks") f.group_ranks = v;
      break;
    case 13:
      if (k == "requires_grad") f.requires_grad = v;
      break;
    default:
      break;
  }
}

// The entry kinds compare keeps (anything else yields no rows).
enum class EntryKind : std::uint8_t { forward, backward, parameters_grad, other };
EntryKind entry_kind(std::string_view entry_name);

// Appends the rows of entry `name` (index `entry_index`) to `out`, and sets `has_md5` when the
// entry carries an md5 key the way msprobe detects it (an md5 member of a dict directly in one
// of its lists, or of one of its dicts). A leaf with a non-empty data_name is named by it,
// without its last dot-suffix. Fails (invalid_input) naming the JSON path on a shape that is
// not an array, a requires_grad that is not a boolean, or nesting deeper than
// k_max_leaf_depth.
// FlattenDetail::names_and_dtypes fills only name, entry, state, dtype, data_name (what pairing
// reads) and the statistic cells' types (floats without their text), with the same checks and
// failures.
inline constexpr int k_max_leaf_depth = 64;
enum class FlattenDetail : std::uint8_t { full, names_and_dtypes };
Result<void> flatten_entry(std::string_view name, std::uint32_t entry_index, const pyjson::Value& entry,
                           std::vector<Row>& out, bool& has_md5, FlattenDetail detail = FlattenDetail::full);

// Python's str() of a JSON value as json.load gives it: `1`, `1.5`, `True`, `None`, the text of
// a string, `[1, 'a', None]` / `{'k': 2}` for containers.
std::string python_str(const pyjson::Value& v);

// Reads a whole dump.json (bytes of `src`, shown as `shown_as` in errors): header keys, then
// every entry flattened. Fails when the header cannot be read (no task, no data object before
// the error); an error after that is kept in DumpRows::error with the rows before it. Errors
// name the file, line and entry.
Result<DumpRows> read_dump_rows(const ByteSource& src, const std::string& shown_as);

}  // namespace msdump::compare
