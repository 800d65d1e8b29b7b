#include "anomalies/origin_tracker.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::anomalies;

namespace {

LeafNote note(const std::string& entry, const std::string& where, NonFinite v, bool tensor = true) {
  LeafNote n;
  n.pointer = "/data/" + entry + where;
  n.values = v;
  n.is_tensor = tensor;
  return n;
}

const NonFinite k_nan{true, false, false};
const NonFinite k_ninf{false, false, true};

// An entry: non-finite tensor input?, non-finite argument?, non-finite output?
EntryScan entry(const std::string& name, bool in, bool arg, bool out) {
  EntryScan e;
  e.name = name;
  e.direction = direction_of(name);
  if (in) e.tensor_input = note(name, "/input_args/0", k_nan);
  if (arg) e.argument = note(name, "/input_args/1", k_ninf, false);
  if (out) e.outputs.push_back(note(name, "/output/0", in ? k_nan : k_ninf));
  return e;
}

DumpAnalysis run(const std::vector<EntryScan>& entries) {
  OriginTracker t;
  for (const auto& e : entries) t.add(e);
  return t.finish();
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("an origin and the entries downstream of it") {
    auto a = run({entry("Torch.exp.0.forward", false, false, false), entry("Torch.log.0.forward", false, false, true),
                  entry("Torch.mul.0.forward", true, false, true), entry("Torch.sum.0.forward", true, false, true),
                  entry("Torch.nan_to_num.0.forward", true, false, false)});
    CHECK(a.entries == 5);
    CHECK(a.origins == 1);
    CHECK(a.carrying == 3);
    REQUIRE(a.anomalies.size() == 1);
    CHECK(a.anomalies[0].entry == "Torch.log.0.forward");
    CHECK(a.anomalies[0].role == Role::origin);
    CHECK(a.anomalies[0].downstream == 2);
    CHECK(a.anomalies[0].entry_index == 1);
    CHECK(a.anomalies[0].pointer == "/data/Torch.log.0.forward/output/0");
    CHECK(a.anomalies[0].message == "/output/0 holds non-finite values (Max/Min say -Inf) while every input is finite");
    CHECK(a.first_origin == 0u);
    CHECK_FALSE(a.first_backward_origin);
  }

  TEST_CASE("a non-finite non-tensor argument is not an origin; what follows it is counted against it") {
    auto a = run({entry("Tensor.masked_fill.0.forward", false, true, true), entry("Torch.add.0.forward", true, false, true)});
    CHECK(a.origins == 0);
    REQUIRE(a.anomalies.size() == 1);
    CHECK(a.anomalies[0].role == Role::argument);
    CHECK(severity_of(a.anomalies[0].role) == Severity::info);
    CHECK(a.anomalies[0].pointer == "/data/Tensor.masked_fill.0.forward/input_args/1");
    CHECK(a.anomalies[0].downstream == 1);
    CHECK_FALSE(a.first_origin);
  }

  TEST_CASE("forward and backward chains are separate; parameters_grad follows the backward chain") {
    auto a = run({entry("Torch.div.0.forward", false, false, true), entry("Torch.div.0.backward", false, false, true),
                  entry("Torch.add.0.backward", true, false, true), entry("Module.fc.Linear.parameters_grad.0", false, false, true)});
    CHECK(a.origins == 2);
    REQUIRE(a.anomalies.size() == 2);
    CHECK(a.first_origin == 0u);
    CHECK(a.first_backward_origin == 1u);
    CHECK(a.anomalies[1].entry == "Torch.div.0.backward");
    CHECK(a.anomalies[1].downstream == 2);  // add.backward and the parameter's grad

    auto g = run({entry("Module.fc.Linear.parameters_grad.0", false, false, true)});
    CHECK(g.origins == 1);
    CHECK(g.first_backward_origin == 0u);
  }

  TEST_CASE("non-finite inputs with no origin before them: one propagated warning for the chain") {
    auto a = run({entry("Torch.mul.0.forward", true, false, true), entry("Torch.add.0.forward", true, false, true)});
    CHECK(a.origins == 0);
    REQUIRE(a.anomalies.size() == 1);
    CHECK(a.anomalies[0].role == Role::propagated);
    CHECK(severity_of(Role::propagated) == Severity::warning);
    CHECK(a.anomalies[0].downstream == 1);
    CHECK(a.count(Severity::warning) == 1);
  }

  TEST_CASE("a second origin after finite inputs starts its own count") {
    auto a = run({entry("Torch.log.0.forward", false, false, true), entry("Torch.mul.0.forward", true, false, true),
                  entry("Torch.div.0.forward", false, false, true), entry("Torch.mul.1.forward", true, false, true),
                  entry("Torch.mul.2.forward", true, false, true)});
    REQUIRE(a.anomalies.size() == 2);
    CHECK(a.anomalies[0].downstream == 1);
    CHECK(a.anomalies[1].downstream == 2);
  }

  TEST_CASE("stat overflow and overflow risk are warnings with their own messages") {
    EntryScan e;
    e.name = "Torch.mul.0.forward";
    LeafNote s = note(e.name, "/output/0", NonFinite{false, true, false});
    s.statistic = "Norm";
    e.stat_overflows.push_back(s);
    LeafNote r = note(e.name, "/output/0", {});
    r.dtype = DType::float16;
    r.max_abs = 65504.0;
    e.overflow_risks.push_back(r);
    auto a = run({e});
    REQUIRE(a.anomalies.size() == 2);
    CHECK(a.anomalies[0].role == Role::stat_overflow);
    CHECK(a.anomalies[0].message == "Norm is inf while Max and Min are finite: the statistic overflowed, the tensor is finite");
    CHECK(a.anomalies[1].role == Role::overflow_risk);
    CHECK(a.anomalies[1].message == "largest magnitude 65504 is 100% of float16's limit 65504");
    CHECK(a.count(Severity::warning) == 2);
    CHECK(a.origins == 0);
  }
}
