// Mutations of small, valid documents: each breaks one rule of docs/format.md §15 (or of
// stack/construct/trace) and must produce exactly the expected violations (instance pointer
// and a fragment of the message) from the compiled engine; in builds with the test-only
// reference validator (tests/schema/reference/), valijson must reject the same value with a
// violation at or above the same place.

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "schema/schema_validator.h"
#include "schema_test_util.h"
#ifdef MSDUMP_HAVE_REFERENCE_VALIDATOR
#include "reference_validator.h"
#endif

using namespace msdump;
using namespace msdump::schema;
using msdump::pyjson::Value;
using msdump::schema::testing::parse;

namespace {

constexpr const char* k_torch_tensor =
    R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3], "Max": 2.0, "Min": -1.5, "Mean": 0.25,
        "Norm": 2.5124688148498535, "requires_grad": true, "md5": "e2ca942d"})";
constexpr const char* k_ms_tensor =
    R"({"type": "mindspore.Tensor", "dtype": "BFloat16", "shape": [2, 2], "Max": 1.0, "Min": 0.0, "Mean": 0.5,
        "Norm": 1.0, "data_name": "Cell.fc.Dense.forward.0.output.0.npy"})";

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// A valid dump of `framework` whose tensor leaves are `tensor` ("T" in the template).
Value base_dump(std::string_view framework, const char* tensor, std::string_view module_prefix) {
  const std::string text = R"({"task": "statistics", "level": "mix", "framework": "FW", "dump_data_dir": null, "data": {
    "Functional.relu.0.forward": {"input_args": [T], "input_kwargs": {}, "output": [T]},
    "Functional.relu.0.backward": {"input": [T], "output": [T, null]},
    "MOD.fc.Linear.forward.0": {
      "input_args": [T, {"type": "int", "value": 2}, null, [{"type": "float", "value": 1.5}], {"type": "slice", "value": [0, 1, null]}],
      "input_kwargs": {"inplace": {"type": "bool", "value": false}, "dims": {"type": "torch.Size", "value": [2, 3]}, "opts": {"type": {"type": "str", "value": "x"}}},
      "output": [T], "parameters": {"weight": T, "bias": T}},
    "MOD.fc.Linear.backward.0": {"input": [T], "output": []},
    "MOD.fc.Linear.parameters_grad.0": {"weight": [T], "bias": [T]},
    "Distributed.isend.0.forward": {"input_args": [
      {"class_type": "torch.distributed.P2POp", "tensor": T, "op": "isend", "peer": 1, "tag": 0, "group_id": "a1b2c3d4"},
      {"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": "0f2e9a1c"},
      {"type": "torch.memory_format", "format": "contiguous_format"}], "input_kwargs": {}, "output": [null]}
  }})";
  return parse(replace_all(replace_all(replace_all(text, "FW", framework), "MOD", module_prefix), "T", tensor));
}

Value pytorch_dump() { return base_dump("pytorch", k_torch_tensor, "Module"); }
Value mindspore_dump() {
  Value v = base_dump("mindspore", k_ms_tensor, "Cell");
  // MindSpore has no torch.ProcessGroup / memory_format / P2POp of torch: keep plain values.
  v.find("data")->find("Distributed.isend.0.forward")->find("input_args")->as_array().resize(0);
  std::erase_if(v.find("data")->find("Cell.fc.Linear.forward.0")->find("input_kwargs")->as_object(),
                [](const pyjson::Member& m) { return m.key == "dims"; });  // torch.Size
  return v;
}

// The value at a "/"-separated path of plain keys and indices (no escapes needed here).
Value& at(Value& root, std::string_view pointer) {
  Value* cur = &root;
  while (!pointer.empty()) {
    pointer.remove_prefix(1);
    const std::size_t slash = pointer.find('/');
    const std::string token(pointer.substr(0, slash));
    pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(slash);
    if (cur->is_array()) {
      cur = &cur->as_array().at(std::stoul(token));
    } else {
      cur = cur->find(token);
      REQUIRE_MESSAGE(cur != nullptr, token);
    }
  }
  return *cur;
}

void set(Value& object, const std::string& key, Value v) {
  if (Value* existing = object.find(key)) {
    *existing = std::move(v);
  } else {
    object.add(key, std::move(v));
  }
}

void erase(Value& object, const std::string& key) {
  auto& members = object.as_object();
  std::erase_if(members, [&](const pyjson::Member& m) { return m.key == key; });
}

void rename(Value& object, const std::string& from, const std::string& to) {
  for (pyjson::Member& m : object.as_object()) {
    if (m.key == from) m.key = to;
  }
}

// A legacy-profile document: every forward entry carries is_recompute (docs/format.md §0).
Value legacy_dump() {
  Value v = pytorch_dump();
  for (auto& m : v.as_object())
    if (m.key == "data")
      for (auto& e : m.value.as_object())
        if (e.key.ends_with(".forward") || e.key.find(".forward.") != std::string::npos)
          set(e.value, "is_recompute", Value::boolean(false));
  return v;
}

struct Expected {
  std::string pointer;
  std::string fragment;
};

#ifdef MSDUMP_HAVE_REFERENCE_VALIDATOR
// valijson rejects `v` exactly when `expected` is not empty, each expected violation with one
// at or above its pointer.
void expect_reference_agrees(std::string_view schema, const Value& v, const std::vector<Expected>& expected) {
  auto reference = ReferenceValidator::create(schema);
  REQUIRE(reference);
  const auto ref = reference->validate(v);
  CHECK(ref.empty() == expected.empty());
  for (const Expected& e : expected) {
    const bool covered = std::any_of(ref.begin(), ref.end(), [&](const Violation& r) {
      return e.pointer.compare(0, r.instance_pointer.size(), r.instance_pointer) == 0;
    });
    CHECK_MESSAGE(covered, "valijson reports nothing at or above " << e.pointer);
  }
}
#endif

// Validates `v` and checks the violations are exactly `expected` (pointer equal, message
// containing the fragment), in order; with the reference validator, that valijson agrees.
void expect(std::string_view schema, const Value& v, const std::vector<Expected>& expected) {
  auto compiled = SchemaValidator::create(schema);
  REQUIRE(compiled);
  const auto got = compiled->validate(v);
  std::string listing;
  for (const Violation& x : got) listing += x.instance_pointer + " | " + x.schema_pointer + " | " + x.message + "\n";
  CAPTURE(listing);
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].instance_pointer == expected[i].pointer);
    CHECK(got[i].message.find(expected[i].fragment) != std::string::npos);
    CHECK_FALSE(got[i].schema_pointer.empty());
  }
#ifdef MSDUMP_HAVE_REFERENCE_VALIDATOR
  expect_reference_agrees(schema, v, expected);
#endif
}

const std::string k_relu = "/data/Functional.relu.0.forward";
const std::string k_leaf = k_relu + "/input_args/0";
const std::string k_linear = "/data/Module.fc.Linear.forward.0";

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("the unmutated documents are valid") {
    expect("dump-pytorch-current", pytorch_dump(), {});
    expect("dump-mindspore", mindspore_dump(), {});
    expect("dump-pytorch-legacy", legacy_dump(), {});
    // is_recompute is allowed, not required: 8.x documents legacy entries without it (verify
    // checks that a file has it in all forward entries or in none).
    Value partial = legacy_dump();
    at(partial, k_relu).as_object().erase(at(partial, k_relu).as_object().end() - 1);
    expect("dump-pytorch-legacy", partial, {});
    Value no_framework = pytorch_dump();
    erase(no_framework, "framework");  // old files: tolerated
    expect("dump-pytorch-current", no_framework, {});
  }

  TEST_CASE("top level: unknown key, missing data, enums, framework of the schema") {
    Value v = pytorch_dump();
    set(v, "extra", Value::integer(1));
    expect("dump-pytorch-current", v, {{"/extra", "property \"extra\" is not allowed"}});
    v = pytorch_dump();
    erase(v, "data");
    expect("dump-pytorch-current", v, {{"", "missing required property \"data\""}});
    v = pytorch_dump();
    set(v, "task", Value::string("train"));
    set(v, "level", Value::string("L2"));
    expect("dump-pytorch-current", v, {{"/task", "\"train\" is not one of the allowed values"},
                                       {"/level", "\"L2\" is not one of the allowed values: \"L0\", \"L1\", \"mix\""}});
    v = pytorch_dump();
    set(v, "framework", Value::string("mindspore"));
    expect("dump-pytorch-current", v, {{"/framework", "expected \"pytorch\", got \"mindspore\""}});
    v = pytorch_dump();
    set(v, "dump_data_dir", Value::integer(0));
    expect("dump-pytorch-current", v, {{"/dump_data_dir", "expected null or string, got integer"}});
  }

  TEST_CASE("entry names and entry shapes") {
    Value v = pytorch_dump();
    rename(at(v, "/data"), "Functional.relu.0.forward", "Functional.relu.forward");
    expect("dump-pytorch-current", v, {{"/data/Functional.relu.forward", "property name: \"Functional.relu.forward\" does not match"}});
    v = pytorch_dump();
    set(at(v, "/data/Functional.relu.0.backward"), "input_args", Value::array());
    expect("dump-pytorch-current", v, {{"/data/Functional.relu.0.backward/input_args", "property \"input_args\" is not allowed"}});
    v = pytorch_dump();
    set(at(v, k_relu), "parameters", Value::object());
    expect("dump-pytorch-current", v, {{k_relu + "/parameters", "property \"parameters\" is not allowed"}});
    v = pytorch_dump();
    set(at(v, k_relu), "is_recompute", Value::boolean(true));
    expect("dump-pytorch-current", v, {{k_relu + "/is_recompute", "property \"is_recompute\" is not allowed"}});
    v = legacy_dump();
    set(at(v, k_relu), "is_recompute", Value::string("yes"));
    expect("dump-pytorch-legacy", v, {{k_relu + "/is_recompute", "expected boolean, got string"}});
    v = pytorch_dump();
    set(at(v, k_relu), "input_kwargs", Value::array());
    expect("dump-pytorch-current", v, {{k_relu + "/input_kwargs", "expected object, got array"}});
    v = pytorch_dump();
    at(v, k_relu).as_object().clear();
    expect("dump-pytorch-current", v, {{k_relu, "expected at least 1 property, got 0"}});
  }

  TEST_CASE("parameters_grad: one-element lists of tensor leaves") {
    const std::string grads = "/data/Module.fc.Linear.parameters_grad.0";
    Value v = pytorch_dump();
    at(v, grads + "/weight").push_back(parse(k_torch_tensor));
    expect("dump-pytorch-current", v, {{grads + "/weight", "expected at most 1 item, got 2"}});
    v = pytorch_dump();
    set(at(v, grads), "bias", parse(k_torch_tensor));
    expect("dump-pytorch-current", v, {{grads + "/bias", "expected array, got object"}});
    v = pytorch_dump();
    at(v, grads + "/bias").as_array()[0] = Value::null();
    expect("dump-pytorch-current", v, {{grads + "/bias/0", "expected object, got null"}});
  }

  TEST_CASE("parameters_grad without its counter (msprobe up to 8.x), in every dump schema") {
    const std::string plain = "/data/Module.fc.Linear.parameters_grad";
    for (auto schema : {"dump-pytorch-current", "dump-pytorch-legacy"}) {
      Value v = pytorch_dump();
      rename(at(v, "/data"), "Module.fc.Linear.parameters_grad.0", "Module.fc.Linear.parameters_grad");
      expect(schema, v, {});
      at(v, plain + "/weight").push_back(parse(k_torch_tensor));  // still a parameters_grad entry's shape
      expect(schema, v, {{plain + "/weight", "expected at most 1 item, got 2"}});
    }
    Value ms = mindspore_dump();
    rename(at(ms, "/data"), "Cell.fc.Linear.parameters_grad.0", "Cell.fc.Linear.parameters_grad");
    expect("dump-mindspore", ms, {});
    ms = mindspore_dump();
    rename(at(ms, "/data"), "Cell.fc.Linear.parameters_grad.0", "Cell.fc.Linear.parameters_grad.x");
    expect("dump-mindspore", ms, {{"/data/Cell.fc.Linear.parameters_grad.x", "does not match"}});
  }

  TEST_CASE("tensor leaves: dtype, requires_grad, shape, stats, md5, data_name") {
    Value v = pytorch_dump();
    set(at(v, k_leaf), "dtype", Value::string("Float32"));
    expect("dump-pytorch-current", v, {{k_leaf + "/dtype", "\"Float32\" is not one of the allowed values: \"torch.float16\""}});
    v = pytorch_dump();
    erase(at(v, k_leaf), "requires_grad");
    expect("dump-pytorch-current", v, {{k_leaf, "missing required property \"requires_grad\""}});
    v = pytorch_dump();
    at(v, k_leaf + "/shape").push_back(Value::integer(-1));
    expect("dump-pytorch-current", v, {{k_leaf + "/shape/1", "-1 is less than the minimum 0"}});
    v = pytorch_dump();
    set(at(v, k_leaf), "shape", Value::string("3"));
    expect("dump-pytorch-current", v, {{k_leaf + "/shape", "expected array, got string"}});
    v = pytorch_dump();
    at(v, k_leaf + "/shape").as_array()[0] = Value::floating(3.0);
    expect("dump-pytorch-current", v, {{k_leaf + "/shape/0", "expected integer, got float"}});
    v = pytorch_dump();
    set(at(v, k_leaf), "Max", Value::string("2.0"));
    expect("dump-pytorch-current", v, {{k_leaf + "/Max", "expected null, boolean or number, got string"}});
    v = pytorch_dump();
    set(at(v, k_leaf), "Max", Value::floating(std::numeric_limits<double>::quiet_NaN()));
    set(at(v, k_leaf), "Min", Value::boolean(false));
    set(at(v, k_leaf), "Norm", Value::null());
    expect("dump-pytorch-current", v, {});
    v = pytorch_dump();
    erase(at(v, k_leaf), "Mean");
    expect("dump-pytorch-current", v, {{k_leaf, "property \"Max\" requires property \"Mean\""},
                                       {k_leaf, "property \"Min\" requires property \"Mean\""},
                                       {k_leaf, "property \"Norm\" requires property \"Mean\""}});
    v = pytorch_dump();
    set(at(v, k_leaf), "md5", Value::string("E2CA942D"));
    expect("dump-pytorch-current", v, {{k_leaf + "/md5", "\"E2CA942D\" does not match the pattern"}});
    for (Value md5 : {Value::string("0x0000010101000000"), Value::floating(3.25), Value::null()}) {
      v = pytorch_dump();
      set(at(v, k_leaf), "md5", std::move(md5));
      expect("dump-pytorch-current", v, {});
    }
    v = pytorch_dump();
    set(at(v, k_leaf), "data_name", Value::string("Functional.relu.0.forward.input.0.bin"));
    expect("dump-pytorch-current", v, {{k_leaf + "/data_name", "does not match the pattern ^.+\\.(pt|npy)$"}});
    v = pytorch_dump();
    set(at(v, k_leaf), "grad_fn", Value::null());
    expect("dump-pytorch-current", v, {{k_leaf + "/grad_fn", "property \"grad_fn\" is not allowed"}});
  }

  TEST_CASE("non-tensor leaves") {
    Value v = pytorch_dump();
    set(at(v, k_linear + "/input_args/1"), "value", Value::floating(2.5));
    expect("dump-pytorch-current", v, {{k_linear + "/input_args/1/value", "expected integer, got float"}});
    v = pytorch_dump();
    set(at(v, k_linear + "/input_args/3/0"), "value", Value::string("1.5"));
    expect("dump-pytorch-current", v, {{k_linear + "/input_args/3/0/value", "expected number, got string"}});
    v = pytorch_dump();
    set(at(v, k_linear + "/input_args/1"), "type", Value::string("complex"));
    expect("dump-pytorch-current", v, {{k_linear + "/input_args/1/type", "\"complex\" is not one of the allowed values"}});
    v = pytorch_dump();
    erase(at(v, k_linear + "/input_args/1"), "value");
    expect("dump-pytorch-current", v, {{k_linear + "/input_args/1", "missing required property \"value\""}});
    v = pytorch_dump();
    at(v, k_linear + "/input_args/4/value").push_back(Value::integer(1));
    expect("dump-pytorch-current", v, {{k_linear + "/input_args/4/value", "expected at most 3 items, got 4"}});
    v = pytorch_dump();
    at(v, k_linear + "/input_kwargs/dims/value").as_array()[1] = Value::integer(-3);
    expect("dump-pytorch-current", v, {{k_linear + "/input_kwargs/dims/value/1", "-3 is less than the minimum 0"}});
    v = pytorch_dump();
    at(v, k_linear + "/input_args").push_back(Value::string("bare"));
    expect("dump-pytorch-current", v, {{k_linear + "/input_args/5", "expected null, array or object, got string"}});
    const std::string isend = "/data/Distributed.isend.0.forward/input_args";
    v = pytorch_dump();
    erase(at(v, isend + "/0"), "peer");
    expect("dump-pytorch-current", v, {{isend + "/0", "missing required property \"peer\""}});
    v = pytorch_dump();
    at(v, isend + "/1/group_ranks").as_array()[0] = Value::string("0");
    expect("dump-pytorch-current", v, {{isend + "/1/group_ranks/0", "expected integer, got string"}});
    v = pytorch_dump();
    set(at(v, isend + "/2"), "format", Value::string("weird_format"));
    expect("dump-pytorch-current", v, {{isend + "/2/format", "\"weird_format\" is not one of the allowed values"}});
    v = pytorch_dump();
    set(at(v, isend + "/0/tensor"), "shape", Value::null());
    expect("dump-pytorch-current", v, {{isend + "/0/tensor/shape", "expected array, got null"}});
  }

  TEST_CASE("MindSpore and mindtorch: their dtypes and names; requires_grad only for mindtorch") {
    const std::string ms_leaf = "/data/Functional.relu.0.forward/input_args/0";
    Value v = mindspore_dump();
    set(at(v, ms_leaf), "requires_grad", Value::boolean(false));
    expect("dump-mindspore", v, {{ms_leaf + "/requires_grad", "property \"requires_grad\" is not allowed"}});
    v = mindspore_dump();
    set(at(v, ms_leaf), "dtype", Value::string("torch.bfloat16"));
    expect("dump-mindspore", v, {{ms_leaf + "/dtype", "\"torch.bfloat16\" is not one of the allowed values: \"Float16\""}});
    v = mindspore_dump();
    rename(at(v, "/data"), "Cell.fc.Linear.backward.0", "Module.fc.Linear.backward.0");
    expect("dump-mindspore", v, {{"/data/Module.fc.Linear.backward.0", "property name: \"Module.fc.Linear.backward.0\" does not match"}});
    Value mt = base_dump("mindtorch", k_ms_tensor, "Module");
    at(mt, "/data/Distributed.isend.0.forward/input_args").as_array().resize(0);
    expect("dump-mindtorch", mt, {});
    set(at(mt, ms_leaf), "requires_grad", Value::boolean(true));  // the 8.x MSAdapter docs show it: allowed
    expect("dump-mindtorch", mt, {});
    set(at(mt, ms_leaf), "requires_grad", Value::string("yes"));
    expect("dump-mindtorch", mt, {{ms_leaf + "/requires_grad", "expected boolean, got string"}});
  }

  TEST_CASE("stack.json and construct.json variants") {
    expect("stack", parse(R"({"0": [["Functional.relu.0.forward", "Module.fc.Linear.forward.0"], ["File a.py, line 1, in f, \n x"]]})"), {});
    expect("stack", parse(R"({"Functional.relu.0.forward": ["File a.py, line 1, in f, \n x"]})"), {});
    expect("stack", parse("{}"), {});
    expect("stack", parse(R"({"0": [["Functional.relu.0.backward"], []]})"),
           {{"/0/0/0", "\"Functional.relu.0.backward\" does not match the pattern"}});
    expect("stack", parse(R"({"0": [["Functional.relu.0.forward"]]})"), {{"/0", "expected at least 2 items, got 1"}});
    expect("stack", parse(R"({"0": [["Functional.relu.0.forward"], [1]]})"), {{"/0/1/0", "expected string, got integer"}});
    expect("construct", parse(R"({"Functional.relu.0.forward": "Module.act.ReLU.forward.0", "Module.act.ReLU.forward.0": null,
                                  "Functional.add.0.forward": "", "optimizer": null, "Tensor.add_.0.forward": "optimizer"})"), {});
    expect("construct", parse(R"({"Functional.relu.0.forward": ["Module.act.ReLU.forward.0", 0],
                                  "Module.act.ReLU.forward.0": [null, 1], "megatron_micro_step_number": 2})"), {});
    expect("construct", parse(R"({"Functional.relu.0.forward": 5})"), {{"/Functional.relu.0.forward", "expected null or string, got integer"}});
    expect("construct", parse(R"({"Functional.relu.0.forward": "not a name"})"),
           {{"/Functional.relu.0.forward", "\"not a name\" does not match the pattern"}});
    expect("construct", parse(R"({"Functional.relu.0.forward": [null, -1], "megatron_micro_step_number": 2})"),
           {{"/Functional.relu.0.forward/1", "-1 is less than the minimum 0"}});
    expect("construct", parse(R"({"Functional.relu.0.forward": null, "megatron_micro_step_number": 2})"),
           {{"/Functional.relu.0.forward", "expected array, got null"}});
  }

  TEST_CASE("trace lines: header and events") {
    expect("trace", parse(R"({"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0, "level": "mix"})"), {});
    expect("trace", parse(R"({"format": "msdump-trace", "version": 2, "framework": "pytorch"})"), {{"/version", "expected 1, got 2"}});
    expect("trace", parse(R"({"format": "other", "version": 1, "framework": "pytorch"})"),
           {{"/format", "expected \"msdump-trace\", got \"other\""}});
    const char* leaf = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "requires_grad": false, "source": {"file": "t/0.pt"}})";
    const std::string event = std::string(R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [)") + leaf + "]}";
    expect("trace", parse(event), {});
    expect("trace", parse(replace_all(event, "t/0.pt", "../x.pt")),
           {{"/input_args/0/source/file", "\"../x.pt\" must not match the schema at"}});
    expect("trace", parse(replace_all(event, "[2]", "[-1]")), {{"/input_args/0/shape/0", "-1 is less than the minimum 0"}});
    expect("trace", parse(replace_all(event, R"("source": {"file": "t/0.pt"})", R"("source": null)")), {});
    expect("trace", parse(replace_all(event, R"(, "source": {"file": "t/0.pt"})", "")),
           {{"/input_args/0", "missing required property \"source\""}});
    expect("trace", parse(R"({"kind": "stack", "name": "Functional.relu.0.forward", "frames": "x"})"), {{"/frames", "expected array, got string"}});
    expect("trace", parse(R"({"kind": "construct", "name": "Functional.relu.0.forward", "parent": null, "micro_step": 1})"), {});
    expect("trace", parse(R"({"kind": "frobnicate"})"), {});  // unknown kinds: a warning of the reader
    expect("trace", parse(std::string(R"({"kind": "data", "name": "Module.fc.Linear.parameters_grad.0", "weight": [)") + leaf + "]}"), {});
  }
}
