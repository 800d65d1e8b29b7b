#include "trace/event_scan.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "test_util.h"
#include "trace/line_hash.h"

using namespace msdump;
using namespace msdump::trace;

TEST_SUITE("msdump::trace") {
  TEST_CASE("event scan: plain data line") {
    ScannedEvent ev;
    REQUIRE(scan_event_line(
        R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [{"type": "int", "value": -3}, null, 1.5e-3, NaN, -Infinity, Infinity, true, false, {}, []], "output": {"a": [0, -0.0, 12E+2]}} )",
        ev));
    CHECK(ev.kind == "data");
    CHECK(ev.name == "Functional.relu.0.forward");
    REQUIRE(ev.keys.size() == 2);
    CHECK(ev.keys[0] == "input_args");
    CHECK(ev.keys[1] == "output");
  }

  TEST_CASE("event scan: anything unusual goes to the full parse") {
    ScannedEvent ev;
    const char* lines[] = {
        R"({"kind": "data", "name": "a\"b"})",              // escape
        R"({"kind": "data", "name": "x", "y": "é"})",       // non-ASCII
        R"({"kind": "data", "name": "x", "name": "y"})",    // duplicate name
        R"({"kind": "data", "name": 3})",                   // not a string
        R"({"kind": "data"})",                              // no name
        R"({"kind": "data", "name": "x", "y": 01})",        // bad number
        R"({"kind": "data", "name": "x", "y": 1.})",        // bad number
        R"({"kind": "data", "name": "x", "y": [1,]})",      // trailing comma
        R"({"kind": "data", "name": "x", "y": tru})",       // bad literal
        R"({"kind": "data", "name": "x"} x)",               // extra data
        R"({"kind": "data", "name": "x")",                  // truncated
        R"([1])",                                           // not an object
        "{\"kind\": \"data\", \"name\": \"x\", \"y\": \"a\tb\"}",  // control character
    };
    for (const char* l : lines) {
      CAPTURE(l);
      CHECK_FALSE(scan_event_line(l, ev));
    }
  }

  TEST_CASE("event scan: what the scan accepts, the parser accepts") {
    std::string deep = R"({"kind": "data", "name": "x", "y": )";
    for (int i = 0; i < 60; ++i) deep += "[";
    for (int i = 0; i < 60; ++i) deep += "]";
    deep += "}";
    ScannedEvent ev;
    CHECK(scan_event_line(deep, ev));
    CHECK(pyjson::parse_json(deep));
    std::string deeper = R"({"kind": "data", "name": "x", "y": )";
    for (int i = 0; i < 70; ++i) deeper += "[";
    for (int i = 0; i < 70; ++i) deeper += "]";
    deeper += "}";
    CHECK_FALSE(scan_event_line(deeper, ev));
  }

  TEST_CASE("data scan: sections as text, the same lines accepted") {
    ScannedData d;
    REQUIRE(scan_data_line(
        R"( {"kind": "data", "input_args" :  [1, {"a": "}"}] , "name": "x", "output": null,"o":{}} )", d));
    CHECK(d.kind == "data");
    CHECK(d.name == "x");
    REQUIRE(d.sections.size() == 3);
    CHECK(d.sections[0].key == "input_args");
    CHECK(d.sections[0].value == R"([1, {"a": "}"}])");
    CHECK(d.sections[1].key == "output");
    CHECK(d.sections[1].value == "null");
    CHECK(d.sections[2].key == "o");
    CHECK(d.sections[2].value == "{}");

    const char* lines[] = {
        R"({"kind": "data", "name": "a\"b"})",
        R"({"kind": "data", "name": "x", "name": "y"})",
        R"({"kind": "data", "name": "x", "y": 1.})",
        R"({"kind": "data", "name": "x", "y": -0.5e+3, "y": [NaN]})",
        R"({"kind": "stack", "name": "x", "frames": []})",
        R"({"kind": "data"})",
    };
    ScannedEvent ev;
    for (const char* l : lines) {
      CAPTURE(l);
      CHECK(scan_data_line(l, d) == scan_event_line(l, ev));
    }
  }

  TEST_CASE("data split: what scan_data_line accepts it splits the same, and it stays inside any bytes") {
    auto same = [](std::string_view line) {
      ScannedData scanned, split;
      if (!scan_data_line(line, scanned)) return true;  // only lines the scan accepted are split
      if (!split_data_line(line, split)) return false;
      if (split.kind != scanned.kind || split.name != scanned.name || split.sections.size() != scanned.sections.size())
        return false;
      for (std::size_t i = 0; i < split.sections.size(); ++i)
        if (split.sections[i].key != scanned.sections[i].key || split.sections[i].value != scanned.sections[i].value)
          return false;
      return true;
    };
    // every line of every capture in testdata/
    std::vector<std::string> lines = {
        R"( {"kind": "data", "input_args" :  [1, {"a": "}"}] , "name": "x", "output": null,"o":{}} )",
        R"({"kind": "data", "name": "x", "y": -0.5e+3, "y": [NaN, -Infinity, Infinity, "]", "[{"]} )",
        R"({"name": "", "kind": "data", "a": true, "b": false, "c": 12, "d": {"e": [[], {}]}})",
    };
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(testing::source_dir() / "testdata")) {
      if (e.path().filename() != "trace.jsonl") continue;
      ++files;
      std::ifstream in(e.path());
      for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    CHECK(files >= 10);
    std::size_t accepted = 0;
    for (const auto& l : lines) {
      CAPTURE(l);
      ScannedData d;
      accepted += scan_data_line(l, d);
      CHECK(same(l));
    }
    CHECK(accepted >= 50);
    // Damaged copies (cut short, a byte changed): where the scan accepts one, the split agrees;
    // elsewhere the split only has to stay inside the line (ASan builds check that).
    std::mt19937_64 rng(7);
    int bad = 0;
    const char alphabet[] = "{}[]\",: \\x0-9aeEnNI";
    for (int round = 0; round < 20000 && bad < 5; ++round) {
      std::string l = lines[rng() % lines.size()];
      if (l.empty()) continue;
      if (rng() % 2) l.resize(rng() % l.size());
      for (int k = static_cast<int>(rng() % 3); k >= 0 && !l.empty(); --k) l[rng() % l.size()] = alphabet[rng() % (sizeof alphabet - 1)];
      const std::vector<char> exact(l.begin(), l.end());  // no terminating NUL or slack after it
      ScannedData split;
      split_data_line(std::string_view(exact.data(), exact.size()), split);
      if (!same(l)) {
        ++bad;
        FAIL_CHECK(l);
      }
    }
    CHECK(bad == 0);
  }

  TEST_CASE("line hash: equal bytes, equal hash; a changed byte or length, a different one") {
    const std::string a = R"({"kind": "data", "name": "Functional.linear.0.forward", "output": [1, 2, 3]})";
    CHECK(line_hash(a) == line_hash(std::string(a)));
    std::set<std::uint64_t> seen;
    for (std::size_t n = 0; n <= a.size(); ++n) seen.insert(line_hash(std::string_view(a).substr(0, n)));
    CHECK(seen.size() == a.size() + 1);  // every prefix (the tail of each length differs)
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string b = a;
      b[i] ^= 1;
      CHECK(line_hash(b) != line_hash(a));
    }
  }
}

