#include "dump/match_key.h"

#include <doctest/doctest.h>

using namespace msdump::dump;

TEST_SUITE("msdump::dump") {
  TEST_CASE("match keys: backward counters become the op's backward order, per dump") {
    MatchKeys keys;
    CHECK(keys.key("Functional.linear.4.forward") == "Functional.linear.4.forward");
    CHECK(keys.key("Functional.linear.4.backward") == "Functional.linear.0.backward");
    CHECK(keys.key("Functional.linear.2.backward") == "Functional.linear.1.backward");
    CHECK(keys.key("Tensor.__mul__.3.backward") == "Tensor.__mul__.0.backward");
    CHECK(keys.key("Functional.linear.9.backward") == "Functional.linear.2.backward");
    MatchKeys other;  // a second dump counts on its own
    CHECK(other.key("Functional.linear.9.backward") == "Functional.linear.0.backward");
  }
  TEST_CASE("match keys: module backward entries keep their module form") {
    MatchKeys keys;
    CHECK(keys.key("Module.conv1.Conv2d.forward.3") == "Module.conv1.Conv2d.forward.3");
    CHECK(keys.key("Module.conv1.Conv2d.backward.3") == "Module.conv1.Conv2d.backward.0");
    CHECK(keys.key("Module.conv1.Conv2d.backward.1") == "Module.conv1.Conv2d.backward.1");
    CHECK(keys.key("Module.conv2.Conv2d.backward.7") == "Module.conv2.Conv2d.backward.0");
  }
  TEST_CASE("match keys: parameters_grad, debug and unknown names are kept") {
    MatchKeys keys;
    CHECK(keys.key("Module.fc1.Linear.parameters_grad.2") == "Module.fc1.Linear.parameters_grad.2");
    CHECK(keys.key("Module.fc1.Linear.parameters_grad") == "Module.fc1.Linear.parameters_grad");
    CHECK(keys.key("x.0.debug") == "x.0.debug");
    CHECK(keys.key("not.a.backward") == "not.a.backward");
    CHECK(keys.key("backward") == "backward");
  }
}
