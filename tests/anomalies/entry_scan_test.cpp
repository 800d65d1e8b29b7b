#include "anomalies/entry_scan.h"

#include <doctest/doctest.h>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

EntryScan scan(const std::string& name, const std::string& json, double fraction = 1.0) {
  ScanOptions o;
  o.overflow_fraction = fraction;
  return scan_entry(name, *pyjson::parse_json(json), o);
}

std::string t(const std::string& max, const std::string& min) {
  return R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": )" + max + ", \"Min\": " + min +
         R"(, "Mean": 0.0, "Norm": 1.0})";
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("directions from entry names") {
    CHECK(direction_of("Functional.log.0.forward") == Direction::forward);
    CHECK(direction_of("Module.fc.Linear.forward.0") == Direction::forward);
    CHECK(direction_of("Torch.div.3.backward") == Direction::backward);
    CHECK(direction_of("Module.fc.Linear.parameters_grad.0") == Direction::parameters_grad);
    CHECK(direction_of("something") == Direction::other);
  }

  TEST_CASE("forward entry: inputs and outputs by section, pointers to the leaves") {
    auto e = scan("Torch.log.0.forward",
                  "{\"input_args\": [" + t("1.0", "0.0") + "], \"input_kwargs\": {}, \"output\": [" +
                      t("0.0", "-Infinity") + ", " + t("NaN", "NaN") + "]}");
    CHECK_FALSE(e.tensor_input);
    CHECK_FALSE(e.argument);
    REQUIRE(e.outputs.size() == 2);
    CHECK(e.outputs[0].pointer == "/data/Torch.log.0.forward/output/0");
    CHECK(kind_name(e.outputs[0].values) == "-inf");
    CHECK(e.outputs[1].pointer == "/data/Torch.log.0.forward/output/1");
    CHECK(kind_name(e.outputs[1].values) == "nan");
  }

  TEST_CASE("non-tensor arguments, parameters and kwargs are inputs") {
    auto e = scan("Tensor.masked_fill.0.forward",
                  "{\"input_args\": [" + t("1.0", "0.0") + ", {\"type\": \"float\", \"value\": -Infinity}], "
                  "\"input_kwargs\": {}, \"output\": [" + t("1.0", "-Infinity") + "]}");
    REQUIRE(e.argument);
    CHECK(e.argument->pointer == "/data/Tensor.masked_fill.0.forward/input_args/1");
    CHECK_FALSE(e.argument->is_tensor);
    CHECK_FALSE(e.tensor_input);
    auto p = scan("Module.fc.Linear.forward.0", "{\"input_args\": [], \"input_kwargs\": {\"x\": " + t("1.0", "0.0") +
                                                 "}, \"output\": [], \"parameters\": {\"weight\": " + t("NaN", "NaN") + "}}");
    REQUIRE(p.tensor_input);
    CHECK(p.tensor_input->pointer == "/data/Module.fc.Linear.forward.0/parameters/weight");
  }

  TEST_CASE("backward: input is the incoming gradient; parameters_grad values are outputs") {
    auto b = scan("Torch.sqrt.0.backward", "{\"input\": [" + t("1.0", "1.0") + "], \"output\": [" + t("Infinity", "0.5") + "]}");
    CHECK_FALSE(b.tensor_input);
    REQUIRE(b.outputs.size() == 1);
    CHECK(kind_name(b.outputs[0].values) == "inf");
    auto g = scan("Module.fc.Linear.parameters_grad.0", "{\"weight\": [" + t("NaN", "NaN") + "], \"bias\": [" + t("1.0", "0.0") + "]}");
    REQUIRE(g.outputs.size() == 1);
    CHECK(g.outputs[0].pointer == "/data/Module.fc.Linear.parameters_grad.0/weight/0");
  }

  TEST_CASE("output warnings: statistic overflow and float16 overflow risk, with a fraction") {
    const std::string half = R"({"type": "torch.Tensor", "dtype": "torch.float16", "shape": [4], "Max": 65504.0, "Min": 1.0, "Mean": 30000.0, "Norm": Infinity})";
    auto e = scan("Torch.mul.0.forward", "{\"input_args\": [], \"input_kwargs\": {}, \"output\": [" + half + "]}");
    CHECK(e.outputs.empty());
    REQUIRE(e.stat_overflows.size() == 1);
    CHECK(e.stat_overflows[0].statistic == "Norm");
    REQUIRE(e.overflow_risks.size() == 1);
    CHECK(e.overflow_risks[0].max_abs == 65504.0);
    const std::string lower = R"({"type": "torch.Tensor", "dtype": "torch.float16", "shape": [4], "Max": 40000.0, "Min": 1.0, "Mean": 3.0, "Norm": 9.0})";
    CHECK(scan("A.b.0.forward", "{\"output\": [" + lower + "]}").overflow_risks.empty());
    CHECK(scan("A.b.0.forward", "{\"output\": [" + lower + "]}", 0.5).overflow_risks.size() == 1);
    // Inputs are judged where they were produced: no warnings for them.
    CHECK(scan("A.b.0.forward", "{\"input_args\": [" + half + "], \"output\": []}").stat_overflows.empty());
  }
}
