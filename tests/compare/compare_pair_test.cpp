#include "compare/compare_pair.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include <fmt/format.h>

#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

// Where a generated bench dump departs from its NPU dump: an input statistic of a forward call
// (a difference, no verdict), and the output norms of a forward and of a backward call (error
// rows whose inputs pass: divergences, and -da's 50 % rule). -1: nowhere.
struct Departures {
  int forward_input = -1, forward_output = -1, backward_output = -1;
};

std::string leaf(double max, double norm) {
  return fmt::format(R"({{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 4], "Max": {:.1f}, )"
                     R"("Min": -1.5, "Mean": 0.25, "Norm": {:.1f}, "requires_grad": false}})",
                     max, norm);
}

std::string call(const std::string& name, double input_max, double output_norm) {
  return fmt::format(R"("{}": {{"input_args": [{}], "input_kwargs": {{}}, "output": [{}]}})", name, leaf(input_max, 4.0),
                     leaf(2.0, output_norm));
}

// msprobe's dump.json of `calls` Functional.relu calls, each forward followed by its backward:
// twice as many entries as one of pass 2's chunks holds at most, so its threads share them.
std::string relu_dump(int calls, const Departures& d) {
  std::string data;
  for (int i = 0; i < calls; ++i) {
    if (i > 0) data += ", ";
    data += call(fmt::format("Functional.relu.{}.forward", i), i == d.forward_input ? 1.5 : 1.0,
                 i == d.forward_output ? 40.0 : 4.0);
    data += ", ";
    data += call(fmt::format("Functional.relu.{}.backward", i), 1.0, i == d.backward_output ? 40.0 : 4.0);
  }
  return R"({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {)" + data + "}}";
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string entry_of(const std::optional<Locator>& l) { return l ? l->entry : std::string("(none)"); }

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("compare_pair (threaded): the answers do not depend on the threads of pass 2") {
    constexpr int k_calls = 600;
    struct Scenario {
      Departures departures;
      std::string difference, divergence, diff_analyze;
    };
    // Forward entries come first in execution order, backward ones after; -da goes in dump
    // order, where relu.100's backward comes before relu.300's forward.
    const Scenario scenarios[] = {
        {{300, 450, 100}, "Functional.relu.300.forward", "Functional.relu.450.forward", "Functional.relu.100.backward"},
        {{-1, -1, 100}, "Functional.relu.100.backward", "Functional.relu.100.backward", "Functional.relu.100.backward"},
        {{-1, 0, -1}, "Functional.relu.0.forward", "Functional.relu.0.forward", "Functional.relu.0.forward"},
        {{}, "(none)", "(none)", "(none)"},
    };
    msdump::testing::TempDir dir;
    const auto npu = dir / "npu/dump.json";
    write(npu, relu_dump(k_calls, {}));
    for (const auto& s : scenarios) {
      const auto bench = dir / "bench/dump.json";
      write(bench, relu_dump(k_calls, s.departures));
      const PairSpec spec{npu.string(), bench.string(), (dir / "out").string(), "compare_result", "20260101000000"};
      std::optional<PairResult> one_thread;
      for (const int threads : {1, 2, 3, 4}) {
        CompareOptions o;
        o.threads = threads;
        o.write_tables = false;
        auto r = compare_pair(spec, o);
        REQUIRE(r);
        CAPTURE(threads);
        CAPTURE(s.difference);
        CHECK(r->rows == 4 * k_calls);
        CHECK(r->problems.empty());
        CHECK(entry_of(r->answer.first_difference) == s.difference);
        CHECK(entry_of(r->answer.first_divergence) == s.divergence);
        CHECK(r->answer.diff_analyze.value_or("(none)") == s.diff_analyze);
        if (!one_thread) {
          one_thread = std::move(*r);
          continue;
        }
        CHECK(r->pass == one_thread->pass);
        CHECK(r->errors == one_thread->errors);
        CHECK(r->warnings == one_thread->warnings);
        if (r->answer.first_difference && one_thread->answer.first_difference) {
          CHECK(r->answer.first_difference->row == one_thread->answer.first_difference->row);
          CHECK(r->answer.first_difference->message == one_thread->answer.first_difference->message);
        }
      }
    }
  }
}
