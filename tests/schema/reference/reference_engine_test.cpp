// The reference validator (valijson) on its own: every embedded schema and its streaming
// sub-schemas compile with it, every real msprobe file under testdata/msprobe validates clean
// (as tests/schema/samples_validate_test.cpp checks with the compiled engine), a schema defect
// is reported as the compiled engine reports it, and violations name the innermost failure.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reference_validator.h"
#include "schema/embedded_schemas.h"
#include "schema/schema_choice.h"
#include "../schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;
using namespace msdump::schema::testing;

TEST_SUITE("msdump::schema") {
  TEST_CASE("every embedded schema and its streaming sub-schemas compile with valijson") {
    for (const EmbeddedSchema& s : embedded_schemas()) {
      CAPTURE(s.name);
      std::vector<std::string> pointers = {""};
      if (s.name.substr(0, 5) == "dump-") pointers = {"", std::string(k_header_pointer), std::string(k_entry_pointer)};
      if (s.name == "trace") pointers = {"", "/definitions/header", "/definitions/event"};
      for (const std::string& p : pointers) {
        CAPTURE(p);
        auto v = ReferenceValidator::create(s.name, p);
        CHECK_MESSAGE(v, (v ? std::string() : v.error().message));
      }
    }
  }

  TEST_CASE("every sample dump/stack/construct file validates against its schema with valijson") {
    const auto files = sample_files();
    REQUIRE(files.size() >= 80);
    for (const SampleFile& f : files) {
      CAPTURE(f.path.string());
      auto validator = ReferenceValidator::create(f.schema);
      REQUIRE(validator);
      const auto violations = validator->validate(parse_file(f.path));
      CHECK_MESSAGE(violations.empty(), (violations.empty() ? std::string()
                                                              : violations[0].instance_pointer + ": " + violations[0].message));
    }
  }

  TEST_CASE("unknown schemas and sub-schema pointers fail as with the compiled engine") {
    auto a = ReferenceValidator::create("dump-tensorflow");
    REQUIRE_FALSE(a);
    CHECK(a.error().message.starts_with("unknown schema 'dump-tensorflow' (known: construct, "));
    auto b = ReferenceValidator::create("stack", "/definitions/nope");
    REQUIRE_FALSE(b);
    CHECK(b.error().message == "schema 'stack': no sub-schema at '/definitions/nope'");
    CHECK(ReferenceValidator::create("stack", "#/definitions/frames"));
  }

  TEST_CASE("a violation names the innermost failure, not its enclosing values") {
    auto v = ReferenceValidator::create("stack");
    REQUIRE(v);
    const auto violations = v->validate(parse(R"({"Module.fc.Linear.forward.0": [7]})"), "");
    REQUIRE_FALSE(violations.empty());
    for (const Violation& x : violations) {
      CAPTURE(x.message);
      CHECK(x.instance_pointer == "/Module.fc.Linear.forward.0/0");
      CHECK(x.schema_pointer.empty());
    }
    CHECK(v->is_valid(parse(R"({"Module.fc.Linear.forward.0": ["File a.py, line 1, in f, \n x"]})")));
  }
}
