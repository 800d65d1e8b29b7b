#include "trace/event_scan.h"

#include <doctest/doctest.h>

#include <string>

#include "pyjson/json_reader.h"

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
}
