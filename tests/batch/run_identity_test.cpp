#include "batch/run_identity.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::batch;

namespace {
std::vector<WorkItem> list_of(std::initializer_list<const char*> keys) {
  std::vector<WorkItem> out;
  for (const char* k : keys) {
    WorkItem w;
    w.key = k;
    out.push_back(w);
  }
  return out;
}
}  // namespace

TEST_SUITE("msdump::batch") {
  TEST_CASE("the run identity: the whole work list, normalized, and the options") {
    const auto a = identify_run(list_of({"d/step0/rank0", "d/step0/rank1"}), "--no-tensors");
    CHECK(a.items == 2);
    CHECK(a.inputs.starts_with("fnv1a64:"));
    CHECK(a.inputs.size() == 8 + 16);
    CHECK(a.options == "--no-tensors");
    CHECK(identify_run(list_of({"d/./step0/rank0", "d/step0/rank1/"}), "--no-tensors") == a);
    CHECK(identify_run(list_of({"d/step0/rank0", "d/step0/rank2"}), "--no-tensors").inputs != a.inputs);
    CHECK(identify_run(list_of({"d/step0/rank0"}), "--no-tensors").inputs != a.inputs);
    // keys are separated, not concatenated
    CHECK(identify_run(list_of({"ab", "c"}), "").inputs != identify_run(list_of({"a", "bc"}), "").inputs);
    CHECK_FALSE(identify_run(list_of({"d/step0/rank0", "d/step0/rank1"}), "") == a);
  }
  TEST_CASE("verify's result-changing options, in a fixed order; how the work is done is not one") {
    verify::VerifyOptions o;
    o.threads = 8;
    o.path = "ignored";
    CHECK(result_options(o, true) == "");
    o.check_tensors = false;
    o.tolerance.rtol = 1e-3;
    o.warn_only = {verify::FindingKind::rank, verify::FindingKind::schema, verify::FindingKind::rank};
    o.against = "golden dir/dump.json";
    o.max_findings = 5;
    CHECK(result_options(o, false) == "--against 'golden dir/dump.json' --no-tensors --no-cross-rank --rtol 0.001 "
                                      "--warn-only rank --warn-only schema --max-findings 5");
  }
  TEST_CASE("convert's result-changing options include the output tree") {
    convert::ConvertOptions o;
    o.output = "out";
    o.threads = 4;
    o.overwrite = Overwrite::yes;
    CHECK(result_options(o) == "-o out");
    o.level = Level::L1;
    o.task = Task::tensor;
    o.scope = {"Module.a.0", "it's"};
    o.strict = true;
    CHECK(result_options(o) == "-o out --level L1 --task tensor --scope Module.a.0 'it'\\''s' --strict");
  }
}
