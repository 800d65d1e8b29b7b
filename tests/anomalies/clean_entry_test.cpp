// CleanEntryRule: which entry texts are settled without a parse, and the property the parallel
// pass relies on: an entry the rule calls clean parses, and scan_entry finds nothing in it.

#include "anomalies/clean_entry.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <random>
#include <string>

#include "anomalies/entry_scan.h"
#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

std::string leaf(const std::string& dtype, const std::string& max, const std::string& min, const std::string& mean = "0.5",
                 const std::string& norm = "1.0") {
  return fmt::format(R"({{"type": "torch.Tensor", "dtype": "torch.{}", "shape": [2, 3], "Max": {}, "Min": {}, "Mean": {}, "Norm": {}, "requires_grad": true}})",
                     dtype, max, min, mean, norm);
}

std::string entry(const std::string& output, const std::string& input = leaf("float32", "1.0", "0.0")) {
  return fmt::format(R"({{"input_args": [{}, {{"type": "int", "value": 3}}], "input_kwargs": {{"alpha": {{"type": "float", "value": 0.5}}}}, "output": [{}]}})",
                     input, output);
}

bool clean(const std::string& text, double fraction = 1.0) { return CleanEntryRule(fraction).clean(text); }

bool finds_nothing(const EntryScan& s) {
  return !s.tensor_input && !s.argument && s.outputs.empty() && s.stat_overflows.empty() && s.overflow_risks.empty() &&
         !s.error;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("clean entry: finite statistics and values below the limit") {
    CHECK(clean(entry(leaf("float32", "3.5", "-2.25"))));
    CHECK(clean(entry(leaf("float16", "65503.9", "-65503.9"))));
    CHECK(clean(entry(leaf("float32", "1.0", "0.0", "1e6", "9.9e307"))));  // Mean/Norm are not Max/Min
    CHECK(clean(R"({"output": [{"type": "int", "value": 123456789012345678}]})"));
    CHECK(clean(" {}\n"));
    CHECK(clean("[1, 2.5e-3, -0.0, true, false, null, \"x\"]"));
  }

  TEST_CASE("clean entry: non-finite tokens, overflowing numbers and Max/Min at the limit are not") {
    CHECK_FALSE(clean(entry(leaf("float32", "NaN", "0.0"))));
    CHECK_FALSE(clean(entry(leaf("float32", "Infinity", "0.0"))));
    CHECK_FALSE(clean(entry(leaf("float32", "1.0", "-Infinity"))));
    CHECK_FALSE(clean(entry(leaf("float32", "1.0", "0.0", "NaN"))));
    CHECK_FALSE(clean(R"({"input_args": [{"type": "float", "value": -Infinity}]})"));
    CHECK_FALSE(clean(R"({"output": [{"type": "float", "value": 1e400}]})"));
    CHECK_FALSE(clean(R"({"output": [{"type": "float", "value": 1e308}]})"));      // may round to inf: the parse decides
    CHECK(clean(R"({"output": [{"type": "float", "value": 9.99e307}]})"));
    CHECK_FALSE(clean(R"({"output": [{"type": "int", "value": 1234567890123456789}]})"));  // 19 digits
    CHECK_FALSE(clean(R"({"output": [{"type": "float", "value": 1e-00001}]})"));   // a 5-digit exponent
    CHECK_FALSE(clean(entry(leaf("float16", "65504.0", "0.0"))));
    CHECK_FALSE(clean(entry(leaf("float32", "1.0", "-70000"))));  // any dtype: the full scan decides
    CHECK_FALSE(clean(entry(leaf("bfloat16", "6.5504e4", "0.0"))));
    CHECK(clean(entry(leaf("float16", "40000.0", "0.0"))));
    CHECK_FALSE(clean(entry(leaf("float16", "40000.0", "0.0")), 0.5));
    CHECK(clean(entry(leaf("float16", "32751.9", "0.0")), 0.5));
  }

  TEST_CASE("clean entry: text that is not valid plain JSON is never clean") {
    for (const char* text : {R"({"a": 1,})", R"({"a" 1})", "[1 2]", "{\"a\": 01}", "{\"a\": 1.}", "{\"a\": -}",
                             "{\"a\": nul}", "{\"a\": 1} x", "{\"a\": \"\\u0041\"}", "{\"a\": \"caf\xc3\xa9\"}",
                             "{\"a\": \"tab\there\"}", "{\"a\": -NaN}", "{\"a\": +1}", "", "{"}) {
      CAPTURE(text);
      CHECK_FALSE(clean(text));
    }
    std::string deep;
    for (int i = 0; i < 70; ++i) deep += "[";
    for (int i = 0; i < 70; ++i) deep += "]";
    CHECK_FALSE(clean(deep));  // deeper than the scan goes: the parse decides
  }

  TEST_CASE("clean entry: a clean entry parses and scan_entry finds nothing in it (random entries, fixed seed)") {
    const std::array<const char*, 5> dtypes{"float32", "float16", "bfloat16", "int64", "float64"};
    const std::array<const char*, 16> numbers{"0.0", "1.5", "-3.25", "65503.9", "65504.0", "-65504", "70000", "3.4e38",
                                              "1.7976931348623157e308", "1e308", "1e400", "NaN", "Infinity",
                                              "-Infinity", "2.5e-7", "123456789"};
    std::mt19937 rng(20261202);
    auto pick = [&](const auto& pool) { return std::string(pool[rng() % pool.size()]); };
    // Mostly ordinary statistics, so that both clean and not clean entries come up.
    auto stat = [&] { return rng() % 4 == 0 ? pick(numbers) : fmt::format("{}.{}", rng() % 100, rng() % 1000); };
    int clean_count = 0, total = 0;
    for (int i = 0; i < 4000; ++i) {
      const double fraction = std::array<double, 3>{1.0, 0.5, 1e-6}[rng() % 3];
      const std::string out = leaf(pick(dtypes), stat(), stat(), stat(), stat());
      const std::string in = leaf(pick(dtypes), stat(), stat(), stat(), stat());
      std::string text = entry(out, in);
      if (rng() % 5 == 0) text = fmt::format(R"({{"input": [{}], "output": [{{"type": "float", "value": {}}}]}})", in, stat());
      const char* name = rng() % 2 ? "Torch.add.0.forward" : "Torch.add.0.backward";
      ++total;
      if (!CleanEntryRule(fraction).clean(text)) continue;
      ++clean_count;
      CAPTURE(text);
      CAPTURE(fraction);
      auto parsed = pyjson::parse_json(text);
      REQUIRE(parsed);
      ScanOptions o;
      o.overflow_fraction = fraction;
      CHECK(finds_nothing(scan_entry(name, *parsed, o)));
    }
    CHECK(clean_count > total / 10);
    CHECK(clean_count < total);
  }

  TEST_CASE("clean entry: every entry of the real msprobe dumps in testdata is clean, as the raw pass hands it over") {
    for (const char* d : {"msprobe/current/cnn_mix_statistics_all/step0/rank0/dump.json",
                          "msprobe/current/cnn_L1_statistics_all_high/step1/rank0/dump.json",
                          "good/msprobe/legacy_mix_statistics_step0_cut/dump.json"}) {
      CAPTURE(d);
      auto src = FileSource::open(testing::testdata(d).string());
      REQUIRE(src);
      pyjson::DumpStreamOptions options;
      options.raw_entries = true;
      pyjson::DumpJsonStream stream(**src, options);
      pyjson::DumpEvent ev;
      int entries = 0;
      for (auto more = stream.next(ev); more && *more; more = stream.next(ev)) {
        if (ev.type != pyjson::DumpEvent::Type::entry) continue;
        REQUIRE(ev.is_raw);
        CAPTURE(ev.key);
        CHECK(clean(std::string(ev.raw)));
        ++entries;
      }
      CHECK(entries > 10);
    }
  }
}
