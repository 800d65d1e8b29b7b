#include "convert/entry_order.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace msdump;
using namespace msdump::convert;

namespace {
std::vector<std::string> names(const EntryOrder& o) {
  std::vector<std::string> out;
  for (const auto& e : o.entries()) out.emplace_back(e.name);
  return out;
}
EventRef ref(std::uint64_t line) { return EventRef{line, line * 10, 5}; }
}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("current profile: a Module entry moves to the end when updated, APIs stay") {
    EntryOrder o(Profile::current);
    o.add("Module.fc.Linear.forward.0", ref(1), true, false);   // pre-hook: inputs
    o.add("Functional.linear.0.forward", ref(2), false, false);
    o.add("Functional.linear.0.forward", ref(3), false, true);  // output: stays
    o.add("Module.fc.Linear.forward.0", ref(4), true, true);    // output: moves
    CHECK(names(o) == std::vector<std::string>{"Functional.linear.0.forward", "Module.fc.Linear.forward.0"});
    CHECK(o.entries().back().events.size() == 2);
    CHECK(o.entries().back().events[1].line == 4);
  }
  TEST_CASE("current profile: parameters_grad moves with every parameter, Cell entries do not") {
    EntryOrder o(Profile::current);
    o.add("Module.fc.Linear.parameters_grad.0", ref(1), false, false);
    o.add("Module.fc.Linear.backward.0", ref(2), false, false);
    o.add("Module.fc.Linear.parameters_grad.0", ref(3), false, false);
    o.add("Cell.a.A.parameters_grad.0", ref(4), false, false);
    o.add("Cell.a.A.backward.0", ref(5), false, false);
    o.add("Cell.a.A.parameters_grad.0", ref(6), false, false);
    CHECK(names(o) == std::vector<std::string>{"Module.fc.Linear.backward.0", "Module.fc.Linear.parameters_grad.0",
                                               "Cell.a.A.parameters_grad.0", "Cell.a.A.backward.0"});
  }
  TEST_CASE("legacy profile: module forwards land at their output, parameters_grad at first arrival") {
    EntryOrder o(Profile::legacy);
    o.add("Module.fc.Linear.forward.0", ref(1), true, false);
    o.add("Functional.linear.0.forward", ref(2), false, true);
    o.add("Module.fc.Linear.forward.0", ref(3), true, true);
    o.add("Module.fc.Linear.parameters_grad.0", ref(4), false, false);
    o.add("Module.fc.Linear.backward.0", ref(5), false, false);
    o.add("Module.fc.Linear.parameters_grad.0", ref(6), false, false);
    CHECK(names(o) == std::vector<std::string>{"Functional.linear.0.forward", "Module.fc.Linear.forward.0",
                                               "Module.fc.Linear.parameters_grad.0", "Module.fc.Linear.backward.0"});
  }
}
