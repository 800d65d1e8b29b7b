#include "anomalies/leaf_verdict.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {
pyjson::Value leaf(const std::string& json) { return *pyjson::parse_json(json); }
}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("non-finite kinds: nan, inf, -inf, mixed") {
    CHECK(kind_name(nonfinite_of(1.0)).empty());
    CHECK(kind_name(nonfinite_of(std::nan(""))) == "nan");
    CHECK(kind_name(nonfinite_of(INFINITY)) == "inf");
    CHECK(kind_name(nonfinite_of(-INFINITY)) == "-inf");
    NonFinite n = nonfinite_of(-INFINITY);
    n.merge(nonfinite_of(std::nan("")));
    CHECK(kind_name(n) == "mixed");
  }

  TEST_CASE("tensor statistics: Max / Min decide; Mean / Norm alone are a statistic overflow") {
    auto finite = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2],
        "Max": 3.0, "Min": -5.0, "Mean": -1.0, "Norm": 5.83})"));
    CHECK_FALSE(finite.values.any());
    CHECK_FALSE(finite.stat_overflow);
    CHECK(finite.has_stats);
    CHECK(finite.max_abs == 5.0);
    CHECK(finite.dtype == DType::float16);

    auto nan_max = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "Max": NaN, "Min": NaN, "Mean": NaN, "Norm": NaN})"));
    CHECK(kind_name(nan_max.values) == "nan");
    CHECK_FALSE(nan_max.stat_overflow);  // a non-finite tensor, not an overflow

    auto neg = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "Max": 1.0, "Min": -Infinity, "Mean": -Infinity, "Norm": Infinity})"));
    CHECK(kind_name(neg.values) == "-inf");

    auto both = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "Max": Infinity, "Min": -Infinity, "Mean": NaN, "Norm": Infinity})"));
    CHECK(kind_name(both.values) == "mixed");

    auto norm = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "dtype": "torch.float16", "Max": 300.0, "Min": 1.0, "Mean": 150.0, "Norm": Infinity})"));
    CHECK_FALSE(norm.values.any());
    CHECK(norm.stat_overflow);

    auto none = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "Max": null, "Min": null, "Mean": null, "Norm": null})"));
    CHECK_FALSE(none.has_stats);
    CHECK_FALSE(none.values.any());
    auto ints = judge_tensor_stats(leaf(R"({"type": "torch.Tensor", "dtype": "torch.int64", "Max": 7, "Min": -2, "Mean": 1.0, "Norm": 8.0})"));
    CHECK(ints.max_abs == 7.0);
  }

  TEST_CASE("value leaves: a non-finite float value, also inside a list") {
    CHECK(kind_name(judge_value_leaf(leaf(R"({"type": "float", "value": -Infinity})"))) == "-inf");
    CHECK(kind_name(judge_value_leaf(leaf(R"({"type": "float", "value": NaN})"))) == "nan");
    CHECK(kind_name(judge_value_leaf(leaf(R"({"type": "tuple", "value": [1.0, [Infinity]]})"))) == "inf");
    CHECK_FALSE(judge_value_leaf(leaf(R"({"type": "float", "value": 1e308})")).any());
    CHECK_FALSE(judge_value_leaf(leaf(R"({"type": "int", "value": 3})")).any());
    CHECK_FALSE(judge_value_leaf(leaf(R"({"type": "str", "value": "inf"})")).any());
  }

  TEST_CASE("overflow limits: float16 and bfloat16 only") {
    CHECK(overflow_limit(DType::float16) == 65504.0);
    CHECK(*overflow_limit(DType::bfloat16) == doctest::Approx(3.3895313892515355e38));
    CHECK_FALSE(overflow_limit(DType::float32));
    CHECK_FALSE(overflow_limit(DType::int32));
  }
}
