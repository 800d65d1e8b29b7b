#include "convert/scope_filter.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace msdump;
using namespace msdump::convert;

namespace {

// One capture data event: the entry name and which sections it carries.
struct Ev {
  std::string name;
  bool input = false;
  bool output = false;
};

// Replays events through the filter; returns "name:i" / "name:o" / "name:-" of the kept ones.
std::vector<std::string> replay(ScopeFilter& f, const std::vector<Ev>& events) {
  std::vector<std::string> kept;
  for (const auto& e : events) {
    const auto [opens, closes] = ScopeFilter::module_edges(dump::parse_entry_name(e.name), e.input, e.output);
    if (f.event(e.name, opens, closes)) kept.push_back(e.name + (e.input ? ":i" : e.output ? ":o" : ":-"));
  }
  return kept;
}

ScopeFilter make(std::vector<std::string> scope, Level level) {
  auto f = ScopeFilter::create(scope, level);
  REQUIRE_MESSAGE(f, (f ? "" : f.error().message));
  return *f;
}

// Two linear layers; each module forward is a pre-hook (inputs) and a forward hook (output).
const std::vector<Ev> k_forward = {
    {"Module.fc1.Linear.forward.0", true, false}, {"Functional.linear.0.forward", true, false},
    {"Functional.linear.0.forward", false, true}, {"Module.fc1.Linear.forward.0", false, true},
    {"Functional.relu.0.forward", true, false},   {"Functional.relu.0.forward", false, true},
    {"Module.fc2.Linear.forward.0", true, false}, {"Functional.linear.1.forward", true, false},
    {"Functional.linear.1.forward", false, true}, {"Module.fc2.Linear.forward.0", false, true},
    {"Functional.linear.1.backward", false, false}, {"Module.fc2.Linear.backward.0", false, false},
    {"Functional.linear.0.backward", false, false}};

std::vector<Ev> only_api(const std::vector<Ev>& events) {
  std::vector<Ev> out;
  for (const auto& e : events)
    if (dump::parse_entry_name(e.name).is_api()) out.push_back(e);
  return out;
}

std::vector<Ev> only_modules(const std::vector<Ev>& events) {
  std::vector<Ev> out;
  for (const auto& e : events)
    if (dump::parse_entry_name(e.name).is_module()) out.push_back(e);
  return out;
}

}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("no scope keeps everything") {
    auto f = make({}, Level::mix);
    CHECK_FALSE(f.active());
    CHECK(replay(f, k_forward).size() == k_forward.size());
  }

  TEST_CASE("API range: the end API keeps only its inputs, backwards after the range are dropped") {
    auto f = make({"Functional.linear.0.forward", "Functional.linear.1.forward"}, Level::L1);
    CHECK(f.kind() == ScopeFilter::Kind::api_range);
    CHECK(replay(f, only_api(k_forward)) ==
          std::vector<std::string>{"Functional.linear.0.forward:i", "Functional.linear.0.forward:o",
                                   "Functional.relu.0.forward:i", "Functional.relu.0.forward:o",
                                   "Functional.linear.1.forward:i"});
  }

  TEST_CASE("API range over backward names") {
    auto f = make({"Functional.linear.1.backward", "Functional.linear.0.backward"}, Level::L1);
    CHECK(replay(f, only_api(k_forward)) ==
          std::vector<std::string>{"Functional.linear.1.backward:-", "Functional.linear.0.backward:-"});
  }

  TEST_CASE("a single name is the range [name, name]: each of its events opens and closes it") {
    auto f = make({"Functional.relu.0.forward"}, Level::L1);
    CHECK(f.start() == f.end());
    CHECK(replay(f, only_api(k_forward)) ==
          std::vector<std::string>{"Functional.relu.0.forward:i", "Functional.relu.0.forward:o"});
  }

  TEST_CASE("module range: from the start module's pre-hook to the end module's forward hook") {
    auto f = make({"Module.fc1.Linear.forward.0", "Module.fc2.Linear.forward.0"}, Level::L0);
    CHECK(f.kind() == ScopeFilter::Kind::module_range);
    CHECK(replay(f, only_modules(k_forward)) ==
          std::vector<std::string>{"Module.fc1.Linear.forward.0:i", "Module.fc1.Linear.forward.0:o",
                                   "Module.fc2.Linear.forward.0:i", "Module.fc2.Linear.forward.0:o"});
  }

  TEST_CASE("module range of one module keeps exactly that module") {
    auto f = make({"Module.fc2.Linear.forward.0", "Module.fc2.Linear.forward.0"}, Level::L0);
    CHECK(replay(f, only_modules(k_forward)) ==
          std::vector<std::string>{"Module.fc2.Linear.forward.0:i", "Module.fc2.Linear.forward.0:o"});
  }

  TEST_CASE("a module backward opens and closes around its own event") {
    auto f = make({"Module.fc2.Linear.backward.0", "Module.fc2.Linear.backward.0"}, Level::L0);
    CHECK(replay(f, only_modules(k_forward)) == std::vector<std::string>{"Module.fc2.Linear.backward.0:-"});
  }

  TEST_CASE("mix range from a module to an API: everything in between, the end API's inputs") {
    auto f = make({"Module.fc1.Linear.forward.0", "Functional.relu.0.forward"}, Level::mix);
    CHECK(f.kind() == ScopeFilter::Kind::mix_range);
    CHECK(replay(f, k_forward) ==
          std::vector<std::string>{"Module.fc1.Linear.forward.0:i", "Functional.linear.0.forward:i",
                                   "Functional.linear.0.forward:o", "Module.fc1.Linear.forward.0:o",
                                   "Functional.relu.0.forward:i"});
  }

  TEST_CASE("mix range ending at a module: its check closes the range at its pre-hook (msprobe's quirk)") {
    auto f = make({"Functional.relu.0.forward", "Module.fc2.Linear.forward.0"}, Level::mix);
    CHECK(replay(f, k_forward) ==
          std::vector<std::string>{"Functional.relu.0.forward:i", "Functional.relu.0.forward:o",
                                   "Module.fc2.Linear.forward.0:i"});
  }

  TEST_CASE("names are validated per level") {
    auto module_at_l1 = ScopeFilter::create({"Module.fc1.Linear.forward.0", "Functional.relu.0.forward"}, Level::L1);
    REQUIRE_FALSE(module_at_l1);
    CHECK(module_at_l1.error().message ==
          "scope [\"Module.fc1.Linear.forward.0\", \"Functional.relu.0.forward\"]: \"Module.fc1.Linear.forward.0\" "
          "is not an API entry name (expected e.g. \"Functional.linear.0.forward\" at level L1)");
    auto api_at_l0 = ScopeFilter::create({"Module.fc1.Linear.forward.0", "Functional.relu.0.forward"}, Level::L0);
    REQUIRE_FALSE(api_at_l0);
    CHECK(api_at_l0.error().message.find("\"Functional.relu.0.forward\" is not a module entry name") !=
          std::string::npos);
    auto junk = ScopeFilter::create({"relu", "Functional.relu.0.forward"}, Level::mix);
    REQUIRE_FALSE(junk);
    CHECK(junk.error().message.find("\"relu\" is neither an API nor a module entry name") != std::string::npos);
    auto three = ScopeFilter::create({"Functional.relu.0.forward", "Functional.relu.1.forward",
                                      "Functional.relu.2.forward"},
                                     Level::L1);
    REQUIRE_FALSE(three);
    CHECK(three.error().message.find("expected one or two entry names") != std::string::npos);
  }
}
