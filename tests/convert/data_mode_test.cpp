#include "convert/data_mode.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::convert;
using dump::EntryKind;

TEST_SUITE("msdump::convert") {
  TEST_CASE("all keeps every section") {
    auto m = DataMode::parse({"all"});
    REQUIRE(m);
    CHECK(m->keeps_section(EntryKind::api_forward, "input_args"));
    CHECK(m->keeps_section(EntryKind::module_backward, "output"));
    CHECK(m->keeps_parameters_grad());
  }
  TEST_CASE("forward + output keeps outputs and parameters of forwards only") {
    auto m = DataMode::parse({"forward", "output"});
    REQUIRE(m);
    CHECK(m->keeps_section(EntryKind::module_forward, "output"));
    CHECK(m->keeps_section(EntryKind::module_forward, "parameters"));
    CHECK_FALSE(m->keeps_section(EntryKind::module_forward, "input_args"));
    CHECK_FALSE(m->keeps_section(EntryKind::api_backward, "output"));
    CHECK_FALSE(m->keeps_parameters_grad());
  }
  TEST_CASE("input alone keeps forward inputs and backward input") {
    auto m = DataMode::parse({"input"});
    REQUIRE(m);
    CHECK(m->keeps_section(EntryKind::api_forward, "input_kwargs"));
    CHECK(m->keeps_section(EntryKind::api_backward, "input"));
    CHECK_FALSE(m->keeps_section(EntryKind::api_backward, "output"));
    CHECK(m->keeps_parameters_grad());
  }
  TEST_CASE("parameters_grad survives any data_mode that has backward") {
    auto m = DataMode::parse({"backward"});
    REQUIRE(m);
    CHECK(m->keeps_section(EntryKind::parameters_grad, "weight"));
    CHECK_FALSE(m->keeps_section(EntryKind::api_forward, "output"));
  }
  TEST_CASE("bad values") {
    auto m = DataMode::parse({"all", "forward"});
    REQUIRE_FALSE(m);
    CHECK(m.error().message == "data_mode: \"all\" must be given alone");
    m = DataMode::parse({"sideways"});
    REQUIRE_FALSE(m);
    CHECK(m.error().message == "data_mode: unknown value \"sideways\" (expected all, forward, backward, input, output)");
  }
}
