// The compiled engine and valijson apply the same schema documents and must agree on validity:
// on every sample entry, and on thousands of deterministic random mutations of sample entries
// (a leaf's kind changed, a key removed or added, a number negated, a string altered).

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "reference_validator.h"
#include "schema/schema_choice.h"
#include "schema/schema_validator.h"
#include "../schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;
using namespace msdump::schema::testing;
using msdump::pyjson::Value;

namespace {

// Every value inside `v` (pre-order), including `v`.
void collect(Value& v, std::vector<Value*>& out) {
  out.push_back(&v);
  if (v.is_array()) {
    for (Value& x : v.as_array()) collect(x, out);
  } else if (v.is_object()) {
    for (pyjson::Member& m : v.as_object()) collect(m.value, out);
  }
}

// Applies one random change to a random node of `v`.
void mutate(Value& v, std::mt19937& rng) {
  std::vector<Value*> nodes;
  collect(v, nodes);
  Value& n = *nodes[std::uniform_int_distribution<std::size_t>(0, nodes.size() - 1)(rng)];
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0: n = Value::string("torch.float32"); break;
    case 1: n = Value::integer(-1); break;
    case 2: n = Value::floating(1.5); break;
    case 3: n = Value::null(); break;
    case 4:
      if (n.is_object() && n.size() > 0) {
        auto& m = n.as_object();
        m.erase(m.begin() + std::uniform_int_distribution<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(m.size()) - 1)(rng));
      }
      break;
    case 5:
      // a new key, never a duplicate: for duplicate keys the engines differ on purpose
      // (valijson rejects them, msdump keeps Python's last-wins and verify reports them)
      if (n.is_object()) n.add(n.find("requires_grad") ? "extra" : "requires_grad", Value::boolean(true));
      if (n.is_array()) n.push_back(Value::object());
      break;
    case 6:
      if (n.is_string()) n.as_string() += "x";
      break;
    case 7: n = Value::array({Value::integer(2), Value::integer(3)}); break;
  }
}

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("compiled and valijson engines agree on sample entries and their mutations") {
    std::mt19937 rng(12345);
    std::size_t checked = 0;
    std::size_t invalid = 0;
    for (const SampleFile& f : sample_files()) {
      if (f.path.filename() != "dump.json") continue;
      CAPTURE(f.path.string());
      auto compiled = SchemaValidator::create(f.schema, k_entry_pointer);
      auto reference = ReferenceValidator::create(f.schema, k_entry_pointer);
      REQUIRE(compiled);
      REQUIRE(reference);
      Value doc = parse_file(f.path);
      std::size_t n = 0;
      for (pyjson::Member& m : doc.find("data")->as_object()) {
        if (n++ % 7 != 0) continue;  // a sample of entries keeps the (slow) valijson runs short
        Value one = Value::object();
        one.add(m.key, m.value);
        CHECK(compiled->is_valid(one));
        CHECK(reference->is_valid(one));
        for (int round = 0; round < 6; ++round) {
          Value mutated = one;
          mutate(mutated, rng);
          const auto a = compiled->validate(mutated, "/data");
          const auto b = reference->validate(mutated, "/data");
          ++checked;
          invalid += !a.empty();
          std::string detail = a.empty() ? "compiled: valid" : "compiled: " + a[0].instance_pointer + " " + a[0].message;
          detail += b.empty() ? "; valijson: valid" : "; valijson: " + b[0].instance_pointer + " " + b[0].message;
          CHECK_MESSAGE(a.empty() == b.empty(), detail);
          CHECK(compiled->is_valid(mutated) == a.empty());
        }
      }
    }
    if (checked > 0) {
      MESSAGE(checked << " mutated entries, " << invalid << " invalid");
      CHECK(invalid > checked / 3);
    }
  }
}
