// scan_in_blocks: the same analysis as scanning every parsed entry in order, whatever the block
// size and thread count; and it gives up (never answers wrongly) on what its blocks cannot vouch
// for: another layout, a syntax error, an escaped name, anything after "data".

#include "anomalies/block_scan.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <random>
#include <span>
#include <string>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

std::string leaf(const std::string& dtype, const std::string& max, const std::string& min, const std::string& norm) {
  return fmt::format(R"({{"type": "torch.Tensor", "dtype": "torch.{}", "shape": [2, 3], "Max": {}, "Min": {}, "Mean": 0.5, "Norm": {}, "requires_grad": false}})",
                     dtype, max, min, norm);
}

// A dump of `n` entries, forward then backward, some of them holding NaN / Inf / large values;
// compact (one line) or as json.dump(indent=1) writes it.
std::string dump_text(int n, bool indent, unsigned seed) {
  std::mt19937 rng(seed);
  const char* odd[] = {"NaN", "Infinity", "-Infinity", "65504.0", "1e400", "-70000"};
  auto stat = [&] { return rng() % 12 == 0 ? std::string(odd[rng() % 6]) : fmt::format("{}.{}", rng() % 50, rng() % 997); };
  std::string data;
  for (int i = 0; i < n; ++i) {
    const bool backward = i >= n / 2;
    const std::string name = fmt::format("Torch.op{}.{}.{}", i % 7, i, backward ? "backward" : "forward");
    const char* dtype = rng() % 3 == 0 ? "float16" : "float32";
    data += fmt::format("{}\"{}\": {{\"{}\": [{}, {{\"type\": \"float\", \"value\": {}}}], \"output\": [{}]}}", i ? ", " : "",
                        name, backward ? "input" : "input_args", leaf(dtype, stat(), stat(), stat()), stat(),
                        leaf(dtype, stat(), stat(), stat()));
  }
  const std::string compact =
      "{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"dump_data_dir\": null, \"data\": {" + data + "}}";
  if (!indent) return compact;
  auto doc = pyjson::parse_json(compact);
  REQUIRE(doc);
  return *pyjson::to_python_json(*doc);
}

ScanOptions options(double fraction = 1.0) {
  ScanOptions o;
  o.overflow_fraction = fraction;
  return o;
}

// Every entry parsed and scanned in order: the reference.
DumpAnalysis reference(const std::string& text, const ScanOptions& o) {
  auto doc = pyjson::parse_json(text);
  REQUIRE(doc);
  OriginTracker t;
  for (const auto& m : doc->find("data")->as_object()) t.add(scan_entry(m.key, m.value, o));
  return t.finish();
}

std::optional<DumpAnalysis> blocks(const std::string& text, const ScanOptions& o, std::uint64_t block_bytes, int threads = 2) {
  const MemorySource src(std::as_bytes(std::span(text.data(), text.size())), "mem.json");
  OriginTracker t;
  if (!scan_in_blocks(src, o, threads, t, block_bytes)) return std::nullopt;
  return t.finish();
}

void check_same(const DumpAnalysis& a, const DumpAnalysis& b) {
  CHECK(a.entries == b.entries);
  CHECK(a.origins == b.origins);
  CHECK(a.carrying == b.carrying);
  CHECK(a.first_origin == b.first_origin);
  CHECK(a.first_backward_origin == b.first_backward_origin);
  REQUIRE(a.anomalies.size() == b.anomalies.size());
  for (std::size_t i = 0; i < a.anomalies.size(); ++i) {
    CHECK(a.anomalies[i].entry == b.anomalies[i].entry);
    CHECK(a.anomalies[i].message == b.anomalies[i].message);
    CHECK(a.anomalies[i].pointer == b.anomalies[i].pointer);
    CHECK(a.anomalies[i].entry_index == b.anomalies[i].entry_index);
  }
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("block scan: the analysis of every entry in order, for any block size and thread count") {
    const std::string text = dump_text(300, true, 11);
    for (const double fraction : {1.0, 0.5}) {
      const DumpAnalysis want = reference(text, options(fraction));
      REQUIRE(want.entries == 300);
      REQUIRE(!want.anomalies.empty());
      for (const std::uint64_t block : {std::uint64_t{1}, std::uint64_t{97}, std::uint64_t{1000}, std::uint64_t{4096},
                                        k_scan_block_bytes}) {
        for (const int threads : {1, 2, 3}) {
          CAPTURE(fraction);
          CAPTURE(block);
          CAPTURE(threads);
          auto got = blocks(text, options(fraction), block, threads);
          REQUIRE(got);
          check_same(*got, want);
        }
      }
    }
  }

  TEST_CASE("block scan: a layout without entry lines is scanned whole by one block, or given up") {
    const std::string text = dump_text(200, false, 3);
    auto whole = blocks(text, options(), k_scan_block_bytes);
    REQUIRE(whole);
    check_same(*whole, reference(text, options()));
    CHECK_FALSE(blocks(text, options(), 1000));
  }

  TEST_CASE("block scan: a line indented like an entry inside an entry never yields a wrong answer") {
    // Valid JSON: the entry's own members on lines of two spaces, like the entries of "data".
    std::string text = dump_text(60, true, 5);
    const std::string odd_entry = "\"Torch.odd.0.forward\": {\n  \"output\": [\n  " + leaf("float32", "NaN", "1.0", "1.0") + "\n  ]\n  }";
    const std::size_t at = text.find("\n  \"Torch.op2.30.");
    REQUIRE(at != std::string::npos);
    text.insert(at + 3, odd_entry + ",\n  ");
    const DumpAnalysis want = reference(text, options());
    REQUIRE(want.entries == 61);
    int answered = 0, tried = 0;
    for (std::uint64_t block = 50; block < 4000; block += 37, ++tried) {
      CAPTURE(block);
      if (auto got = blocks(text, options(), block)) {
        check_same(*got, want);
        ++answered;
      }
    }
    CHECK(answered > 0);
    CHECK(answered < tried);  // some blocks began at the entry's inner line, and that was caught
  }

  TEST_CASE("block scan: gives up on a syntax error, an escaped name, a member after data, tensor files") {
    const std::string good = dump_text(50, true, 9);
    REQUIRE(blocks(good, options(), 500));
    std::string broken = good;
    broken.replace(broken.find("\"output\": ["), 11, "\"output\" [");
    CHECK_FALSE(blocks(broken, options(), 500));
    CHECK_FALSE(blocks(broken, options(), k_scan_block_bytes));
    std::string escaped = good;
    escaped.replace(escaped.find("\"Torch.op3"), 10, "\"Torch.\\u006fp3");
    CHECK_FALSE(blocks(escaped, options(), k_scan_block_bytes));
    std::string trailer = good;
    trailer.insert(trailer.rfind('}'), ", \"extra\": 1");
    CHECK_FALSE(blocks(trailer, options(), k_scan_block_bytes));
    std::string truncated = good.substr(0, good.size() - 3);
    CHECK_FALSE(blocks(truncated, options(), 500));
    ScanOptions with_files = options();
    with_files.tensor_dir = "dump_tensor_data";
    CHECK_FALSE(blocks(good, with_files, k_scan_block_bytes));
    CHECK_FALSE(blocks(R"({"task": "statistics", "data": {}})", options(), k_scan_block_bytes));
  }
}
