#include "dump/format_signals.h"

#include <doctest/doctest.h>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::dump;

namespace {

pyjson::Value json(const std::string& text) {
  auto v = pyjson::parse_json(text);
  REQUIRE(v);
  return std::move(*v);
}

std::uint32_t leaf(const std::string& dtype, const std::string& shape, const std::string& stats,
                   Framework fw = Framework::pytorch) {
  return leaf_signals(json(R"({"type": "torch.Tensor", "dtype": ")" + dtype + R"(", "shape": )" + shape + ", " + stats +
                           R"(, "requires_grad": false})"),
                      fw);
}

}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("entry signals: is_recompute and the parameters_grad form") {
    const auto fwd = json(R"({"input_args": [], "is_recompute": false, "output": []})");
    const auto plain = json(R"({"input_args": [], "output": []})");
    CHECK(entry_signals(parse_entry_name("Functional.relu.0.forward"), fwd, Framework::pytorch) == signal_is_recompute);
    CHECK(entry_signals(parse_entry_name("Module.fc.Linear.forward.0"), plain, Framework::pytorch) ==
          signal_no_is_recompute);
    // MindSpore and backward entries never carry is_recompute: no signal either way.
    CHECK(entry_signals(parse_entry_name("Cell.fc.Dense.forward.0"), plain, Framework::mindspore) == 0);
    CHECK(entry_signals(parse_entry_name("Functional.relu.0.backward"), plain, Framework::pytorch) == 0);
    const auto grads = json(R"({"weight": [null]})");
    CHECK(entry_signals(parse_entry_name("Module.fc.Linear.parameters_grad"), grads, Framework::pytorch) ==
          signal_unnumbered_grad);
    CHECK(entry_signals(parse_entry_name("Cell.fc.Dense.parameters_grad.3"), grads, Framework::mindspore) ==
          signal_numbered_grad);
  }
  TEST_CASE("leaf signals: how integer, float64 and float8 statistics were computed") {
    const std::string legacy = R"("Max": 967.0, "Min": 19.0, "Mean": 476.0625, "Norm": 3174.033447265625)";
    const std::string current = R"("Max": 967, "Min": 19, "Mean": null, "Norm": null)";
    CHECK(leaf("torch.int64", "[16]", legacy) == signal_float_int_stats);
    CHECK(leaf("torch.int64", "[16]", current) == signal_native_int_stats);
    CHECK(leaf("torch.float64", "[2, 3]", R"("Max": 1.5, "Min": 0.25, "Mean": null, "Norm": null)") ==
          signal_native_int_stats);
    CHECK(leaf("torch.uint8", "[4]", legacy) == signal_float_int_stats);
    // A leaf of neither form signals the nearest: an integer tensor's Max token decides.
    CHECK(leaf("torch.int64", "[16]", R"("Max": 967, "Min": 19, "Mean": 3.0, "Norm": null)") == signal_native_int_stats);
    CHECK(leaf("torch.int64", "[16]", R"("Max": 967.0, "Min": 19.0, "Mean": null, "Norm": null)") ==
          signal_float_int_stats);
    CHECK(leaf("torch.float64", "[2]", R"("Max": 1.5, "Min": 0.25, "Mean": 0.75, "Norm": null)") ==
          signal_float_int_stats);
    CHECK(leaf("torch.float8_e4m3fn", "[4]", R"("Max": 1.0, "Min": 0.5, "Mean": 0.75, "Norm": 1.5)") ==
          signal_float8_stats);
    // No signal: float32, 0-dim and empty tensors, bool, all-null (fake tensors), MindSpore.
    CHECK(leaf("torch.float32", "[16]", legacy) == 0);
    CHECK(leaf("torch.int64", "[]", R"("Max": 3, "Min": 3, "Mean": 3, "Norm": 3)") == 0);
    CHECK(leaf("torch.int64", "[0, 4]", R"("Max": null, "Min": null, "Mean": null, "Norm": null)") == 0);
    CHECK(leaf("torch.int64", "[4]", R"("Max": null, "Min": null, "Mean": null, "Norm": null)") == 0);
    CHECK(leaf("torch.float8_e4m3fn", "[4]", R"("Max": null, "Min": null, "Mean": null, "Norm": null)") == 0);
    CHECK(leaf("torch.bool", "[4]", R"("Max": true, "Min": false, "Mean": null, "Norm": null)") == 0);
    CHECK(leaf("Int64", "[16]", legacy, Framework::mindspore) == 0);
  }
  TEST_CASE("the summary mode of a leaf comes from its keys") {
    CHECK(summary_mode_of_leaf(json(R"({"type": "torch.Tensor", "Max": 1.0, "md5": "0a1b2c3d"})")) == SummaryMode::md5);
    CHECK(summary_mode_of_leaf(json(R"({"type": "torch.Tensor", "md5": "0x0000000000000001"})")) ==
          SummaryMode::xor_checksum);
    CHECK(summary_mode_of_leaf(json(R"({"type": "torch.Tensor", "Max": 1.0})")) == SummaryMode::statistics);
    CHECK_FALSE(summary_mode_of_leaf(json(R"({"type": "torch.Tensor", "dtype": "torch.float32"})")));
    // A key value that merely contains the words is not a key.
    CHECK(summary_mode_of_leaf(json(R"({"type": "torch.Tensor", "Max": 1.0, "data_name": "\"md5\".pt"})")) ==
          SummaryMode::statistics);
  }
  TEST_CASE("evidence: verdict, conflict and the first entry of each signal") {
    ProfileEvidence e;
    CHECK_FALSE(e.verdict());
    e.note(signal_numbered_grad, "Module.fc.Linear.parameters_grad.0", 2);
    CHECK_FALSE(e.verdict());  // both generations name grads so
    e.note(signal_no_is_recompute, "Module.fc.Linear.forward.0", 3);
    CHECK(e.verdict() == Profile::current);  // only weakly: no legacy build that writes is_recompute
    CHECK_FALSE(e.conflict());
    e.note(signal_native_int_stats, "Functional.cross_entropy.0.forward", 40);
    e.note(signal_native_int_stats, "Functional.cross_entropy.1.forward", 90);
    CHECK(e.verdict() == Profile::current);
    CHECK_FALSE(e.conflict());
    e.note(signal_is_recompute | signal_float_int_stats, "Functional.embedding.0.forward", 120);
    CHECK(e.conflict());
    CHECK(e.verdict() == Profile::current);  // two entries against one
    CHECK(e.seen(signal_native_int_stats).entries == 2);
    CHECK(e.seen(signal_native_int_stats).first == "Functional.cross_entropy.0.forward");
    CHECK(e.seen(signal_native_int_stats).line == 40);
    CHECK(e.summary(k_legacy_signals) ==
          "is_recompute in a forward entry (1 entry, first Functional.embedding.0.forward, line 120); integer or "
          "float64 statistics computed in float32 (1 entry, first Functional.embedding.0.forward, line 120)");
    ProfileEvidence weak;
    weak.note(signal_no_is_recompute, "Functional.relu.0.forward", 3);
    weak.note(signal_unnumbered_grad, "Module.fc.Linear.parameters_grad", 9);  // 8.x: no is_recompute either
    CHECK(weak.verdict() == Profile::legacy);
    CHECK_FALSE(weak.conflict());
    ProfileEvidence tie;
    tie.note(signal_unnumbered_grad, "Module.fc.Linear.parameters_grad", 5);
    tie.note(signal_native_int_stats, "Functional.cross_entropy.0.forward", 9);
    CHECK(tie.verdict() == Profile::legacy);
  }
}
