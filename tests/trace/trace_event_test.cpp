#include "trace/trace_event.h"

#include <doctest/doctest.h>

#include "pyjson/json_reader.h"

using namespace msdump;
using namespace msdump::trace;

namespace {
pyjson::Value parse(std::string_view s) {
  auto v = pyjson::parse_json(s);
  REQUIRE(v);
  return std::move(*v);
}
}  // namespace

TEST_SUITE("msdump::trace") {
  TEST_CASE("header with all keys") {
    std::vector<std::string> warnings;
    auto h = parse_trace_header(parse(R"({"format": "msdump-trace", "version": 1, "framework": "mindspore",
      "step": 3, "rank": 1, "level": "L0", "task": "tensor", "summary_mode": "md5", "dump_path": "/d", "megatron": true, "x": 1})"),
                                warnings);
    REQUIRE(h);
    CHECK(h->framework == Framework::mindspore);
    CHECK(h->step == 3);
    CHECK(h->level == Level::L0);
    CHECK(h->task == Task::tensor);
    CHECK(h->summary_mode == SummaryMode::md5);
    CHECK(h->dump_path == "/d");
    CHECK(h->megatron);
    CHECK(warnings == std::vector<std::string>{"header: unknown key \"x\" ignored"});
  }
  TEST_CASE("header errors say what was expected") {
    std::vector<std::string> w;
    auto bad = parse_trace_header(parse(R"({"format": "other", "version": 1, "framework": "pytorch"})"), w);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "header: /format: expected \"msdump-trace\", got \"other\"");
    bad = parse_trace_header(parse(R"({"format": "msdump-trace", "version": 2, "framework": "pytorch"})"), w);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == ErrorCode::unsupported);
    CHECK(bad.error().message == "header: /version: trace version 2 is not supported (this msdump reads version 1)");
    bad = parse_trace_header(parse(R"({"format": "msdump-trace", "version": 1, "framework": "jax"})"), w);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "header: /framework: expected pytorch, mindspore or mindtorch, got \"jax\"");
    bad = parse_trace_header(parse(R"({"format": "msdump-trace", "version": 1, "framework": "pytorch", "level": "L2"})"), w);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "header: /level: expected one of L0, L1, mix, got \"L2\"");
  }
  TEST_CASE("data events keep their sections in order") {
    auto ev = parse_trace_event(parse(R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [], "input_kwargs": {}})"));
    REQUIRE(ev);
    CHECK(ev->kind == EventKind::data);
    CHECK(ev->name == "Functional.relu.0.forward");
    REQUIRE(ev->sections.size() == 2);
    CHECK(ev->sections[0].key == "input_args");
    CHECK(ev->sections[1].key == "input_kwargs");
  }
  TEST_CASE("stack and construct events") {
    auto st = parse_trace_event(parse(R"({"kind": "stack", "name": "A.b.0.forward", "frames": ["f1", "f2"]})"));
    REQUIRE(st);
    CHECK(st->frames == std::vector<std::string>{"f1", "f2"});
    auto c = parse_trace_event(parse(R"({"kind": "construct", "name": "A.b.0.forward", "parent": null, "micro_step": 2})"));
    REQUIRE(c);
    CHECK_FALSE(c->parent.has_value());
    CHECK(c->micro_step == 2);
    auto bad = parse_trace_event(parse(R"({"kind": "stack", "name": "A.b.0.forward", "frames": ["f1", 2]})"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "/frames/1: expected a string, got integer");
    bad = parse_trace_event(parse(R"({"kind": "construct", "name": "A.b.0.forward"})"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "/parent: missing (expected a string or null)");
  }
  TEST_CASE("unknown kinds are reported to the caller, missing names are errors") {
    auto ev = parse_trace_event(parse(R"({"kind": "marker", "x": 1})"));
    REQUIRE(ev);
    CHECK(ev->kind == EventKind::unknown);
    CHECK(ev->unknown_kind == "marker");
    auto bad = parse_trace_event(parse(R"({"kind": "data"})"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "/name: missing (expected a string)");
    bad = parse_trace_event(parse(R"([1])"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "/: expected an event object, got array");
  }
}
