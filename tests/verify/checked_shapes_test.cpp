// CheckedShapes against the whole checks: every entry of every dump.json in testdata, and
// random variants of them (numbers moved within and across their classes, literals, dtypes,
// shapes, keys and names changed; fixed seed), are checked both ways under several contexts
// (frameworks, profiles, tasks, levels). An entry CheckedShapes settles from its text must draw
// the same findings (every field, in order) and counts as the whole checks; each entry it does
// not settle is checked whole and offered to learn(), as verify's workers do. The tests also
// require that entries are settled at all (the comparison must not pass by never using it).

#include "verify/checked_shapes.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <random>
#include <atomic>
#include <thread>
#include <string>
#include <vector>

#include "dump/leaf_walk.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "test_util.h"
#include "verify/schema_check.h"

using namespace msdump;
using namespace msdump::verify;
using pyjson::Value;

namespace {

struct Entry {
  std::string name;
  std::string text;
};

struct Outcome {
  std::vector<std::string> findings;
  std::uint64_t leaves = 0;
  std::uint32_t signals = 0;
  bool has_input_args = false;
};

std::string describe(const Finding& f) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}:{}", static_cast<int>(f.severity), to_string(f.kind), f.entry, f.pointer,
                     f.expected, f.actual, f.message, f.file, f.line);
}

// The findings of `sink`, each as one line of every field.
std::vector<std::string> described(FindingSink& sink) {
  std::vector<std::string> out;
  for (const auto& f : sink.findings()) out.push_back(describe(f));
  return out;
}

// A sink as verify's workers set theirs (file and line on every finding).
FindingSink worker_sink() {
  FindingSink sink({}, 0);
  sink.set_location("dump.json", 7);
  return sink;
}

std::string pointer_of(const std::string& name) {
  std::string p = "/data";
  dump::append_pointer_token(p, name);
  return p;
}

// The whole checks, as verify's workers run them (schema, then check_entry).
Outcome whole(const SchemaCheck& schema, const EntryContext& ctx, const std::string& name, Value& v, bool& clean) {
  FindingSink sink = worker_sink();
  schema.check(name, v, sink);
  EntryTally tally;
  check_entry(name, v, ctx, pointer_of(name), sink, &tally);
  Outcome o;
  o.findings = described(sink);
  o.leaves = tally.leaves;
  o.signals = tally.signals;
  o.has_input_args = v.find("input_args") != nullptr;
  clean = sink.findings().empty();
  return o;
}

// Checks every entry both ways; returns how many CheckedShapes settled.
std::size_t check_both_ways(const std::vector<Entry>& entries, const EntryContext& ctx, Framework fw, Profile profile) {
  auto schema = SchemaCheck::create(fw, profile);
  REQUIRE(schema);
  CheckedShapes shapes(schema->compiled(), std::make_shared<const EntryContext>(ctx), std::make_shared<ShapeStore>());
  REQUIRE(shapes.enabled());
  std::size_t settled = 0;
  for (const Entry& e : entries) {
    CAPTURE(e.name);
    CAPTURE(e.text);
    auto v = pyjson::parse_json(e.text);
    REQUIRE(v);
    bool clean = false;
    const Outcome reference = whole(*schema, ctx, e.name, *v, clean);
    FindingSink sink = worker_sink();
    const auto s = shapes.check_text(e.name, e.text, pointer_of(e.name), sink);
    if (!s) {
      CHECK(sink.findings().empty());
      shapes.learn(e.name, *v, clean);
      continue;
    }
    ++settled;
    CHECK(described(sink) == reference.findings);
    CHECK(s->leaves == reference.leaves);
    CHECK(s->signals == reference.signals);
    CHECK(s->has_input_args == reference.has_input_args);
  }
  return settled;
}

std::vector<Entry> testdata_entries() {
  std::vector<Entry> out;
  for (const auto& f : std::filesystem::recursive_directory_iterator(testing::testdata(""))) {
    if (f.path().filename() != "dump.json") continue;
    auto doc = pyjson::parse_json(testing::slurp(f.path()));
    if (!doc || !doc->is_object()) continue;  // (testdata/bad holds broken files on purpose)
    const Value* data = doc->find("data");
    if (data == nullptr || !data->is_object()) continue;
    for (const auto& m : data->as_object()) {
      auto text = pyjson::to_python_json(m.value);
      if (text) out.push_back({m.key, *text});
    }
  }
  return out;
}

// Every number, literal and string leaf of `v`, in text order.
void scalars(Value& v, std::vector<Value*>& out) {
  if (v.is_array())
    for (Value& item : v.as_array()) scalars(item, out);
  else if (v.is_object())
    for (auto& m : v.as_object()) scalars(m.value, out);
  else
    out.push_back(&v);
}

Value random_number(std::mt19937_64& rng, const Value& like) {
  static const double k_floats[] = {0.0,  -0.0, 1.0,    -1.0,  0.5,    -0.5,   2.5,   3.4028234663852886e+38,
                                    1e-45, 65504.0, 70000.0, 1e300, -1e300, 0.1,   1.0000001, 123.456};
  static const std::int64_t k_ints[] = {0, 1, -1, 2, 3, 7, 64, -64, 1000000, 9007199254740993};
  std::uniform_int_distribution<int> pick(0, 9);
  const int p = pick(rng);
  if (like.is_number() && p < 5) {  // the same class most of the time: the number scaled
    std::uniform_real_distribution<double> f(0.8, 1.2);
    if (like.is_float()) return Value::floating(like.as_float() * f(rng));
    return Value::integer(like.as_int());
  }
  if (p < 7) return Value::floating(k_floats[rng() % std::size(k_floats)]);
  if (p < 9) return Value::integer(k_ints[rng() % std::size(k_ints)]);
  return Value::big_integer("123456789012345678901234567890");
}

Value random_literal(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return Value::null();
    case 1: return Value::boolean(true);
    case 2: return Value::boolean(false);
    case 3: return Value::floating(std::numeric_limits<double>::quiet_NaN());
    case 4: return Value::floating(std::numeric_limits<double>::infinity());
    default: return Value::floating(-std::numeric_limits<double>::infinity());
  }
}

std::string random_dtype(std::mt19937_64& rng) {
  static const char* k[] = {"torch.float32", "torch.float16", "torch.bfloat16", "torch.int64",  "torch.bool",
                            "torch.float64", "torch.complex64", "torch.float8_e4m3fn", "Float32", "torch.float99",
                            "torch.uint8"};
  return k[rng() % std::size(k)];
}

std::string random_name(std::mt19937_64& rng, const std::string& name) {
  static const char* k[] = {"Functional.relu.{}.forward", "Torch.add.{}.backward", "Module.fc.Linear.forward.{}",
                            "Module.fc.Linear.backward.{}", "Module.fc.Linear.parameters_grad", "Cell.fc.Dense.forward.{}",
                            "Tensor.__add__.{}.forward", "not a name {}", "Distributed.all_reduce.{}.forward"};
  if (rng() % 4 == 0) return name;
  return fmt::format(fmt::runtime(k[rng() % std::size(k)]), rng() % 50);
}

// A variant of `e`: most keep its shape (numbers moved within their class); others change one
// thing that changes the shape or the verdict.
Entry variant(std::mt19937_64& rng, const Entry& e) {
  auto v = pyjson::parse_json(e.text);
  REQUIRE(v);
  std::vector<Value*> leaves;
  scalars(*v, leaves);
  std::uniform_real_distribution<double> scale(0.8, 1.2);
  for (Value* s : leaves)  // the same sign: most keep their class
    if (s->is_float() && rng() % 2 == 0) *s = Value::floating(s->as_float() * scale(rng));
  Entry out{e.name, ""};
  if (rng() % 3 == 0 && !leaves.empty()) {  // one change of class, literal, dtype, key or name
    Value* s = leaves[rng() % leaves.size()];
    switch (rng() % 7) {
      case 0: *s = random_literal(rng); break;
      case 1: *s = s->is_string() ? Value::string(random_dtype(rng)) : random_number(rng, *s); break;
      case 2: *s = random_number(rng, Value::null()); break;
      case 3: *s = Value::string("x"); break;
      case 4:
        if (v->is_object() && !v->as_object().empty()) {
          auto& members = v->as_object();
          members[rng() % members.size()].key = rng() % 2 ? "output" : "input_kwargs";  // reordered or repeated
        }
        break;
      default: out.name = random_name(rng, e.name);
    }
  }
  auto text = pyjson::to_python_json(*v);
  REQUIRE(text);
  out.text = *text;
  return out;
}

std::vector<Entry> variants(const std::vector<Entry>& base, std::size_t per_entry, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Entry> out;
  for (const Entry& e : base) {
    out.push_back(e);
    for (std::size_t i = 0; i < per_entry; ++i) out.push_back(variant(rng, e));
  }
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

EntryContext context(Framework fw, std::optional<Profile> profile, const std::string& task, bool data_dir) {
  EntryContext ctx;
  ctx.rules.framework = fw;
  ctx.rules.profile = profile;
  ctx.level = Level::mix;
  ctx.level_known = true;
  ctx.task = task;
  ctx.has_dump_data_dir = data_dir;
  return ctx;
}

}  // namespace

TEST_CASE("checked shapes: testdata entries settle with the whole checks' findings") {
  const auto entries = testdata_entries();
  REQUIRE(entries.size() > 1000);
  const std::size_t settled =
      check_both_ways(entries, context(Framework::pytorch, Profile::current, "statistics", false), Framework::pytorch,
                      Profile::current);
  CHECK(settled > entries.size() / 4);
}

TEST_CASE("checked shapes: random variants under every context") {
  const auto base = testdata_entries();
  REQUIRE(!base.empty());
  // A fixed-seed sample of the entries, each with variants.
  std::vector<Entry> sample;
  for (std::size_t i = 0; i < base.size(); i += 37) sample.push_back(base[i]);
  const auto entries = variants(sample, 12, 20261204);
  struct Case {
    Framework fw;
    Profile schema;
    std::optional<Profile> rules;
    const char* task;
    bool data_dir;
    std::size_t settle_one_in;  // at least one entry in this many is settled (most entries are
                                // pytorch statistics ones: under other contexts most draw findings,
                                // and task tensor leaves need data_name, which is never settled)
  };
  const Case cases[] = {
      {Framework::pytorch, Profile::current, Profile::current, "statistics", false, 8},
      {Framework::pytorch, Profile::legacy, Profile::legacy, "statistics", false, 8},
      {Framework::pytorch, Profile::current, std::nullopt, "statistics", false, 8},
      {Framework::pytorch, Profile::current, Profile::current, "tensor", true, 500},
      {Framework::mindspore, Profile::current, Profile::current, "statistics", false, 100},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.fw));
    CAPTURE(to_string(c.schema));
    const std::size_t settled = check_both_ways(entries, context(c.fw, c.rules, c.task, c.data_dir), c.fw, c.schema);
    CHECK(settled > entries.size() / c.settle_one_in);
  }
}

TEST_CASE("checked shapes: entries longer than the limit are checked whole") {
  std::string text = R"({"input_args": [)";
  while (text.size() <= CheckedShapes::k_max_entry_bytes) text += R"({"type": "int", "value": 1}, )";
  text += R"({"type": "int", "value": 2}]})";
  auto schema = SchemaCheck::create(Framework::pytorch, Profile::current);
  REQUIRE(schema);
  const auto ctx = std::make_shared<const EntryContext>(context(Framework::pytorch, Profile::current, "statistics", false));
  CheckedShapes shapes(schema->compiled(), ctx, std::make_shared<ShapeStore>());
  const std::string name = "Torch.add.0.forward";
  for (int i = 0; i < 2; ++i) {
    FindingSink sink({}, 0);
    CHECK(!shapes.check_text(name, text, pointer_of(name), sink));
    auto v = pyjson::parse_json(text);
    REQUIRE(v);
    bool clean = false;
    whole(*schema, *ctx, name, *v, clean);  // (sanity: the entry itself is clean)
    CHECK(clean);
    shapes.learn(name, *v, clean);
  }
  CHECK(shapes.shapes() == 0);
  // The same entry cut below the limit is learned, then settled.
  const std::string small = R"({"input_args": [{"type": "int", "value": 1}]})";
  for (int i = 0; i < 2; ++i) {
    FindingSink sink({}, 0);
    const auto s = shapes.check_text(name, small, pointer_of(name), sink);
    CHECK(s.has_value() == (i == 1));
    auto v = pyjson::parse_json(small);
    REQUIRE(v);
    shapes.learn(name, *v, true);
  }
}

TEST_CASE("checked shapes: leaves with data_name or md5 are never settled") {
  const std::string text =
      R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, )"
      R"("Mean": 0.5, "Norm": 1.0, "requires_grad": false, "data_name": "Torch.add.0.forward.input.0.pt"}]})";
  auto schema = SchemaCheck::create(Framework::pytorch, Profile::current);
  REQUIRE(schema);
  const auto ctx = std::make_shared<const EntryContext>(context(Framework::pytorch, Profile::current, "tensor", true));
  CheckedShapes shapes(schema->compiled(), ctx, std::make_shared<ShapeStore>());
  for (int i = 0; i < 3; ++i) {
    FindingSink sink({}, 0);
    const std::string name = "Torch.add.0.forward";
    CHECK(!shapes.check_text(name, text, pointer_of(name), sink));
    auto v = pyjson::parse_json(text);
    REQUIRE(v);
    shapes.learn(name, *v, true);
  }
  CHECK(shapes.shapes() == 0);
}

// Settling reads no syntax: a text is settled only when its shape equals one learned from valid
// text, which makes it valid (pyjson/number_tokens.h). Texts of learned shapes with bytes
// changed must then either be refused or parse, and draw the whole checks' findings.
TEST_CASE("checked shapes: broken texts are never settled") {
  auto schema = SchemaCheck::create(Framework::pytorch, Profile::current);
  REQUIRE(schema);
  const EntryContext ctx = context(Framework::pytorch, Profile::current, "statistics", false);
  CheckedShapes shapes(schema->compiled(), std::make_shared<const EntryContext>(ctx), std::make_shared<ShapeStore>());
  auto entries = testdata_entries();
  REQUIRE(!entries.empty());
  for (const Entry& e : entries) {  // learn every clean shape
    FindingSink sink({}, 0);
    if (shapes.check_text(e.name, e.text, pointer_of(e.name), sink)) continue;
    auto v = pyjson::parse_json(e.text);
    REQUIRE(v);
    bool clean = false;
    whole(*schema, ctx, e.name, *v, clean);
    shapes.learn(e.name, *v, clean);
  }
  REQUIRE(shapes.shapes() > 0);
  std::mt19937_64 rng(4);
  static constexpr char k_bytes[] = "0123456789.eE+-\" ,:{}[]xN";
  std::size_t settled = 0, broken_refused = 0;
  for (int round = 0; round < 20000; ++round) {
    const Entry& e = entries[rng() % entries.size()];
    std::string text = e.text;
    const int changes = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < changes; ++c) {
      const std::size_t at = rng() % text.size();
      if (rng() % 4 == 0) text.erase(at, 1);
      else if (rng() % 4 == 0) text.insert(at, 1, k_bytes[rng() % (sizeof k_bytes - 1)]);
      else text[at] = k_bytes[rng() % (sizeof k_bytes - 1)];
    }
    CAPTURE(text);
    FindingSink sink = worker_sink();
    const auto s = shapes.check_text(e.name, text, pointer_of(e.name), sink);
    auto v = pyjson::parse_json(text);
    if (!v) {
      CHECK(!s);
      ++broken_refused;
      continue;
    }
    if (!s) continue;
    ++settled;
    bool clean = false;
    const Outcome reference = whole(*schema, ctx, e.name, *v, clean);
    CHECK(described(sink) == reference.findings);
    CHECK(s->leaves == reference.leaves);
  }
  CHECK(settled > 100);          // changed numbers that are still numbers of the same class
  CHECK(broken_refused > 1000);  // most changes break the text
}

TEST_CASE("checked shapes: one store per schema and context, shared by the files and threads") {
  auto schema = SchemaCheck::create(Framework::pytorch, Profile::current);
  REQUIRE(schema);
  const EntryContext a = context(Framework::pytorch, Profile::current, "statistics", false);
  EntryContext b = a;
  b.level = Level::L1;
  CHECK(ShapeStore::shared(schema->compiled(), a) == ShapeStore::shared(schema->compiled(), a));
  CHECK(ShapeStore::shared(schema->compiled(), a) != ShapeStore::shared(schema->compiled(), b));
  EntryContext c = a;
  c.rules.profile = std::nullopt;
  CHECK(ShapeStore::shared(schema->compiled(), a) != ShapeStore::shared(schema->compiled(), c));
  // What one CheckedShapes learns (one file's thread), another on the same store settles.
  const auto store = std::make_shared<ShapeStore>();
  const auto ctx = std::make_shared<const EntryContext>(a);
  CheckedShapes first(schema->compiled(), ctx, store), second(schema->compiled(), ctx, store);
  const std::string name = "Torch.add.0.forward", text = R"({"input_args": [{"type": "int", "value": 1}]})";
  FindingSink sink({}, 0);
  CHECK(!first.check_text(name, text, pointer_of(name), sink));
  auto v = pyjson::parse_json(text);
  REQUIRE(v);
  first.learn(name, *v, true);
  CHECK(second.check_text("Torch.add.5.forward", R"({"input_args": [{"type": "int", "value": 1}]})",
                          pointer_of("Torch.add.5.forward"), sink));
  // A full store learns no more.
  const auto tiny = std::make_shared<ShapeStore>(1);
  CheckedShapes third(schema->compiled(), ctx, tiny);
  CHECK(!third.check_text(name, text, pointer_of(name), sink));
  third.learn(name, *v, true);
  CHECK(tiny->size() == 0);
}

TEST_CASE("checked shapes (threaded): threads learning and settling on one store") {
  const auto entries = testdata_entries();
  REQUIRE(!entries.empty());
  auto schema = SchemaCheck::create(Framework::pytorch, Profile::current);
  REQUIRE(schema);
  const EntryContext ctx = context(Framework::pytorch, Profile::current, "statistics", false);
  const auto shared_ctx = std::make_shared<const EntryContext>(ctx);
  const auto store = std::make_shared<ShapeStore>();
  std::atomic<std::size_t> settled{0}, mismatches{0};
  auto work = [&](std::size_t first) {
    auto own = SchemaCheck::create(Framework::pytorch, Profile::current);  // (one per thread, as verify's)
    if (!own) {
      ++mismatches;
      return;
    }
    CheckedShapes shapes(own->compiled(), shared_ctx, store);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const Entry& e = entries[(first + k) % entries.size()];
      auto v = pyjson::parse_json(e.text);
      if (!v) continue;
      bool clean = false;
      const Outcome reference = whole(*own, ctx, e.name, *v, clean);
      FindingSink sink = worker_sink();
      const auto s = shapes.check_text(e.name, e.text, pointer_of(e.name), sink);
      if (!s) {
        shapes.learn(e.name, *v, clean);
        continue;
      }
      ++settled;
      if (described(sink) != reference.findings || s->leaves != reference.leaves) ++mismatches;
    }
  };
  std::thread t1(work, 0), t2(work, entries.size() / 2);
  t1.join();
  t2.join();
  CHECK(mismatches == 0);
  CHECK(settled > entries.size() / 2);
}
