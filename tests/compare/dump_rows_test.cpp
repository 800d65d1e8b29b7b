#include "compare/dump_rows.h"

#include <doctest/doctest.h>

#include "compare/row_test_checks.h"
#include "core/byte_source.h"
#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

std::vector<Row> flatten(std::string_view name, std::string_view json, bool* md5 = nullptr) {
  auto v = pyjson::parse_json(json);
  REQUIRE(v);
  std::vector<Row> rows;
  bool has_md5 = false;
  auto r = flatten_entry(name, 3, *v, rows, has_md5);
  REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
  if (md5) *md5 = has_md5;
  return rows;
}

std::vector<std::string> names(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.name);
  return out;
}

const char* k_tensor = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 4], "Max": 1.5, "Min": -2, "Mean": NaN, "Norm": null, "requires_grad": true})";

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("dump rows: entry kinds by their last two name components") {
    CHECK(entry_kind("Functional.linear.0.forward") == EntryKind::forward);
    CHECK(entry_kind("Module.fc.Linear.backward.3") == EntryKind::backward);
    CHECK(entry_kind("Module.fc.Linear.parameters_grad") == EntryKind::parameters_grad);
    CHECK(entry_kind("Module.fc.Linear.parameters_grad.1") == EntryKind::parameters_grad);
    CHECK(entry_kind("Functional.linear.2") == EntryKind::other);
  }
  TEST_CASE("dump rows: has_component matches whole dotted components only") {
    CHECK(has_component("Module.fc.Linear.parameters_grad", "parameters_grad"));
    CHECK(has_component("parameters_grad.x", "parameters_grad"));
    CHECK(has_component("a.parameters_grad.1", "parameters_grad"));
    CHECK(!has_component("a.parameters_grads.1", "parameters_grad"));
    CHECK(!has_component("a.xparameters_grad", "parameters_grad"));
    CHECK(has_component("a.xparameters_grad.parameters_grad", "parameters_grad"));  // (a later occurrence)
    CHECK(!has_component("", "parameters_grad"));
    CHECK(has_component("a..b", ""));
    CHECK(!has_component("a.b", ""));
    CHECK(!has_component("a.b.c", "b.c"));  // (no component holds a dot)
  }
  TEST_CASE("dump rows: a reset Row is a default Row") {
    auto rows = flatten("Functional.linear.0.forward", std::string(R"({"input_args": [)") + k_tensor + "]}");
    REQUIRE(rows.size() == 1);
    Row r = rows[0];
    r.md5 = "abc";
    r.data_name = "x.pt";
    r.reset();
    compare::testing::check_same_row(r, Row{});
  }

  TEST_CASE("dump rows: inputs and kwargs, then parameters, then outputs; lists indexed, dicts by key") {
    const std::string entry = std::string(R"({"input_args": [)") + k_tensor + R"(, [{"type": "int", "value": 1}, null]],
      "input_kwargs": {"inplace": {"type": "bool", "value": false}},
      "output": [)" + k_tensor + R"(], "parameters": {"weight": )" + k_tensor + "}}";
    const auto rows = flatten("Module.fc.Linear.forward.0", entry);
    CHECK(names(rows) == std::vector<std::string>{
                             "Module.fc.Linear.forward.0.input.0", "Module.fc.Linear.forward.0.input.1.0",
                             "Module.fc.Linear.forward.0.input.1.1", "Module.fc.Linear.forward.0.input.inplace",
                             "Module.fc.Linear.forward.0.parameters.weight", "Module.fc.Linear.forward.0.output.0"});
    CHECK(rows[0].entry == 3);
    CHECK(rows[0].dtype == "torch.float32");
    CHECK(rows[0].shape == "[2, 4]");
    CHECK(rows[0].requires_grad == "True");
    CHECK(rows[0].stats[0] == Cell::floating(1.5));
    CHECK(rows[0].stats[1] == Cell::integer(-2));
    CHECK(rows[0].stats[2] == Cell::text("Nan"));
    CHECK(rows[0].stats[3] == Cell::text("None"));
    CHECK(rows[0].md5 == "00000000");  // crc32 of str('')
    CHECK(rows[1].dtype == "<class 'int'>");
    CHECK(rows[1].shape == "[]");
    CHECK(rows[1].requires_grad == "N/A");
    CHECK(rows[1].stats[0] == Cell::integer(1));
    CHECK(rows[1].md5 == "83dcefb7");  // crc32 of "1"
    CHECK(rows[2].dtype == "None");
    CHECK(rows[2].md5 == "N/A");
    CHECK(rows[3].stats[0] == Cell::boolean(false));
    CHECK(rows[4].state == RowState::parameters);
    CHECK(rows[5].state == RowState::output);
  }

  TEST_CASE("dump rows: parameters_grad rows carry no list index; data_name names a row") {
    const auto grads = flatten("Module.fc.Linear.parameters_grad", std::string(R"({"weight": [)") + k_tensor + "]}");
    CHECK(names(grads) == std::vector<std::string>{"Module.fc.Linear.parameters_grad.weight"});
    CHECK(grads[0].state == RowState::parameters_grad);
    const auto named = flatten("Tensor.add_.0.forward",
                               R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.int64", "shape": [], "data_name": "Tensor.add_.0.forward.input.0.pt"}], "output": null})");
    CHECK(names(named) == std::vector<std::string>{"Tensor.add_.0.forward.input.0", "Tensor.add_.0.forward.output"});
    CHECK(named[0].data_name == "Tensor.add_.0.forward.input.0.pt");
    CHECK(named[1].data_name == "-1");
  }

  TEST_CASE("dump rows: a leaf's duplicated key counts by its last value, as in json.load") {
    const auto rows = flatten("Torch.add.0.forward",
                              R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.int8", "dtype": "torch.float32",
                                  "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "Max": 3.0}]})");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].dtype == "torch.float32");
    CHECK(rows[0].stats[0].str() == "3.0");
  }
  TEST_CASE("dump rows: a P2POp whose tensor has no type is a row, not a crash") {
    const auto rows = flatten("Distributed.batch_isend_irecv.0.forward",
                              R"({"input_args": [{"class_type": "torch.distributed.P2POp", "tensor": {"dtype": "torch.float32", "shape": [1]}}]})");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].dtype == "torch.float32");
  }
  TEST_CASE("dump rows: md5 is detected as msprobe detects it, directly in a list or a dict") {
    bool md5 = false;
    flatten("Torch.add.0.forward", R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1], "md5": "0badf00d"}]})", &md5);
    CHECK(md5);
    flatten("Torch.add.0.forward", R"({"input_args": [[{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1], "md5": "0badf00d"}]]})", &md5);
    CHECK_FALSE(md5);  // nested one level deeper: msprobe does not look there
  }

  TEST_CASE("dump rows: a shape that is no array or a requires_grad that is no bool names the path") {
    std::vector<Row> rows;
    bool md5 = false;
    auto v = pyjson::parse_json(R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": "2x4"}]})");
    auto r = flatten_entry("Torch.add.0.forward", 0, *v, rows, md5);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "entry 'Torch.add.0.forward': input_args[0]: shape must be an array, got string");
    v = pyjson::parse_json(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "requires_grad": 1}]})");
    r = flatten_entry("Torch.add.0.forward", 0, *v, rows, md5);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "entry 'Torch.add.0.forward': output[0]: requires_grad must be a boolean, got integer");
  }

  TEST_CASE("dump rows: a truncated file keeps the rows of the entries before the break") {
    const std::string text = std::string(R"({"task": "statistics", "level": "L1", "data": {"Torch.add.0.forward": {"output": [)") + k_tensor +
                             R"(]}, "Torch.add.1.forward": {"output": [)";
    MemorySource src(as_bytes(text), "dump.json");
    auto rows = read_dump_rows(src, "dump.json");
    REQUIRE(rows);
    CHECK(rows->task == "statistics");
    CHECK(rows->framework == "pytorch");
    CHECK(rows->entries == std::vector<std::string>{"Torch.add.0.forward"});
    CHECK(rows->rows.size() == 1);
    REQUIRE(rows->error);
    CHECK(rows->error->message.starts_with("reading 'dump.json': line 1, column"));
    const std::string no_task = R"({"level": "L1", "data": {}})";
    MemorySource bad(as_bytes(no_task), "x.json");
    auto none = read_dump_rows(bad, "x.json");
    REQUIRE_FALSE(none);
    CHECK(none.error().message == "'x.json': no \"task\" member: expected a dump.json of msprobe");
  }
}
