#include "trace/meta_event_parse.h"

#include <doctest/doctest.h>

#include <string>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::trace;

namespace {

// The full path's event for `line` (parse_json + parse_trace_event), which must succeed.
TraceEvent full_parse(std::string_view line) {
  auto v = pyjson::parse_json(line);
  REQUIRE(v);
  auto ev = parse_trace_event(std::move(*v));
  REQUIRE(ev);
  return std::move(*ev);
}

void check_same(const TraceEvent& a, const TraceEvent& b) {
  CHECK(a.kind == b.kind);
  CHECK(a.name == b.name);
  CHECK(a.frames == b.frames);
  CHECK(a.parent == b.parent);
  CHECK(a.micro_step == b.micro_step);
  CHECK(a.sections.empty());
}

}  // namespace

TEST_SUITE("msdump::trace") {
  TEST_CASE("meta event parse: accepted lines give the full path's event") {
    const char* lines[] = {
        R"j({"kind": "stack", "name": "Functional.relu.0.forward", "frames": ["File a.py, line 3, in f, \n x = relu(y)", "File b.py, line 9, in <module>, \n f()"]})j",
        R"j({"kind": "stack", "name": "Module.fc.Linear.forward.0", "frames": []})j",
        R"j({"kind":"stack","name":"Tensor.add.1.forward","frames":["caf\u00e9 \"q\" \\ \/ \ud83d\ude00"]}  )j",
        R"j(  {"kind": "construct", "name": "Module.fc.Linear.forward.0", "parent": null})j",
        R"j({"kind": "construct", "name": "Functional.relu.0.forward", "parent": "Module.fc.Linear.forward.0"})j",
        R"j({"kind": "construct", "name": "Module.a.A.forward.0", "parent": "Module.b.B.forward.0", "micro_step": 3})j",
        R"j({"kind": "construct", "name": "Module.a.A.forward.0", "parent": null, "micro_step": -1})j",
        "{\"kind\": \"construct\",\n\t\"name\": \"x\", \"parent\": \"\u00e9\"}",
    };
    for (const char* line : lines) {
      CAPTURE(line);
      TraceEvent fast;
      REQUIRE(parse_meta_event_line(line, fast));
      check_same(fast, full_parse(line));
    }
  }

  TEST_CASE("meta event parse: a reused event is cleared") {
    TraceEvent ev;
    REQUIRE(parse_meta_event_line(R"j({"kind": "construct", "name": "a", "parent": "b", "micro_step": 2})j", ev));
    REQUIRE(parse_meta_event_line(R"j({"kind": "stack", "name": "c", "frames": ["f"]})j", ev));
    check_same(ev, full_parse(R"j({"kind": "stack", "name": "c", "frames": ["f"]})j"));
    REQUIRE(parse_meta_event_line(R"j({"kind": "construct", "name": "d", "parent": null})j", ev));
    CHECK(ev.frames.empty());
    CHECK_FALSE(ev.parent.has_value());
    CHECK_FALSE(ev.micro_step.has_value());
  }

  TEST_CASE("meta event parse: anything else goes to the full path") {
    const char* lines[] = {
        R"j({"kind": "data", "name": "x", "output": []})j",                          // a data event
        R"j({"kind": "stack", "name": "", "frames": []})j",                         // empty name: an error there
        R"j({"kind": "stack", "frames": [], "name": "x"})j",                        // other order
        R"j({"name": "x", "kind": "stack", "frames": []})j",                        // other order
        R"j({"kind": "stack", "name": "x", "frames": [], "extra": 1})j",            // extra key
        R"j({"kind": "stack", "name": "x", "frames": [1]})j",                       // not a string
        R"j({"kind": "stack", "name": "x", "frames": "f"})j",                       // not a list
        R"j({"kind": "stack", "name": "x", "frames": ["a",]})j",                    // trailing comma
        R"j({"kind": "stack", "name": "x", "frames": ["a"]} x)j",                   // trailing bytes
        R"j({"kind": "stack", "name": "x", "frames": ["a"])j",                      // truncated
        R"j({"kind": "stack", "name": "x", "frames": ["\ud800"]})j",                // lone surrogate
        "{\"kind\": \"stack\", \"name\": \"x\", \"frames\": [\"a\tb\"]}",          // control character
        R"j({"kind": "construct", "name": "x"})j",                                  // no parent
        R"j({"kind": "construct", "name": "x", "parent": 3})j",                     // not a string
        R"j({"kind": "construct", "name": "x", "parent": nul})j",                   // bad literal
        R"j({"kind": "construct", "name": "x", "parent": null, "micro_step": 1.0})j",  // not an int
        R"j({"kind": "construct", "name": "x", "parent": null, "micro_step": 99999999999999999999})j",
        R"j({"kind": "construct", "name": "x", "parent": null, "step": 1})j",      // other key
        R"j({"kind": "construct", "name": 5, "parent": null})j",                    // name not a string
        R"j({"kind": "other", "name": "x"})j",                                       // unknown kind
        R"j({"k\u0069nd": "stack", "name": "x", "frames": []})j",                 // escaped key
        R"j({"kind": "st\u0061ck", "name": "x", "frames": []})j",                 // escaped kind
        R"j(["kind", "stack"])j",
        "",
    };
    for (const char* line : lines) {
      CAPTURE(line);
      TraceEvent ev;
      CHECK_FALSE(parse_meta_event_line(line, ev));
    }
  }
}
