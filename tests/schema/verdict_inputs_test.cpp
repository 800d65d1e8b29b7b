// MemberNameKey and NumberClasses: the constants each schema's numbers are placed among, the
// cases that turn them off, and the claim itself on every embedded dump schema: names with the
// same key get the same verdict as {name: entry} for every entry tried, and numbers of the same
// class the same verdict wherever they stand.

#include "schema/verdict_inputs.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <random>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "schema/embedded_schemas.h"
#include "schema/schema_choice.h"
#include "schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;
using msdump::schema::testing::parse;
using pyjson::Value;

namespace {

CompiledSchema compiled(std::string_view text, std::string_view pointer = "") {
  auto s = CompiledSchema::compile(parse(text), pointer);
  REQUIRE_MESSAGE(s, (s ? std::string() : s.error().message));
  return std::move(*s);
}

CompiledSchema embedded_entry(std::string_view name) {
  auto text = embedded_schema(name);
  REQUIRE(text);
  return compiled(*text, k_entry_pointer);
}

constexpr std::string_view k_dump_schemas[] = {"dump-pytorch-current", "dump-pytorch-legacy", "dump-mindspore",
                                               "dump-mindtorch"};

Value wrap(const std::string& name, const Value& v) {
  Value w = Value::object();
  w.add(name, v);
  return w;
}

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("number classes: the constants of the dump schemas, positions, kinds") {
    for (auto name : k_dump_schemas) {
      CAPTURE(name);
      const auto c = NumberClasses::of(embedded_entry(name));
      REQUIRE(c);
      CHECK(c->points().front() == 0.0);  // 0 always (shape minimum, and callers' own test)
    }
    const auto c = NumberClasses::of(embedded_entry("dump-pytorch-current"));
    REQUIRE(c);
    CHECK(c->points() == std::vector<double>{0.0, 1.0});  // shape minimum 0, is_nan enum [0, 1, null]
    auto pos = [&](const Value& v) { return c->class_of(v).position; };
    CHECK(pos(Value::integer(-5)) == 0);
    CHECK(pos(Value::integer(0)) == 1);
    CHECK(pos(Value::floating(-0.0)) == 1);
    CHECK(pos(Value::floating(0.5)) == 2);
    CHECK(pos(Value::integer(1)) == 3);
    CHECK(pos(Value::floating(1.0)) == 3);
    CHECK(pos(Value::floating(7.5)) == 4);
    CHECK(pos(Value::big_integer("-99999999999999999999")) == 0);
    CHECK(pos(Value::big_integer("99999999999999999999")) == 4);
    CHECK(pos(Value::floating(std::numeric_limits<double>::quiet_NaN())) == 0xFF);
    CHECK(c->class_of(Value::integer(1)).kind == 0);
    CHECK(c->class_of(Value::floating(1)).kind == 1);
    CHECK(c->class_of(Value::big_integer("99999999999999999999")).kind == 2);
  }

  TEST_CASE("number classes: bounds and enum members of a schema; what turns them off") {
    const auto c = NumberClasses::of(compiled(
        R"({"properties": {"a": {"minimum": 0.5}, "b": {"exclusiveMaximum": -2}, "c": {"enum": [3, null, true, "s"]}}})"));
    REQUIRE(c);
    CHECK(c->points() == std::vector<double>{-2.0, 0.0, 0.5, 3.0});
    CHECK(!NumberClasses::of(compiled(R"({"enum": [[1]]})")));
    CHECK(!NumberClasses::of(compiled(R"({"maximum": 1e300})")));
    CHECK(!NumberClasses::of(compiled(R"({"const": 99999999999999999999})")));
  }

  TEST_CASE("member name key: off for object-level enum / const, on for the dump schemas") {
    CHECK(!MemberNameKey::of(compiled(R"({"enum": [{"a": 1}]})")));
    CHECK(!MemberNameKey::of(compiled(R"({"allOf": [{"const": {"a": 1}}]})")));
    CHECK(MemberNameKey::of(compiled(R"({"items": {"enum": [1]}})")));  // (an array's items: not the object)
    for (auto name : k_dump_schemas) CHECK(MemberNameKey::of(embedded_entry(name)));
  }

  // The claim: same key, same verdict, for every entry value tried; and the key tells the
  // entry kinds apart (else the claim would hold by every key being different).
  TEST_CASE("member name key: names with one key get one verdict (every dump schema)") {
    const std::vector<std::string> names = {
        "Functional.relu.0.forward", "Functional.relu.12.forward", "Torch.add.3.backward", "Tensor.__add__.0.backward",
        "Module.fc.Linear.forward.0", "Module.layer1.0.conv1.Conv2d.forward.7", "Module.fc.Linear.backward.2",
        "Module.fc.Linear.parameters_grad", "Module.fc.Linear.parameters_grad.3", "Cell.fc.Dense.forward.0",
        "Cell.fc.Dense.backward.1", "Cell.fc.Dense.parameters_grad", "Jit.f.0.forward", "Primitive.add.1.forward",
        "relu.0.forward", "not a name", "Functional.relu.x.forward", "Module.fc.forward.0", "", "Functional.relu.0"};
    const std::vector<std::string> values = {
        R"({"input_args": [], "input_kwargs": {}, "output": []})",
        R"({"input": [], "output": []})",
        R"({"input_args": [], "output": [], "parameters": {}})",
        R"({"weight": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "Max": 1.0, "Min": 1.0, "Mean": 1.0, "Norm": 1.0, "requires_grad": false}})",
        R"({"input_args": [], "is_recompute": false})",
        R"({})",
        R"([])",
        R"({"output": [null]})"};
    for (auto schema_name : k_dump_schemas) {
      CAPTURE(schema_name);
      const CompiledSchema schema = embedded_entry(schema_name);
      const auto key = MemberNameKey::of(schema);
      REQUIRE(key);
      std::vector<std::string> keys;
      for (const auto& n : names) {
        std::string k;
        key->append(n, k);
        keys.push_back(k);
      }
      CHECK(keys[0] == keys[1]);  // only the counter differs
      CHECK(keys[0] != keys[2]);  // forward, backward
      CHECK((keys[4] != keys[6] || keys[9] != keys[10]));  // module forward, backward (Module or Cell)
      for (const auto& text : values) {
        const Value v = parse(text);
        for (std::size_t a = 0; a < names.size(); ++a)
          for (std::size_t b = a + 1; b < names.size(); ++b) {
            if (keys[a] != keys[b]) continue;
            CAPTURE(names[a]);
            CAPTURE(names[b]);
            CAPTURE(text);
            CHECK(schema.is_valid(wrap(names[a], v)) == schema.is_valid(wrap(names[b], v)));
          }
      }
    }
  }

  // Numbers of one class, put in every number's place of real-shaped entries, draw one verdict.
  TEST_CASE("number classes: numbers of one class get one verdict (every dump schema)") {
    const std::string entry =
        R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 3], "Max": 1.5, )"
        R"("Min": -1.0, "Mean": 0.25, "Norm": 2.0, "requires_grad": false}, {"type": "int", "value": 3}], )"
        R"("input_kwargs": {"dim": {"type": "int", "value": -1}}, "output": [{"type": "float", "value": 0.5}], "is_nan": 0})";
    const std::vector<Value> numbers = {
        Value::integer(-3),       Value::integer(-1),          Value::integer(0),       Value::integer(1),
        Value::integer(2),        Value::integer(5),           Value::floating(-2.5),   Value::floating(-0.0),
        Value::floating(0.0),     Value::floating(0.25),       Value::floating(1.0),    Value::floating(3.5),
        Value::floating(1e-300),  Value::big_integer("99999999999999999999"), Value::big_integer("-99999999999999999999"),
        Value::floating(std::numeric_limits<double>::quiet_NaN()), Value::floating(std::numeric_limits<double>::infinity())};
    std::mt19937_64 rng(7);
    for (auto schema_name : k_dump_schemas) {
      CAPTURE(schema_name);
      const CompiledSchema schema = embedded_entry(schema_name);
      const auto classes = NumberClasses::of(schema);
      REQUIRE(classes);
      for (int round = 0; round < 400; ++round) {
        Value a = parse(entry), b = parse(entry);
        std::vector<Value*> na, nb;
        auto collect = [](auto& self, Value& v, std::vector<Value*>& out) -> void {
          if (v.is_number() || v.kind() == pyjson::Kind::big_integer) out.push_back(&v);
          else if (v.is_array())
            for (auto& i : v.as_array()) self(self, i, out);
          else if (v.is_object())
            for (auto& m : v.as_object()) self(self, m.value, out);
        };
        collect(collect, a, na);
        collect(collect, b, nb);
        REQUIRE(na.size() == nb.size());
        for (std::size_t i = 0; i < na.size(); ++i) {
          *na[i] = numbers[rng() % numbers.size()];
          // b: another number of a's class, if one is in the list
          std::vector<const Value*> same;
          for (const auto& n : numbers)
            if (classes->class_of(n) == classes->class_of(*na[i])) same.push_back(&n);
          *nb[i] = *same[rng() % same.size()];
        }
        const std::string name = "Functional.conv2d.0.forward";
        CHECK(schema.is_valid(wrap(name, a)) == schema.is_valid(wrap(name, b)));
      }
    }
  }
}
