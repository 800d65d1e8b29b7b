#include "compare/compare_report.h"

#include <doctest/doctest.h>

#include <sstream>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

PairItem pair_item(std::optional<std::int64_t> step, std::optional<std::int64_t> rank, std::string npu,
                   std::string bench) {
  PairItem p;
  p.step = step;
  p.rank = rank;
  p.npu = std::move(npu);
  p.bench = std::move(bench);
  return p;
}

PairResult counts(std::uint64_t pass, std::uint64_t warnings, std::uint64_t errors, std::uint64_t unmatched) {
  PairResult r;
  r.rows = pass + warnings + errors;
  r.pass = pass;
  r.warnings = warnings;
  r.errors = errors;
  r.unmatched = unmatched;
  return r;
}

Locator conv_output(compare::Level level, std::string message, std::vector<std::string> chain = {}) {
  return {"Functional.conv2d.0.forward", "Functional.conv2d.0.forward.output.0", level, std::move(message),
          std::move(chain)};
}

// Adds a pair, with its batch report item (failed when `r` is nullopt).
void add(TreeResult& t, PairItem p, std::optional<PairResult> r, std::string failure = {}) {
  batch::ItemOutcome o;
  if (!r) {
    o.status = batch::ItemStatus::failed;
    o.message = std::move(failure);
  }
  t.report.items.push_back({batch::WorkItem{}, o});
  t.pairs.push_back(std::move(p));
  t.results.push_back(std::move(r));
}

// Two ranks of step 0 (the second could not be compared) and a dump on each side without a
// partner.
TreeResult tree_with_everything() {
  TreeResult t;
  auto r0 = counts(77, 1, 33, 0);
  r0.tables = {"out/compare_result_rank0_20260101000000.csv"};
  r0.bench_only = {"Torch.add.0.forward.output.0", "Torch.add.1.forward.output.0"};
  r0.problems.push_back({"n/step0/rank0/stack.json", "", "line 1, column 1: expected '{'"});
  for (int i = 1; i <= 10; ++i)
    r0.problems.push_back({"n/step0/rank0/dump_tensor_data/T." + std::to_string(i) + ".pt",
                           "Tensor.t." + std::to_string(i) + ".forward", "no such file"});
  const std::vector<std::string> chain{"Module.net.Net.forward.0", "Module.net.conv1.Conv2d.forward.0"};
  r0.answer.first_difference = conv_output(compare::Level::error, "Max 1.0 vs 2.0", chain);
  r0.answer.first_divergence = conv_output(compare::Level::error, "error: The dtype of NPU and Bench are inconsistent.");
  r0.answer.diff_analyze = "Functional.conv2d.0.forward";
  add(t, pair_item(0, 0, "n/step0/rank0/dump.json", "b/step0/rank0/dump.json"), r0);
  add(t, pair_item(0, 1, "n/step0/rank1/dump.json", "b/step0/rank1/dump.json"), std::nullopt,
      "'n/step0/rank1/dump.json': no 'task' key");
  t.unpaired.push_back({"npu", 0, 2, "n/step0/rank2/dump.json"});
  t.unpaired.push_back({"bench", 1, 0, "b/step1/rank0/dump.json"});
  t.first_difference = TreeLocator{0, 0, r0.answer.first_difference.value(), {0, 1}};
  return t;
}

// One clean file pair.
TreeResult clean_file_pair() {
  TreeResult t;
  auto r = counts(3, 0, 0, 0);
  r.tables = {"out/compare_result_20260101000000.csv"};
  add(t, pair_item(std::nullopt, std::nullopt, "n/dump.json", "b/dump.json"), r);
  return t;
}

std::string render(const TreeResult& t, report::ReportFormat format, bool strict = false) {
  std::ostringstream out;
  render_compare_report(t, {"n", "b", "out", strict}, format, out);
  return out.str();
}

std::vector<std::string> keys(const pyjson::Value& object) {
  std::vector<std::string> k;
  for (const auto& m : object.as_object()) k.push_back(m.key);
  return k;
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("compare report text: pairs, problems cut, unpaired dumps, the tree's answers, the verdict") {
    const std::string expected =
        "step0/rank0: 111 rows: 77 pass, 1 warning, 33 error, 0 unmatched -> out/compare_result_rank0_20260101000000.csv\n"
        "  2 bench rows without an NPU partner (--report json lists them)\n"
        "  problem: n/step0/rank0/stack.json: line 1, column 1: expected '{'\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.1.pt: entry 'Tensor.t.1.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.2.pt: entry 'Tensor.t.2.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.3.pt: entry 'Tensor.t.3.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.4.pt: entry 'Tensor.t.4.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.5.pt: entry 'Tensor.t.5.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.6.pt: entry 'Tensor.t.6.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.7.pt: entry 'Tensor.t.7.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.8.pt: entry 'Tensor.t.8.forward': no such file\n"
        "  problem: n/step0/rank0/dump_tensor_data/T.9.pt: entry 'Tensor.t.9.forward': no such file\n"
        "  ... and 1 more problem (--report json lists all)\n"
        "step0/rank1: failed: 'n/step0/rank1/dump.json': no 'task' key\n"
        "unpaired: npu step0/rank2 has no bench partner: n/step0/rank2/dump.json\n"
        "unpaired: bench step1/rank0 has no npu partner: b/step1/rank0/dump.json\n"
        "first difference: step 0, rank 0, Functional.conv2d.0.forward (row Functional.conv2d.0.forward.output.0): "
        "Max 1.0 vs 2.0; modules: Module.net.Net.forward.0 > Module.net.conv1.Conv2d.forward.0; ranks: 0, 1\n"
        "first divergence: none\n"
        "verdict: error (2 pairs, 111 rows: 77 pass, 1 warning, 33 error, 0 unmatched; 2 bench-only rows; "
        "2 unpaired dumps; 11 problems; 1 failed)\n";
    CHECK(render(tree_with_everything(), report::ReportFormat::text) == expected);
  }

  TEST_CASE("compare report text: a file pair is named by its dump, an answer without step, rank or modules") {
    auto t = clean_file_pair();
    CHECK(render(t, report::ReportFormat::text) ==
          "n/dump.json: 3 rows: 3 pass, 0 warning, 0 error, 0 unmatched -> out/compare_result_20260101000000.csv\n"
          "first difference: none\n"
          "first divergence: none\n"
          "verdict: pass (1 pair, 3 rows: 3 pass, 0 warning, 0 error, 0 unmatched; 0 bench-only rows; "
          "0 unpaired dumps; 0 problems; 0 failed)\n");
    t.results[0]->tables.clear();
    t.first_divergence = TreeLocator{std::nullopt, std::nullopt, conv_output(compare::Level::warning, ""), {}};
    const auto text = render(t, report::ReportFormat::text, true);
    CHECK(text.find("n/dump.json: 3 rows: 3 pass, 0 warning, 0 error, 0 unmatched\n") == 0);
    CHECK(text.find("first divergence: Functional.conv2d.0.forward (row Functional.conv2d.0.forward.output.0)\n") !=
          std::string::npos);
    CHECK(text.find("verdict (--strict): pass (") != std::string::npos);
  }

  TEST_CASE("compare report: verdict and pair status (error > fail > pass; strict counts warnings)") {
    auto t = clean_file_pair();
    CHECK(compare_verdict(t, false) == CompareVerdict::pass);
    CHECK(pair_status(t, 0, false) == batch::ItemStatus::ok);
    t.results[0]->warnings = 1;
    CHECK(compare_verdict(t, false) == CompareVerdict::pass);
    CHECK(pair_status(t, 0, false) == batch::ItemStatus::ok);
    CHECK(compare_verdict(t, true) == CompareVerdict::fail);
    CHECK(pair_status(t, 0, true) == batch::ItemStatus::findings);
    t.results[0]->warnings = 0;
    t.results[0]->errors = 1;
    CHECK(compare_verdict(t, false) == CompareVerdict::fail);
    CHECK(pair_status(t, 0, false) == batch::ItemStatus::findings);
    t.results[0]->errors = 0;
    t.unpaired.push_back({"bench", std::nullopt, 3, "b/rank3/dump.json"});
    CHECK(compare_verdict(t, false) == CompareVerdict::fail);
    CHECK(pair_status(t, 0, false) == batch::ItemStatus::ok);
    t.results[0]->problems.push_back({"n/dump.json", "", "truncated"});
    CHECK(compare_verdict(t, false) == CompareVerdict::error);
    CHECK(pair_status(t, 0, false) == batch::ItemStatus::findings);
    t.results[0]->problems.clear();
    t.results[0].reset();
    CHECK(compare_verdict(t, false) == CompareVerdict::error);
    CHECK(pair_status(t, 0, false) == batch::ItemStatus::failed);
    CHECK(pair_failure(t, 0) == "the pair could not be compared");  // its report item has no message
    CHECK(to_string(CompareVerdict::fail) == "fail");
  }

  TEST_CASE("compare report: labels of pairs and dumps") {
    CHECK(where_label(0, 1, "x") == "step0/rank1");
    CHECK(where_label(std::nullopt, 1, "x") == "rank1");
    CHECK(where_label(2, std::nullopt, "x") == "step2");
    CHECK(where_label(std::nullopt, std::nullopt, "x") == "x");
    CHECK(pair_label(pair_item(std::nullopt, std::nullopt, "n/dump.json", "b/dump.json")) == "n/dump.json");
  }

  TEST_CASE("compare report json: the exact document of a clean file pair") {
    const std::string expected = R"({
 "command": "compare",
 "npu": "n",
 "bench": "b",
 "output": "out",
 "mode": "summary",
 "pairs": [
  {
   "step": null,
   "rank": null,
   "npu": "n/dump.json",
   "bench": "b/dump.json",
   "status": "ok",
   "message": "",
   "rows": 3,
   "pass": 3,
   "warning": 0,
   "error": 0,
   "unmatched": 0,
   "bench_only": [],
   "tables": [
    "out/compare_result_20260101000000.csv"
   ],
   "problems": [],
   "first_difference": null,
   "first_divergence": null,
   "diff_analyze": null
  }
 ],
 "unpaired": [],
 "summary": {
  "pairs": 1,
  "rows": 3,
  "pass": 3,
  "warning": 0,
  "error": 0,
  "unmatched": 0,
  "bench_only": 0,
  "unpaired": 0,
  "problems": 0,
  "failed": 0,
  "verdict": "pass",
  "first_difference": null,
  "first_divergence": null
 }
}
)";
    CHECK(render(clean_file_pair(), report::ReportFormat::json) == expected);
  }

  TEST_CASE("compare report json: failed pairs, problems, bench-only rows, unpaired dumps, locators") {
    auto t = tree_with_everything();
    t.mode = Mode::md5;
    auto doc = pyjson::parse_json(render(t, report::ReportFormat::json));
    REQUIRE(doc);
    CHECK(keys(*doc) == std::vector<std::string>{"command", "npu", "bench", "output", "mode", "pairs", "unpaired", "summary"});
    CHECK(doc->find("mode")->as_string() == "md5");
    const auto& pairs = doc->find("pairs")->as_array();
    REQUIRE(pairs.size() == 2);
    const auto& p0 = pairs[0];
    CHECK(keys(p0) == std::vector<std::string>{"step", "rank", "npu", "bench", "status", "message", "rows", "pass",
                                               "warning", "error", "unmatched", "bench_only", "tables", "problems",
                                               "first_difference", "first_divergence", "diff_analyze"});
    CHECK(p0.find("step")->as_int() == 0);
    CHECK(p0.find("status")->as_string() == "findings");
    CHECK(p0.find("rows")->as_int() == 111);
    CHECK(p0.find("bench_only")->as_array().size() == 2);
    CHECK(p0.find("bench_only")->as_array()[1].as_string() == "Torch.add.1.forward.output.0");
    CHECK(p0.find("problems")->as_array().size() == 11);  // all of them, not cut as in text
    const auto& problem = p0.find("problems")->as_array()[1];
    CHECK(keys(problem) == std::vector<std::string>{"file", "entry", "message"});
    CHECK(problem.find("entry")->as_string() == "Tensor.t.1.forward");
    const auto& fd = *p0.find("first_difference");
    CHECK(keys(fd) == std::vector<std::string>{"step", "rank", "entry", "row", "result", "message", "module_chain"});
    CHECK(fd.find("result")->as_string() == "error");
    CHECK(fd.find("module_chain")->as_array()[1].as_string() == "Module.net.conv1.Conv2d.forward.0");
    CHECK(p0.find("first_divergence")->find("module_chain")->as_array().empty());
    CHECK(p0.find("diff_analyze")->as_string() == "Functional.conv2d.0.forward");
    const auto& p1 = pairs[1];
    CHECK(p1.find("status")->as_string() == "failed");
    CHECK(p1.find("message")->as_string() == "'n/step0/rank1/dump.json': no 'task' key");
    CHECK(p1.find("rows")->as_int() == 0);
    CHECK(p1.find("first_difference")->is_null());
    CHECK(p1.find("diff_analyze")->is_null());
    const auto& unpaired = doc->find("unpaired")->as_array();
    REQUIRE(unpaired.size() == 2);
    CHECK(keys(unpaired[0]) == std::vector<std::string>{"side", "step", "rank", "path"});
    CHECK(unpaired[1].find("side")->as_string() == "bench");
    CHECK(unpaired[1].find("step")->as_int() == 1);
    const auto& s = *doc->find("summary");
    CHECK(s.find("verdict")->as_string() == "error");
    CHECK(s.find("failed")->as_int() == 1);
    CHECK(s.find("problems")->as_int() == 11);
    CHECK(s.find("bench_only")->as_int() == 2);
    CHECK(s.find("unpaired")->as_int() == 2);
    const auto& tfd = *s.find("first_difference");
    CHECK(keys(tfd) == std::vector<std::string>{"step", "rank", "entry", "row", "result", "message", "module_chain", "ranks"});
    CHECK(tfd.find("ranks")->as_array().size() == 2);
    CHECK(tfd.find("ranks")->as_array()[1].as_int() == 1);
    CHECK(s.find("first_divergence")->is_null());
  }

  TEST_CASE("compare report json: no pair compared gives mode null; strict fails warnings; bad path bytes") {
    TreeResult t;
    add(t, pair_item(std::nullopt, 0, "n/rank0/dump.json", "b/rank0/dump.json"), std::nullopt, "bad");
    auto doc = pyjson::parse_json(render(t, report::ReportFormat::json));
    REQUIRE(doc);
    CHECK(doc->find("mode")->is_null());
    CHECK(doc->find("pairs")->as_array()[0].find("step")->is_null());
    CHECK(doc->find("pairs")->as_array()[0].find("rank")->as_int() == 0);

    auto warned = clean_file_pair();
    warned.results[0]->warnings = 2;
    warned.results[0]->pass = 1;
    auto strict = pyjson::parse_json(render(warned, report::ReportFormat::json, true));
    REQUIRE(strict);
    CHECK(strict->find("summary")->find("verdict")->as_string() == "fail");
    CHECK(strict->find("pairs")->as_array()[0].find("status")->as_string() == "findings");
    auto lenient = pyjson::parse_json(render(warned, report::ReportFormat::json, false));
    REQUIRE(lenient);
    CHECK(lenient->find("summary")->find("verdict")->as_string() == "pass");

    std::ostringstream out;
    render_compare_json(clean_file_pair(), {"n\xff", "b", "out", false}, out);
    CHECK(out.str().find("\"npu\": \"n\\ufffd\",") != std::string::npos);
  }

  TEST_CASE("compare report junit: failures for error rows, errors for failed pairs and problems, unpaired dumps") {
    const auto xml = render(tree_with_everything(), report::ReportFormat::junit);
    CHECK(xml.find("<testsuites tests=\"4\" failures=\"3\" errors=\"2\">\n"
                   "  <testsuite name=\"msdump compare\" tests=\"4\" failures=\"3\" errors=\"2\">\n"
                   "    <testcase classname=\"msdump.compare\" name=\"step0/rank0\" time=\"0.000\">\n"
                   "      <failure message=\"first divergence Functional.conv2d.0.forward (row "
                   "Functional.conv2d.0.forward.output.0): error: The dtype of NPU and Bench are inconsistent.\" "
                   "type=\"compare\">111 rows: 77 pass, 1 warning, 33 error, 0 unmatched\n"
                   "first difference Functional.conv2d.0.forward (row Functional.conv2d.0.forward.output.0): Max 1.0 "
                   "vs 2.0\n"
                   "table out/compare_result_rank0_20260101000000.csv\n"
                   "</failure>\n"
                   "      <error message=\"11 problems\" type=\"compare\">n/step0/rank0/stack.json: line 1, column 1: "
                   "expected &apos;{&apos;\n") != std::string::npos);
    CHECK(xml.find("    <testcase classname=\"msdump.compare\" name=\"step0/rank1\" time=\"0.000\">\n"
                   "      <error message=\"&apos;n/step0/rank1/dump.json&apos;: no &apos;task&apos; key\" "
                   "type=\"compare\"></error>\n"
                   "    </testcase>\n") != std::string::npos);
    CHECK(xml.find("    <testcase classname=\"msdump.compare\" name=\"step0/rank2 (npu only)\" time=\"0.000\">\n"
                   "      <failure message=\"npu dump without a bench partner: n/step0/rank2/dump.json\" "
                   "type=\"compare\"></failure>\n") != std::string::npos);
    CHECK(xml.find("name=\"step1/rank0 (bench only)\"") != std::string::npos);
    CHECK(xml.find("  </testsuite>\n</testsuites>\n") != std::string::npos);
  }

  TEST_CASE("compare report junit: a clean pair passes; warnings fail only with strict; no divergence") {
    auto t = clean_file_pair();
    CHECK(render(t, report::ReportFormat::junit) ==
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<testsuites tests=\"1\" failures=\"0\" errors=\"0\">\n"
          "  <testsuite name=\"msdump compare\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
          "    <testcase classname=\"msdump.compare\" name=\"n/dump.json\" time=\"0.000\">\n"
          "    </testcase>\n"
          "  </testsuite>\n"
          "</testsuites>\n");
    t.results[0]->warnings = 2;
    CHECK(render(t, report::ReportFormat::junit).find("<failure") == std::string::npos);
    CHECK(render(t, report::ReportFormat::junit, true).find("<failure message=\"2 warning rows (--strict)\"") !=
          std::string::npos);
    t.results[0]->errors = 1;
    CHECK(render(t, report::ReportFormat::junit).find("<failure message=\"1 error row\"") != std::string::npos);
  }
}
