#include "compare/entry_text_rows.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "compare/plain_entries.h"
#include "compare/row_test_checks.h"
#include "compare/unmatched_stats.h"
#include "pyjson/json_reader.h"
#include "pyjson/plain_scanner.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;
using compare::testing::check_same_row;

namespace {

enum class Outcome { read, declined };

// Pass 2's rows both ways: where read_rows reads the entry, the same rows as flatten_entry's
// full ones, read into a new vector and into one that holds the rows of the entries read
// before (overwritten in place). Returns whether it read it.
bool agree_full(std::string_view name, std::string_view value, const pyjson::Value& tree) {
  static std::vector<Row> reused;  // (every entry of the test's, one after the other)
  std::vector<Row> rows;
  bool md5 = false;
  const auto flat = flatten_entry(name, 0, tree, rows, md5);
  EntryTextRows reader;
  std::vector<Row> text_rows;
  const bool read = reader.read_rows(name, value, text_rows);
  if (!reader.read_rows(name, value, reused)) {
    CHECK(!read);
    reused.clear();
    return false;
  }
  CHECK(read);
  CHECK(flat);
  REQUIRE(text_rows.size() == rows.size());
  REQUIRE(reused.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    check_same_row(text_rows[i], rows[i]);
    check_same_row(reused[i], rows[i]);
  }
  return true;
}

// Reads entry `name` = `value` both ways and checks that where the text reader reads it, it
// gives flatten_entry's names, states, dtypes, statistic types and md5 flag, and that it
// declines where flatten_entry fails.
Outcome agree(std::string_view name, std::string_view value, bool* read_full = nullptr) {
  INFO(name << " = " << value);
  REQUIRE(pyjson::PlainScanner<>(value.data(), value.data() + value.size()).whole_value());
  auto tree = pyjson::parse_json(value);
  REQUIRE(tree);
  std::vector<Row> rows;
  bool tree_md5 = false;
  const auto flat = flatten_entry(name, 0, *tree, rows, tree_md5, FlattenDetail::names_and_dtypes);
  const bool full = agree_full(name, value, *tree);
  if (read_full != nullptr) *read_full = full;
  EntryTextRows reader;
  bool text_md5 = false;
  if (!reader.read(name, value, text_md5)) {
    CHECK(!full);
    return Outcome::declined;
  }
  CHECK(flat);
  CHECK(text_md5 == tree_md5);
  REQUIRE(reader.rows().size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& t = reader.rows()[i];
    CHECK(reader.name(t) == rows[i].name);
    CHECK(t.dtype == rows[i].dtype);
    CHECK(t.stat_kinds == stat_kinds(rows[i]));
    CHECK(t.state == rows[i].state);
  }
  return Outcome::read;
}

struct Tally {
  std::size_t read = 0, declined = 0, full = 0;
};

void agree_on_file(const std::filesystem::path& path, Tally& tally) {
  compare::testing::each_plain_entry(path, [&tally](std::string_view name, std::string_view value) {
    bool full = false;
    if (agree(name, value, &full) == Outcome::read) ++tally.read;
    else ++tally.declined;
    if (full) ++tally.full;
  });
}

}  // namespace

TEST_CASE("EntryTextRows reads every entry of the real msprobe dumps as flatten_entry does") {
  Tally tally;
  for (const auto& e : std::filesystem::recursive_directory_iterator(msdump::testing::samples_dir()))
    if (e.is_regular_file() && e.path().filename() == "dump.json") agree_on_file(e.path(), tally);
  CHECK(tally.read > 1000);
  CHECK(tally.declined == 0);
  CHECK(tally.full == tally.read);
}

TEST_CASE("EntryTextRows agrees with flatten_entry on every dump.json of testdata") {
  Tally tally;
  for (const auto& e : std::filesystem::recursive_directory_iterator(msdump::testing::testdata("")))
    if (e.is_regular_file() && e.path().filename() == "dump.json") agree_on_file(e.path(), tally);
  MESSAGE("entries read " << tally.read << ", declined " << tally.declined << "; whole rows read " << tally.full);
  CHECK(tally.read > 5000);
}

TEST_CASE("EntryTextRows: each leaf rule as flatten_entry has it") {
  const char* t = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.5, "Min": -1, "Mean": NaN, "Norm": null})";
  const std::string tensor = t;
  struct Case {
    const char* name;
    std::string value;
    bool whole = true;  // pass 2's rows read from the text too (not: a dict's str(), a dict or a long integer as a statistic, an overflow)
  };
  const Case cases[] = {
      {"Torch.add.0.forward", R"({"input_args": [)" + tensor + ", " + tensor + R"(], "input_kwargs": {"alpha": {"type": "int", "value": 2}}, "output": [)" + tensor + "]}"},
      {"Torch.add.0.forward", R"({"output": [)" + tensor + R"(], "input_args": [null, [], {}, 3, "s", [null, [)" + tensor + "]]]}"},
      {"Torch.add.0.backward", R"({"input": [)" + tensor + R"(], "output": [{"type": "float", "value": Infinity}, {"type": "float", "value": -Infinity}, {"type": "float", "value": NaN}]})"},
      {"Module.conv.Conv2d.forward.0", R"({"input_args": [], "parameters": {"weight": )" + tensor + R"(, "bias": null}, "output": []})"},
      {"Module.conv.Conv2d.parameters_grad", R"({"weight": [)" + tensor + R"(], "bias": )" + tensor + "}"},
      {"Distributed.send.0.forward", R"({"input_kwargs": {"dst": {"type": "int", "value": 1}, "group_src": {"type": "int", "value": 2}, "group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1]}}})"},
      {"Torch.view.0.forward", R"({"input_args": [{"type": "torch.Size", "value": [2, 3], "Max": 3}, {"type": "slice", "value": [0, 4, null]}, {"type": "slice", "value": 7}, {"type": "ellipsis", "value": 1.5}, {"type": "ellipsis"}]})"},
      {"Torch.where.0.forward", R"({"input_args": [{"type": "bool", "value": true}, {"type": "str", "value": "x"}, {"type": "list", "value": [1]}, {"type": "dict", "value": {"a": 1}}, {"type": "int", "value": 123456789012345678901234}, {"type": "x"}]})", false},
      {"Distributed.batch_isend_irecv.0.forward", R"({"input_args": [{"class_type": "torch.distributed.P2POp", "tensor": )" + tensor + R"(}, {"class_type": "torch.distributed.P2POp", "tensor": 3}, {"class_type": "other", "type": "int", "value": 1}]})"},
      {"Torch.add.1.forward", R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "data_name": "Torch.add.1.forward.input.0.pt", "shape": null}, {"type": "torch.Tensor", "dtype": "torch.int8", "data_name": "nodot"}, {"type": "torch.Tensor", "dtype": "torch.int8", "data_name": ""}]})"},
      {"Torch.add.2.forward", R"({"input_args": [{"type": "torch.Tensor", "dtype": "", "value": 1}, {"type": "torch.Tensor", "dtype": false, "value": 2.0}, {"type": "torch.Tensor", "dtype": null}, {"type": "torch.Tensor", "dtype": "torch.bool", "requires_grad": true, "Max": true, "Min": false, "Mean": "x", "Norm": [1]}]})"},
      {"Torch.add.2.forward", R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.bool", "requires_grad": false, "Max": true, "Min": false, "Mean": "x", "Norm": 12345678901234567}]})"},
      {"Torch.where.1.forward", R"({"input_args": [{"type": "bool", "value": false}, {"type": "str", "value": "x"}, {"type": "list", "value": [1, "a", [2.5, null, true], -0]}, {"type": "int", "value": -0}, {"type": "float", "value": 1e-7}, {"type": "x"}]})"},
      {"Torch.where.2.forward", R"({"input_args": [{"type": "dict", "value": {"a": 1}}]})", false},
      {"Torch.where.3.forward", R"({"input_args": [{"type": "int", "value": 123456789012345678901234}]})", false},
      {"Torch.where.4.forward", R"({"input_args": [{"type": "float", "value": 1e400}]})", false},
      {"Torch.add.3.forward", R"({"input_args": [{"type": "torch.Tensor", "type": 5, "dtype": "a"}, {"type": 5, "type": "int", "value": 1}], "output": [], "output": [)" + tensor + "]}"},
      {"Torch.add.4.forward", R"({"input_args": [{"type": "int", "md5": "abc", "value": 1}]})"},
      {"Torch.add.5.forward", R"({"input_args": {"md5": 1}, "x": [{"y": 1}]})"},
      {"Torch.add.6.forward", R"({"input_args": [[{"md5": 1}]]})"},
      {"Torch.add.7.forward", R"({"input_args": [], "other": [1, {"md5": 1}]})"},
      {"Torch.add.8.forward", R"({"other": {"md5": 2}, "output": [{"x": {"md5": 3}}]})"},
      {"Module.a.B.parameters_grad", R"({"weight": {"type": "torch.Tensor", "dtype": "f", "md5": "x"}})"},
      {"Module.a.C.parameters_grad", R"({"weight": {"w": {"md5": "x"}}})"},
      {"Torch.add.7.forward", R"([1, 2])"},
      {"Torch.add.8.forward", R"(null)"},
      {"Module.a.B.forward.0", R"({"input": {"x": {"y": {"z": )" + tensor + "}}}}"},
      {"Module.a.B.parameters_grad", R"([[)" + tensor + "], " + tensor + "]"},
      {"Torch.other.0", R"({"input_args": [)" + tensor + "]}"},
  };
  for (const auto& c : cases) {
    bool full = false;
    CHECK(agree(c.name, c.value, &full) == Outcome::read);
    INFO(c.value);
    CHECK(full == c.whole);
  }
}

TEST_CASE("EntryTextRows declines what flatten_entry fails on or shows through str()") {
  const char* cases[] = {
      R"({"input_args": [{"type": "torch.Tensor", "dtype": 5}]})",
      R"({"input_args": [{"type": "torch.Tensor", "dtype": true}]})",
      R"({"input_args": [{"type": "torch.Tensor", "dtype": "f", "shape": 3}]})",
      R"({"input_args": [{"type": "int", "requires_grad": "yes", "value": 1}]})",
  };
  for (const char* value : cases) CHECK(agree("Torch.add.0.forward", value) == Outcome::declined);
  std::string deep = R"({"input_args": )";
  for (int i = 0; i < 60; ++i) deep += '[';
  deep += "null";
  for (int i = 0; i < 60; ++i) deep += ']';
  deep += '}';
  CHECK(agree("Torch.add.0.forward", deep) == Outcome::read);
  // As deep as the plain scanner goes (64 containers): within flatten's depth limit.
  const std::string deepest = std::string(64, '[') + "null" + std::string(64, ']');
  CHECK(agree("Module.x.parameters_grad", deepest) == Outcome::read);
}
