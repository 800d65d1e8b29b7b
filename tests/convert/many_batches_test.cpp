// Convert of a capture long enough for every pipeline path of the index pass: many line
// batches handed from the reader thread to the applier (and recycled), stack events interned
// as they are read, Module entries popped and re-inserted across batches, and an error on a
// line far into the file stopping the reader.

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <fstream>
#include <string>

#include "convert/convert.h"
#include "pyjson/json_reader.h"
#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

namespace {

constexpr int k_calls = 6000;  // 3 lines each, plus the module's: ~10 batches of lines

// One module whose forward is updated after every call (current profile: it moves to the end),
// and k_calls API calls inside it, each with a stack (two distinct ones in turn), a construct
// and a data event. `bad_line` replaces that line number (1-based) with a malformed line.
std::string capture(int bad_line = 0) {
  std::string t =
      "{\"format\": \"msdump-trace\", \"version\": 1, \"framework\": \"pytorch\", \"level\": \"mix\"}\n";
  int line = 1;
  auto add = [&](const std::string& s) {
    ++line;
    t += line == bad_line ? std::string("{\"kind\": \"data\", \"name\": ") : s;
    t += '\n';
  };
  const std::string module = "Module.block.Block.forward.0";
  add(R"({"kind": "construct", "name": ")" + module + R"(", "parent": null})");
  for (int i = 0; i < k_calls; ++i) {
    const std::string api = fmt::format("Functional.relu.{}.forward", i);
    add(fmt::format(R"j({{"kind": "stack", "name": "{}", "frames": ["File m.py, line {}, in f, \n y = relu(x)"]}})j", api,
                    i % 2));
    add(fmt::format(R"({{"kind": "construct", "name": "{}", "parent": "{}"}})", api, module));
    add(fmt::format(R"({{"kind": "data", "name": "{}", "input_args": [{{"type": "int", "value": {}}}], "input_kwargs": {{}}}})",
                    api, i));
    add(fmt::format(R"({{"kind": "data", "name": "{}", "output": [{{"type": "int", "value": {}}}]}})", module, i));
  }
  return t;
}

Result<convert::ConvertReport> run(const testing::TempDir& tmp, const std::string& trace) {
  fs::create_directories(tmp / "in");
  std::ofstream(tmp / "in/trace.jsonl", std::ios::binary) << trace;
  convert::ConvertOptions o;
  o.input = (tmp / "in").string();
  o.output = (tmp / "out").string();
  return convert::convert_one(o);
}

}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("a capture of many line batches converts in merge order") {
    testing::TempDir tmp;
    auto r = run(tmp, capture());
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    CHECK(r->entries == k_calls + 1);
    CHECK(r->problems.empty());

    auto dump = pyjson::parse_json(testing::slurp(tmp / "out/dump.json"));
    REQUIRE(dump);
    const auto& data = dump->find("data")->as_object();
    REQUIRE(data.size() == k_calls + 1);
    for (int i = 0; i < k_calls; ++i) CHECK(data[i].key == fmt::format("Functional.relu.{}.forward", i));
    // The module was re-inserted after each call: last, holding the last call's output.
    CHECK(data.back().key == "Module.block.Block.forward.0");
    CHECK(data.back().value.find("output")->as_array()[0].find("value")->as_int() == k_calls - 1);

    auto stack = pyjson::parse_json(testing::slurp(tmp / "out/stack.json"));
    REQUIRE(stack);
    REQUIRE(stack->size() == 2);  // two distinct stacks, names alternating between them
    CHECK(stack->find("0")->as_array()[0].size() == k_calls / 2);
    CHECK(stack->find("1")->as_array()[0].as_array()[0].as_string() == "Functional.relu.1.forward");
    CHECK(stack->find("1")->as_array()[1].as_array()[0].as_string() == "File m.py, line 1, in f, \n y = relu(x)");

    auto construct = pyjson::parse_json(testing::slurp(tmp / "out/construct.json"));
    REQUIRE(construct);
    CHECK(construct->size() == k_calls + 1);
    CHECK(construct->find(fmt::format("Functional.relu.{}.forward", k_calls - 1))->as_string() ==
          "Module.block.Block.forward.0");
  }

  TEST_CASE("a malformed line far into the capture stops the conversion with its line number") {
    testing::TempDir tmp;
    const int bad = 4 * k_calls - 5;  // in the last batches
    auto r = run(tmp, capture(bad));
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find(fmt::format("trace.jsonl:{}: ", bad)) != std::string::npos);
    CHECK_FALSE(fs::exists(tmp / "out/dump.json"));
  }
}
