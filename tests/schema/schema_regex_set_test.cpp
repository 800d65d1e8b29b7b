#include "schema/schema_regex_set.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using msdump::schema::SchemaRegex;
using msdump::schema::SchemaRegexSet;

namespace {

std::vector<SchemaRegex> compile_all(const std::vector<std::string>& patterns) {
  std::vector<SchemaRegex> out;
  for (const auto& p : patterns) {
    auto re = SchemaRegex::compile(p);
    REQUIRE_MESSAGE(re, (re ? std::string() : re.error().message));
    out.push_back(std::move(*re));
  }
  return out;
}

std::vector<const SchemaRegex*> pointers(const std::vector<SchemaRegex>& res) {
  std::vector<const SchemaRegex*> out;
  for (const auto& re : res) out.push_back(&re);
  return out;
}

// The "data" node of the PyTorch schemas: 5 patternProperties and the propertyNames pattern.
const std::vector<std::string> k_entry_patterns = {
    R"(^.+\.[^.]+\.[0-9]+\.forward$)",
    R"(^.+\.[^.]+\.[0-9]+\.backward$)",
    R"(^Module\..+\.[^.]+\.forward\.[0-9]+$)",
    R"(^Module\..+\.[^.]+\.backward\.[0-9]+$)",
    R"(^Module\..+\.[^.]+\.parameters_grad\.[0-9]+$)",
    R"(^(.+\.[^.]+\.[0-9]+\.forward|.+\.[^.]+\.[0-9]+\.backward|Module\..+\.[^.]+\.forward\.[0-9]+|Module\..+\.[^.]+\.backward\.[0-9]+|Module\..+\.[^.]+\.parameters_grad\.[0-9]+)$)",
};

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("schema regex set: one pass gives each pattern's own answer") {
    const auto res = compile_all(k_entry_patterns);
    const auto ptrs = pointers(res);
    const auto set = SchemaRegexSet::build(ptrs.data(), ptrs.size());
    REQUIRE(set);
    CHECK(set->states() > 1);
    CHECK(set->search("Functional.conv2d.0.forward") == 0b100001);
    CHECK(set->search("Functional.conv2d.12.backward") == 0b100010);
    CHECK(set->search("Module.conv1.Conv2d.forward.0") == 0b100100);
    CHECK(set->search("Module.conv1.Conv2d.backward.3") == 0b101000);
    CHECK(set->search("Module.conv1.weight.parameters_grad.0") == 0b110000);
    CHECK(set->search("Functional.conv2d.forward") == 0);
    CHECK(set->search("") == 0);
  }

  TEST_CASE("schema regex set: agrees with search_many on generated names") {
    std::vector<std::string> patterns = k_entry_patterns;
    patterns.push_back("^[0-9a-f]{8}$");
    patterns.push_back(R"(^.+\.(pt|npy)$)");
    patterns.push_back("ward");
    patterns.push_back("");
    patterns.push_back("^$");
    const auto res = compile_all(patterns);
    const auto ptrs = pointers(res);
    const auto set = SchemaRegexSet::build(ptrs.data(), ptrs.size());
    REQUIRE(set);
    const std::vector<std::string> pieces = {"Module", "Functional", ".", "conv2d", "forward", "backward", "0", "17",
                                             "parameters_grad", "pt", "npy", "a", "e2ca942d", "\xC3\xA9", "ward", ".."};
    std::mt19937 rng(7);
    int mixed = 0;
    for (int n = 0; n < 20000; ++n) {
      std::string text;
      const int parts = static_cast<int>(rng() % 9);
      for (int k = 0; k < parts; ++k) text += pieces[rng() % pieces.size()];
      const auto expected = SchemaRegex::search_many(ptrs.data(), ptrs.size(), text);
      REQUIRE_MESSAGE(set->search(text) == expected, text);
      mixed += expected != 0 && expected != (std::uint64_t{1} << ptrs.size()) - 1;
    }
    CHECK(mixed > 1000);  // the generated texts exercise both answers
  }

  TEST_CASE("schema regex set: too many states gives nullopt") {
    // Each pattern remembers a different suffix window: the product multiplies their states.
    std::vector<std::string> patterns;
    for (int k = 6; k < 12; ++k) patterns.push_back("a.{" + std::to_string(k) + "}$");
    const auto res = compile_all(patterns);
    const auto ptrs = pointers(res);
    CHECK_FALSE(SchemaRegexSet::build(ptrs.data(), ptrs.size()));
  }
}
