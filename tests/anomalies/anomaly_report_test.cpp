#include "anomalies/anomaly_report.h"

#include <doctest/doctest.h>

#include <sstream>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

DumpResult dump_with_origins(int n) {
  DumpResult d;
  d.key = "d";
  d.dump.file = "d/dump.json";
  d.dump.analysis.entries = 100;
  for (int i = 0; i < n; ++i) {
    Anomaly a;
    a.entry = "Torch.log." + std::to_string(i) + ".forward";
    a.pointer = "/data/" + a.entry + "/output/0";
    a.values.neg_inf = true;
    a.counts = ValueCounts{1, 0, 3, 12, 0.0};
    a.message = "m";
    d.dump.analysis.anomalies.push_back(a);
  }
  d.dump.analysis.origins = n;
  if (n > 0) d.dump.analysis.first_origin = 0;
  return d;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("text: one screen, long lists cut with a pointer to the json report") {
    std::vector<DumpResult> dumps{dump_with_origins(5)};
    const auto s = summarize(dumps);
    std::ostringstream out;
    render_text(dumps, s, out, RenderOptions{.strict = false, .max_lines = 2});
    const std::string text = out.str();
    CHECK(text.find("First forward origin: Torch.log.0.forward at /data/Torch.log.0.forward/output/0\n") == 0);
    CHECK(text.find("Origins (5):\n") != std::string::npos);
    CHECK(text.find("Torch.log.1.forward") != std::string::npos);
    CHECK(text.find("Torch.log.2.forward") == std::string::npos);
    CHECK(text.find("  ... and 3 more (--report json lists all)\n") != std::string::npos);
    CHECK(text.find("5 origins, 0 warnings, 0 info in 1 dump (100 entries)\n") != std::string::npos);
  }

  TEST_CASE("json: the contract's keys, null step and rank outside a tree, counts by kind") {
    std::vector<DumpResult> dumps{dump_with_origins(1)};
    std::ostringstream out;
    render_json(dumps, summarize(dumps), out);
    auto doc = pyjson::parse_json(out.str());
    REQUIRE(doc);
    const auto& a = doc->find("anomalies")->as_array().at(0);
    CHECK(a.find("step")->is_null());
    CHECK(a.find("rank")->is_null());
    CHECK(a.find("role")->as_string() == "origin");
    CHECK(a.find("kind")->as_string() == "-inf");
    CHECK(a.find("module")->is_null());
    CHECK(a.find("counts")->find("-inf")->as_int() == 3);
    CHECK(a.find("counts")->find("nan")->as_int() == 1);
    CHECK(a.find("counts")->find("total")->as_int() == 12);
    const auto& s = *doc->find("summary");
    CHECK(s.find("dumps")->as_int() == 1);
    CHECK(s.find("origins")->as_int() == 1);
    CHECK(s.find("first_origin")->find("entry")->as_string() == "Torch.log.0.forward");
    CHECK(s.find("first_backward_origin")->is_null());
  }

  TEST_CASE("junit: a testcase per dump, failing on origins") {
    std::vector<DumpResult> dumps{dump_with_origins(1), dump_with_origins(0)};
    std::ostringstream out;
    render_junit(dumps, summarize(dumps), out);
    const std::string xml = out.str();
    CHECK(xml.find("<testsuites tests=\"2\" failures=\"1\">") != std::string::npos);
    CHECK(xml.find("<failure message=\"first origin Torch.log.0.forward at /data/Torch.log.0.forward/output/0\"") !=
          std::string::npos);
  }
}
