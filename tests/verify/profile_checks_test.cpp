#include "verify/profile_checks.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::dump;
using namespace msdump::verify;

namespace {

std::vector<Finding> run(const ProfileEvidence& ev, std::optional<Profile> given) {
  FindingSink sink({}, 0);
  sink.set_location("dump.json", 0);
  check_profile_evidence(ev, given, sink);
  return sink.findings();
}

}  // namespace

TEST_SUITE("msdump::verify") {
  TEST_CASE("profile evidence of one generation: no finding") {
    ProfileEvidence legacy;
    legacy.note(signal_is_recompute, "Functional.relu.0.forward", 5);
    legacy.note(signal_unnumbered_grad, "Module.fc.Linear.parameters_grad", 50);
    CHECK(run(legacy, std::nullopt).empty());
    CHECK(run(legacy, Profile::legacy).empty());
    ProfileEvidence none;
    none.note(signal_no_is_recompute | signal_numbered_grad, "Module.fc.Linear.forward.0", 5);
    CHECK(run(none, std::nullopt).empty());
    CHECK(run(none, Profile::current).empty());
    CHECK(run(none, Profile::legacy).empty());
  }
  TEST_CASE("auto: both profiles' forms in one file point at the minority's first entry") {
    ProfileEvidence ev;
    ev.note(signal_is_recompute, "Functional.relu.0.forward", 5);
    ev.note(signal_is_recompute, "Functional.relu.1.forward", 20);
    ev.note(signal_no_is_recompute | signal_native_int_stats, "Functional.cross_entropy.0.forward", 40);
    const auto f = run(ev, std::nullopt);
    REQUIRE(f.size() == 2);
    CHECK(f[0].kind == FindingKind::profile);
    CHECK(f[0].entry == "Functional.cross_entropy.0.forward");
    CHECK(f[0].line == 40);
    CHECK(f[0].pointer == "/data/Functional.cross_entropy.0.forward");
    CHECK(f[0].expected == "legacy forms only (the majority)");
    CHECK(f[0].message.find("is_recompute in a forward entry (2 entries, first Functional.relu.0.forward, line 5)") !=
          std::string::npos);
    // ... and is_recompute in two forward entries out of three.
    CHECK(f[1].kind == FindingKind::profile);
    CHECK(f[1].entry == "Functional.cross_entropy.0.forward");
    CHECK(f[1].actual == "no is_recompute");
  }
  TEST_CASE("a given profile: the other profile's forms are one finding") {
    ProfileEvidence ev;
    ev.note(signal_numbered_grad, "Module.a.A.parameters_grad.0", 3);
    ev.note(signal_unnumbered_grad, "Module.fc.Linear.parameters_grad", 9);
    const auto f = run(ev, Profile::current);
    REQUIRE(f.size() == 2);
    CHECK(f[0].kind == FindingKind::profile);
    CHECK(f[0].entry == "Module.fc.Linear.parameters_grad");
    CHECK(f[0].message.find("legacy-profile forms in a dump verified as current (--profile current)") == 0);
    CHECK(f[1].kind == FindingKind::name);  // the mix of the two grad forms
    CHECK(f[1].entry == "Module.fc.Linear.parameters_grad");
    CHECK(f[1].line == 9);
    CHECK(f[1].expected == "<...>.parameters_grad.<k>");
    CHECK(run(ev, Profile::legacy).size() == 1);
  }
}
