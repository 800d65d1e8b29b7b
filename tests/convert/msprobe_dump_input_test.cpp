#include "convert/msprobe_dump_input.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::convert;

namespace {

DumpForm form_of(const std::string& data, const std::string& framework = "pytorch") {
  const std::string text = R"({"task": "statistics", "level": "mix", "framework": ")" + framework +
                           R"(", "dump_data_dir": null, "data": {)" + data + "}}";
  const MemorySource src(std::as_bytes(std::span(text.data(), text.size())));
  return detect_form(src);
}

const std::string k_f32 = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.5, "Mean": 0.75, "Norm": 1.25, "requires_grad": false)";

}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("detect_form: the profile of the first entry with a form of one generation only") {
    CHECK_FALSE(form_of("").profile);
    CHECK_FALSE(form_of(R"("Functional.relu.0.backward": {"input": [], "output": []})").profile);
    CHECK(form_of(R"("Functional.relu.0.backward": {"input": [], "output": []},
                     "Functional.relu.0.forward": {"input_args": [], "is_recompute": false, "output": []})")
              .profile == Profile::legacy);
    CHECK(form_of(R"("Module.fc.Linear.parameters_grad": {"weight": [)" + k_f32 + "}]}").profile == Profile::legacy);
    CHECK(form_of(R"("Cell.fc.Dense.parameters_grad": {"weight": [null]})", "mindspore").profile == Profile::legacy);
    CHECK(form_of(R"("Torch.argmax.0.forward": {"input_args": [], "output": [{"type": "torch.Tensor", "dtype": "torch.int64",
                     "shape": [4], "Max": 9, "Min": 0, "Mean": null, "Norm": null, "requires_grad": false}]})")
              .profile == Profile::current);
    // Truncated before any signal: undetermined, not current.
    CHECK_FALSE(form_of(R"("Functional.relu.0.backward": {"input": [)").profile);
  }
  TEST_CASE("detect_form: the summary mode comes from the first tensor leaf's keys, not from text") {
    CHECK(form_of("").summary_mode == SummaryMode::statistics);
    const std::string word = R"("Functional.hash.0.forward": {"input_args": [)" + k_f32 +
                             R"(}], "input_kwargs": {"algorithm": {"type": "str", "value": "md5"}}, "output": []})";
    CHECK(form_of(word).summary_mode == SummaryMode::statistics);
    CHECK(form_of(R"("Functional.relu.0.forward": {"input_args": [)" + k_f32 + R"(, "md5": "0a1b2c3d"}], "output": []})")
              .summary_mode == SummaryMode::md5);
    CHECK(form_of(R"("Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32",
                     "shape": [2], "md5": "0x0000000000000001", "requires_grad": false}], "output": []})")
              .summary_mode == SummaryMode::xor_checksum);
  }
}
