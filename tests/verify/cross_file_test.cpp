#include "verify/cross_file.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace msdump;
using namespace msdump::verify;

TEST_SUITE("msdump::verify") {
  TEST_CASE("dump names: each name is added once, in order, also past the table's growth") {
    DumpNames names;
    CHECK_FALSE(names.contains("x"));
    names.prefetch(DumpNames::hash_of("x"));  // (an empty table: nothing to load)
    for (int i = 0; i < 5000; ++i) CHECK(names.add("Functional.relu." + std::to_string(i) + ".forward"));
    CHECK_FALSE(names.add("Functional.relu.17.forward"));
    std::string moved = "Functional.relu.4999.forward";
    CHECK_FALSE(names.add(std::move(moved), DumpNames::hash_of("Functional.relu.4999.forward")));
    CHECK(moved == "Functional.relu.4999.forward");  // not added: not moved from
    std::string fresh = "Module.fc.Linear.forward.0";
    const auto hash = DumpNames::hash_of(fresh);
    names.prefetch(hash);
    CHECK(names.add(std::move(fresh), hash));
    CHECK(names.contains("Module.fc.Linear.forward.0"));
    CHECK(names.contains("Functional.relu.0.forward"));
    CHECK_FALSE(names.contains("Functional.relu.5000.forward"));
    REQUIRE(names.in_order.size() == 5001);
    CHECK(names.in_order[1234] == "Functional.relu.1234.forward");
    CHECK(names.in_order.back() == "Module.fc.Linear.forward.0");
  }

  TEST_CASE("stack.json and construct.json: un-numbered parameters_grad names are names, without stacks or nodes") {
    const auto dir = std::filesystem::temp_directory_path() / "msdump-cross-file-grads";
    std::filesystem::create_directories(dir);
    DumpNames names;
    names.level = Level::L0;
    names.level_known = true;
    names.forward_inputs = true;
    names.add("Module.fc.Linear.forward.0");
    names.add("Module.fc.Linear.parameters_grad");
    names.add("Module.fc.Linear.backward.0");
    auto write = [&](const char* file, const std::string& text) {
      std::ofstream(dir / file) << text;
      return (dir / file).string();
    };
    FindingSink sink({}, 0);
    // construct.json needs no node for a parameters_grad entry, in either form.
    check_construct_json(write("construct.json", R"({"Module.fc.Linear.forward.0": null})"), names, sink);
    CHECK(sink.findings().empty());
    // A stack for it is a stack for a non-forward entry, not an unknown name.
    check_stack_json(write("stack.json", R"({"0": [["Module.fc.Linear.forward.0", "Module.fc.Linear.parameters_grad"], []]})"),
                     names, sink);
    REQUIRE(sink.findings().size() == 1);
    CHECK(sink.findings()[0].entry == "Module.fc.Linear.parameters_grad");
    CHECK(sink.findings()[0].message.find("non-forward entry") != std::string::npos);
    std::filesystem::remove_all(dir);
  }
}
