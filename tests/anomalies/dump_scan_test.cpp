#include "anomalies/dump_scan.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <fstream>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

#include "test_util.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

const char* k_dump = R"({
 "task": "statistics",
 "level": "L1",
 "framework": "pytorch",
 "dump_data_dir": null,
 "data": {
  "Torch.exp.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0}], "input_kwargs": {},
                          "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 2.0, "Min": 1.0, "Mean": 1.5, "Norm": 2.2}]},
  "Torch.log.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0}], "input_kwargs": {},
                          "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 0.0, "Min": -Infinity, "Mean": -Infinity, "Norm": Infinity}]},
  "Torch.mul.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 0.0, "Min": -Infinity, "Mean": -Infinity, "Norm": Infinity}], "input_kwargs": {},
                          "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 0.0, "Min": -Infinity, "Mean": -Infinity, "Norm": Infinity}]}
 }
})";

std::string write(const testing::TempDir& dir, const std::string& text) {
  const auto p = (dir.path() / "dump.json").string();
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("scan_dump: the origin of a small dump, on the parallel path") {
    testing::TempDir dir;
    ScanDumpOptions o;
    o.path = write(dir, k_dump);
    o.threads = 4;
    auto r = scan_dump(o);
    REQUIRE(r);
    CHECK(r->analysis.entries == 3);
    CHECK(r->analysis.origins == 1);
    REQUIRE(r->analysis.first_origin);
    const Anomaly& a = r->analysis.anomalies[*r->analysis.first_origin];
    CHECK(a.entry == "Torch.log.0.forward");
    CHECK(a.downstream == 1);
    CHECK_FALSE(a.module);
    CHECK_FALSE(r->from_tensor_files);
  }

  TEST_CASE("scan_dump: a file the raw stream gives up on is scanned one entry at a time, same result") {
    testing::TempDir dir;
    std::string twice = k_dump;
    // A second "data" object: the parallel pass stops, the one-entry pass reads both.
    twice.insert(twice.rfind('}'), R"(, "data": {"Torch.div.0.forward": {"input_args": [], "output": [{"type": "float", "value": NaN}]}})");
    ScanDumpOptions o;
    o.path = write(dir, twice);
    auto r = scan_dump(o);
    REQUIRE(r);
    CHECK(r->analysis.entries == 4);
    CHECK(r->analysis.origins == 2);
  }

  TEST_CASE("scan_dump: a dump of several blocks, as json.dump(indent=1) writes it and on one line, same analysis") {
    // ~2.6 MB: the indented copy takes the block pass, the one-line copy (no entry lines after its
    // first block) the entry-workers pass.
    std::string data;
    for (int i = 0; i < 6000; ++i) {
      const char* max = i % 997 == 5 ? "NaN" : i % 1499 == 7 ? "65504.0" : "1.5";
      data += fmt::format("{}\"Torch.mul.{}.forward\": {{\"input_args\": [{{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float16\", \"shape\": [2], \"Max\": 1.0, \"Min\": 0.0, \"Mean\": 0.5, \"Norm\": 1.0}}], \"input_kwargs\": {{}}, \"output\": [{{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float16\", \"shape\": [2], \"Max\": {}, \"Min\": 0.0, \"Mean\": 0.5, \"Norm\": 1.0}}]}}",
                          i ? ", " : "", i, max);
    }
    const std::string one_line = "{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"dump_data_dir\": null, \"data\": {" + data + "}}";
    const std::string indented = *pyjson::to_python_json(*pyjson::parse_json(one_line));
    REQUIRE(indented.size() > 2 * (std::size_t{1} << 20));
    testing::TempDir a, b;
    ScanDumpOptions o;
    o.path = write(a, indented);
    auto from_blocks = scan_dump(o);
    o.path = write(b, one_line);
    auto from_workers = scan_dump(o);
    REQUIRE(from_blocks);
    REQUIRE(from_workers);
    const DumpAnalysis& x = from_blocks->analysis;
    const DumpAnalysis& y = from_workers->analysis;
    CHECK(x.entries == 6000);
    CHECK(x.entries == y.entries);
    CHECK(x.origins == 7);
    CHECK(x.origins == y.origins);
    REQUIRE(x.anomalies.size() == y.anomalies.size());
    CHECK(x.count(Severity::warning) == 4);  // the float16 outputs at 65504
    for (std::size_t i = 0; i < x.anomalies.size(); ++i) {
      CHECK(x.anomalies[i].entry == y.anomalies[i].entry);
      CHECK(x.anomalies[i].message == y.anomalies[i].message);
    }
  }

  TEST_CASE("scan_dump: unreadable input fails naming the file and the position") {
    testing::TempDir dir;
    ScanDumpOptions o;
    o.path = write(dir, std::string(k_dump).substr(0, 700));
    auto r = scan_dump(o);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("dump.json") != std::string::npos);
    CHECK(r.error().message.find("line ") != std::string::npos);
    o.path = (dir.path() / "nowhere").string();
    REQUIRE_FALSE(scan_dump(o));
  }

  TEST_CASE("scan_dump: the real msprobe dumps in testdata hold no non-finite value") {
    for (const char* d : {"good/msprobe/cnn_L0_tensor_all_step0", "good/msprobe/cnn_mix_md5_all_step1",
                          "good/msprobe/legacy_mix_statistics_step0_cut"}) {
      CAPTURE(d);
      ScanDumpOptions o;
      o.path = testing::testdata(d).string();
      auto r = scan_dump(o);
      REQUIRE(r);
      CHECK(r->analysis.entries > 0);
      CHECK(r->analysis.anomalies.empty());
    }
    ScanDumpOptions o;
    o.path = testing::testdata("good/msprobe/cnn_L0_tensor_all_step0").string();
    CHECK(scan_dump(o)->from_tensor_files);
  }
}
