#include "convert/capture_entry.h"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "dump/dump_writer.h"
#include "pyjson/json_reader.h"
#include "test_util.h"

#include "trace/event_scan.h"
#include "trace/line_hash.h"

using namespace msdump;
using namespace msdump::convert;
namespace fs = std::filesystem;

namespace {

// What one way made of an entry: the formatted bytes, whether it was kept, the error, the
// problems.
struct Outcome {
  std::optional<bool> kept;  // nullopt: the plain way declined
  std::string error;
  std::string bytes;
  std::vector<std::string> problems;
};

Outcome run_way(bool plain, const std::string& name, std::span<const EventLine> events, const EntryRules& rules,
                LeafContext ctx) {
  LeafConverter leaves(std::move(ctx));
  dump::EntryFormatter fmt;
  std::vector<Problem> problems;
  CaptureEntry entry;
  const std::string file = "trace.jsonl";
  Outcome o;
  if (plain) {
    auto r = entry.write_plain(name, events, rules, leaves, file, fmt, problems);
    if (!r) o.error = r.error().message;
    else o.kept = *r;
  } else {
    auto r = entry.write_parsed(name, events, rules, leaves, file, fmt, problems);
    if (!r) o.error = r.error().message;
    else o.kept = *r;
  }
  if (o.error.empty()) {
    auto items = fmt.finish();
    if (!items) o.error = "format: " + items.error().message;
    else o.bytes = std::string(*items);
  }
  for (const auto& p : problems) o.problems.push_back(p.to_string());
  return o;
}

struct Tally {
  std::size_t plain = 0, declined = 0;
};

// Both ways on the same lines: when the plain way takes the entry, everything must agree.
void check_same(const std::string& name, std::span<const EventLine> events, const EntryRules& rules,
                const LeafContext& ctx, const fs::path& scratch, Tally& tally) {
  CAPTURE(name);
  LeafContext parsed_ctx = ctx, plain_ctx = ctx;
  parsed_ctx.tensor_out = (scratch / "parsed").string();
  plain_ctx.tensor_out = (scratch / "plain").string();
  fs::remove_all(scratch);
  fs::create_directories(parsed_ctx.tensor_out);
  fs::create_directories(plain_ctx.tensor_out);
  const Outcome a = run_way(false, name, events, rules, parsed_ctx);
  const Outcome b = run_way(true, name, events, rules, plain_ctx);
  if (!b.kept && b.error.empty()) {
    ++tally.declined;
    CHECK(b.bytes.empty());
    CHECK(b.problems.empty());
    return;
  }
  ++tally.plain;
  CHECK(a.error == b.error);
  CHECK(a.kept == b.kept);
  CHECK(a.bytes == b.bytes);
  CHECK(a.problems == b.problems);

  // The plain way again, with each line's hash recorded as the index pass records it (lines it
  // scanned as plain data): those lines are split without validation, with the same result.
  std::vector<EventLine> hashed(events.begin(), events.end());
  std::size_t with_hash = 0;
  for (auto& e : hashed) {
    trace::ScannedEvent scanned;
    if (trace::scan_event_line(e.text, scanned) && scanned.kind == "data" && !scanned.name.empty()) {
      e.text_hash = trace::line_hash(e.text);
      ++with_hash;
    }
  }
  if (with_hash == 0) return;
  plain_ctx.tensor_out = (scratch / "split").string();
  fs::create_directories(plain_ctx.tensor_out);
  const Outcome c = run_way(true, name, hashed, rules, plain_ctx);
  CHECK(c.error == b.error);
  CHECK(c.kept == b.kept);
  CHECK(c.bytes == b.bytes);
  CHECK(c.problems == b.problems);
}

struct Capture {
  Framework framework = Framework::pytorch;
  std::vector<std::string> lines;
  // Entry name -> its data events (line indexes), in the order the names first appear.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> entries;
};

Capture read_capture(const fs::path& trace) {
  Capture c;
  std::ifstream in(trace, std::ios::binary);
  std::string line;
  std::map<std::string, std::size_t> index;
  while (std::getline(in, line)) c.lines.push_back(line);
  for (std::size_t i = 0; i < c.lines.size(); ++i) {
    auto v = pyjson::parse_json(c.lines[i]);
    if (!v || !v->is_object()) continue;
    if (i == 0) {
      if (const auto* fw = v->find("framework"); fw != nullptr && fw->is_string())
        c.framework = framework_from_string(fw->as_string()).value_or(Framework::pytorch);
      continue;
    }
    const auto* kind = v->find("kind");
    const auto* name = v->find("name");
    if (kind == nullptr || !kind->is_string() || kind->as_string() != "data" || name == nullptr || !name->is_string())
      continue;
    auto [it, fresh] = index.emplace(name->as_string(), c.entries.size());
    if (fresh) c.entries.push_back({name->as_string(), {}});
    c.entries[it->second].second.push_back(i);
  }
  return c;
}

std::vector<EntryRules> all_rules(Framework framework) {
  std::vector<EntryRules> rules;
  const std::vector<std::vector<std::string>> modes = {{}, {"forward"}, {"backward"}, {"input"}, {"output"},
                                                       {"forward", "output"}};
  for (auto profile : {Profile::current, Profile::legacy})
    for (const auto& m : modes) rules.push_back(EntryRules{*DataMode::parse(m), profile, framework});
  return rules;
}

// Every entry of the capture in `dir`, both ways, under every rule set and summary mode.
Tally check_capture(const fs::path& dir, const fs::path& scratch) {
  const Capture c = read_capture(dir / "trace.jsonl");
  Tally tally;
  struct Variant {
    Task task;
    SummaryMode mode;
  };
  for (const Variant v : {Variant{Task::statistics, SummaryMode::statistics}, Variant{Task::statistics, SummaryMode::md5},
                          Variant{Task::statistics, SummaryMode::xor_checksum}, Variant{Task::tensor, SummaryMode::statistics}}) {
    if (v.mode == SummaryMode::xor_checksum && c.framework != Framework::pytorch) continue;
    LeafContext ctx;
    ctx.framework = c.framework;
    ctx.task = v.task;
    ctx.summary_mode = v.mode;
    ctx.source_dir = dir.string();
    ctx.input_file = "trace.jsonl";
    for (const auto& rules : all_rules(c.framework)) {
      ctx.profile = rules.profile;
      for (const auto& [name, idx] : c.entries) {
        std::vector<EventLine> events;
        for (auto i : idx) events.push_back({c.lines[i], i + 1});
        check_same(name, events, rules, ctx, scratch, tally);
      }
    }
  }
  return tally;
}

void write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A raw blob of 64 float32 values (i * 0.25 - 3) for hand-made leaves.
void write_blob(const fs::path& dir) {
  std::string bytes(64 * 4, '\0');
  for (int i = 0; i < 64; ++i) {
    const float f = static_cast<float>(i) * 0.25f - 3.0f;
    std::memcpy(bytes.data() + 4 * i, &f, 4);
  }
  write_file(dir / "blob.bin", bytes);
}

std::string tensor_leaf(int offset, std::string_view shape = "[4]", std::string_view file = "blob.bin") {
  return std::string(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": )") + std::string(shape) +
         R"(, "requires_grad": true, "source": {"file": ")" + std::string(file) + R"(", "offset": )" +
         std::to_string(offset) + "}}";
}

}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("capture entry: the plain way writes what the parsed way writes, for every golden capture") {
    testing::TempDir tmp;
    Tally all;
    std::size_t captures = 0;
    for (const auto& e : fs::recursive_directory_iterator(testing::testdata("captures"))) {
      if (e.path().filename() != "trace.jsonl") continue;
      CAPTURE(e.path().string());
      const Tally t = check_capture(e.path().parent_path(), tmp / "scratch");
      all.plain += t.plain;
      all.declined += t.declined;
      ++captures;
    }
    CHECK(captures >= 8);
    // Most golden lines are plain; pytorch_values' non-ASCII and escaped strings are not.
    CHECK(all.plain > 1000);
    CHECK(all.declined > 0);
  }

  TEST_CASE("capture entry: hand-made edge cases, both ways") {
    testing::TempDir tmp;
    const fs::path dir = tmp / "capture";
    fs::create_directories(dir);
    write_blob(dir);
    const std::string t0 = tensor_leaf(0), t1 = tensor_leaf(16, "[2, 2]"), t2 = tensor_leaf(32, "[]");
    struct Case {
      std::string name;
      std::vector<std::string> lines;
    };
    const std::vector<Case> cases = {
        // numbers the parser reads differently than they are written
        {"Functional.relu.0.forward",
         {R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [1E-5, 1.00, -0, 0, -0.0, 0.1e1, 1e400, -1e400, 1e-400, 12345678901234567890123, -9223372036854775808, 9223372036854775807, 9223372036854775808, -12, 5e-324, 1.7976931348623157e308, 123456789012345678.5, 0.30000000000000004, 2.5E+3, 1e16, 1e15]})"}},
        {"Functional.relu.1.forward",
         {R"({"kind":"data","name":"Functional.relu.1.forward","input_args":[NaN,Infinity,-Infinity,{"type":"float","value":NaN}],"output":[]})"}},
        // empties, nesting, kwargs, whitespace
        {"Functional.add.0.forward",
         {R"(  {"kind" : "data" ,"name":"Functional.add.0.forward",  "input_args" : [ [ ] , { } , [[]], [)" + t0 +
              ", [" + t1 + ", " + t2 + R"(]], {"a": [)" + t0 + R"(], "b": {}}],
              "input_kwargs": {"alpha": {"type": "int", "value": 2}, "out": null, "x": )" + t1 +
              R"(}, "output": )" + t2 + "  }  "}},
        // merge: a key overwritten where it stands, new keys appended, unknown sections
        {"Module.fc.Linear.forward.0",
         {R"({"kind": "data", "name": "Module.fc.Linear.forward.0", "input_args": [1], "input_kwargs": {}, "is_recompute": true})",
          R"({"kind": "data", "name": "Module.fc.Linear.forward.0", "output": [)" + t0 +
              R"(], "input_args": [2, )" + t1 + R"(], "debug": {"k": [1, 2]}, "parameters": {"weight": )" + t2 +
              "}}"}},
        // is_recompute: not a boolean, several times, without inputs
        {"Functional.mul.0.forward",
         {R"({"kind": "data", "name": "Functional.mul.0.forward", "is_recompute": 1, "output": [)" + t0 + "]}",
          R"({"kind": "data", "name": "Functional.mul.0.forward", "is_recompute": false, "is_recompute": true})"}},
        {"Functional.mul.1.forward",
         {R"({"kind": "data", "name": "Functional.mul.1.forward", "output": 3, "input_kwargs": {"a": 1}, "input_args": [], "is_recompute": true})"}},
        // backward, parameters_grad
        {"Functional.mul.0.backward",
         {R"({"kind": "data", "name": "Functional.mul.0.backward", "input": [)" + t0 + R"(, null], "output": [)" + t1 + "]}"}},
        {"Module.fc.Linear.parameters_grad",
         {R"({"kind": "data", "name": "Module.fc.Linear.parameters_grad", "weight": [)" + t0 + R"(], "bias": )" + t1 + "}"}},
        // leaves: missing tensor (a problem), value leaves with tensor-typed insides, type not a
        // string, duplicate keys, P2POp, ndarray
        {"Distributed.send.0.forward",
         {R"({"kind": "data", "name": "Distributed.send.0.forward", "input_args": [)" + tensor_leaf(0, "[4]", "gone.bin") +
              R"(, {"type": "slice", "value": [)" + t0 + R"(, null]}, {"type": 3, "x": )" + t1 +
              R"(}, {"type": "torch.Tensor", "type": "int", "value": 1}, {"type": "int", "type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "requires_grad": false, "source": {"file": "blob.bin", "offset": 0}}, {"a": 1, "a": )" +
              t2 + R"(}, {"class_type": "torch.distributed.P2POp", "op": "isend", "tensor": )" + t0 +
              R"(, "peer": 1}, {"type": "numpy.ndarray", "dtype": "float32", "shape": [4], "source": {"file": "blob.bin", "offset": 0}}]})"}},
        // keys that JSON pointers escape
        {"Functional.pad.0.forward",
         {R"({"kind": "data", "name": "Functional.pad.0.forward", "input_kwargs": {"a/b": )" + tensor_leaf(0, "[4]", "gone.bin") +
              R"(, "c~d": [)" + tensor_leaf(0, "[4]", "gone.bin") + "]}}"}},
        // a malformed leaf fails the entry
        {"Functional.bad.0.forward",
         {R"({"kind": "data", "name": "Functional.bad.0.forward", "input_args": [{"type": "torch.Tensor", "dtype": "torch.nope", "shape": [1], "requires_grad": true, "source": null}]})"}},
        {"Functional.bad.1.forward",
         {R"({"kind": "data", "name": "Functional.bad.1.forward", "output": [)" + t0 +
              R"(, {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [-1], "requires_grad": true, "source": null}]})"}},
        // nothing kept but is_recompute
        {"Functional.only.0.forward", {R"({"kind": "data", "name": "Functional.only.0.forward", "is_recompute": true})"}},
    };
    Tally tally;
    for (const auto& rules : all_rules(Framework::pytorch))
      for (auto task : {Task::statistics, Task::tensor})
        for (auto mode : {SummaryMode::statistics, SummaryMode::md5, SummaryMode::xor_checksum}) {
          LeafContext ctx;
          ctx.framework = Framework::pytorch;
          ctx.profile = rules.profile;
          ctx.task = task;
          ctx.summary_mode = mode;
          ctx.source_dir = dir.string();
          ctx.input_file = "trace.jsonl";
          for (const auto& c : cases) {
            std::vector<EventLine> events;
            for (std::size_t i = 0; i < c.lines.size(); ++i) events.push_back({c.lines[i], 10 + i});
            check_same(c.name, events, rules, ctx, tmp / "scratch", tally);
          }
        }
    CHECK(tally.declined == 0);
    CHECK(tally.plain == all_rules(Framework::pytorch).size() * 6 * cases.size());
  }

  TEST_CASE("capture entry: a line that is not plain sends the whole entry the parsed way") {
    testing::TempDir tmp;
    const fs::path dir = tmp / "capture";
    fs::create_directories(dir);
    write_blob(dir);
    const std::string lines[] = {
        R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [)" + tensor_leaf(0) + "]}",
        R"({"kind": "data", "name": "Functional.relu.0.forward", "output": [{"type": "str", "value": "a\"b é"}]})",
    };
    const std::vector<EventLine> events = {{lines[0], 2}, {lines[1], 3}};
    LeafContext ctx;
    ctx.source_dir = dir.string();
    ctx.input_file = "trace.jsonl";
    const EntryRules rules{DataMode::all(), Profile::current, Framework::pytorch};
    LeafConverter leaves(ctx);
    dump::EntryFormatter fmt;
    std::vector<Problem> problems;
    CaptureEntry entry;
    auto plain = entry.write_plain("Functional.relu.0.forward", events, rules, leaves, "trace.jsonl", fmt, problems);
    REQUIRE(plain);
    CHECK_FALSE(plain->has_value());
    CHECK(fmt.count() == 0);
    auto both = entry.write("Functional.relu.0.forward", events, rules, leaves, "trace.jsonl", fmt, problems);
    REQUIRE(both);
    CHECK(*both);
    auto items = fmt.finish();
    REQUIRE(items);
    CHECK(items->find(R"("value": "a\"b \u00e9")") != std::string_view::npos);
    const Outcome parsed = run_way(false, "Functional.relu.0.forward", events, rules, ctx);
    CHECK(std::string(*items) == parsed.bytes);
  }

  TEST_CASE("capture entry: a line whose hash no longer matches is validated again (the file changed)") {
    testing::TempDir tmp;
    const fs::path dir = tmp / "capture";
    fs::create_directories(dir);
    write_blob(dir);
    // Invalid JSON that a split by strings and brackets alone would take (a leading zero).
    const std::string line = R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [012]})";
    const std::string valid = R"({"kind": "data", "name": "Functional.relu.0.forward", "input_args": [12]})";
    LeafContext ctx;
    ctx.source_dir = dir.string();
    ctx.input_file = "trace.jsonl";
    const EntryRules rules{DataMode::all(), Profile::current, Framework::pytorch};
    auto run = [&](const std::string& text, std::uint64_t hash) {
      const std::vector<EventLine> events = {{text, 4, hash}};
      return run_way(true, "Functional.relu.0.forward", events, rules, ctx);
    };
    // the hash of what the index pass saw (the valid line) does not match the changed text
    const Outcome changed = run(line, trace::line_hash(valid));
    const Outcome unhashed = run(line, 0);
    CHECK_FALSE(changed.kept);
    CHECK(changed.error.empty());
    CHECK(changed.bytes.empty());  // declined: the whole entry goes the parsed way
    CHECK(changed.bytes == unhashed.bytes);
    // with the matching hash the valid line is split and written
    const Outcome same = run(valid, trace::line_hash(valid));
    CHECK(same.kept);
    CHECK(same.bytes.find("12") != std::string::npos);
  }
}

