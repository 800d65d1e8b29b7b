#include "schema/embedded_schemas.h"

#include <doctest/doctest.h>

#include <string>

#include "schema/schema_choice.h"
#include "schema/schema_validator.h"
#include "schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;

TEST_SUITE("msdump::schema") {
  TEST_CASE("every schema file is embedded, sorted, and equal to the file") {
    std::vector<std::string> names;
    for (const EmbeddedSchema& s : embedded_schemas()) names.emplace_back(s.name);
    CHECK(names == std::vector<std::string>{"construct", "dump-mindspore", "dump-mindtorch", "dump-pytorch-current",
                                            "dump-pytorch-legacy", "stack", "trace"});
    for (const EmbeddedSchema& s : embedded_schemas()) {
      CAPTURE(s.name);
      const auto file = msdump::testing::source_dir() / "schemas" / (std::string(s.name) + ".schema.json");
      CHECK(s.text == msdump::testing::slurp(file));
    }
    CHECK(embedded_schema("stack").has_value());
    CHECK_FALSE(embedded_schema("nope").has_value());
  }

  TEST_CASE("schema_name_for picks the dump schema by framework and profile") {
    CHECK(schema_name_for(Framework::pytorch, Profile::current) == "dump-pytorch-current");
    CHECK(schema_name_for(Framework::pytorch, Profile::legacy) == "dump-pytorch-legacy");
    CHECK(schema_name_for(Framework::mindspore, Profile::current) == "dump-mindspore");
    CHECK(schema_name_for(Framework::mindspore, Profile::legacy) == "dump-mindspore");
    CHECK(schema_name_for(Framework::mindtorch, Profile::legacy) == "dump-mindtorch");
  }

  TEST_CASE("every embedded schema and its streaming sub-schemas compile") {
    for (const EmbeddedSchema& s : embedded_schemas()) {
      CAPTURE(s.name);
      std::vector<std::string> pointers = {""};
      if (s.name.substr(0, 5) == "dump-") pointers = {"", std::string(k_header_pointer), std::string(k_entry_pointer)};
      if (s.name == "trace") pointers = {"", "/definitions/header", "/definitions/event"};
      for (const std::string& p : pointers) {
        CAPTURE(p);
        auto v = SchemaValidator::create(s.name, p);
        CHECK_MESSAGE(v, (v ? std::string() : v.error().message));
      }
    }
  }

  TEST_CASE("unknown schema names and sub-schema pointers are errors") {
    auto a = SchemaValidator::create("dump-tensorflow");
    REQUIRE_FALSE(a);
    CHECK(a.error().message ==
          "unknown schema 'dump-tensorflow' (known: construct, dump-mindspore, dump-mindtorch, dump-pytorch-current, "
          "dump-pytorch-legacy, stack, trace)");
    auto b = SchemaValidator::create("stack", "/definitions/nope");
    REQUIRE_FALSE(b);
    CHECK(b.error().message == "schema 'stack': no sub-schema at '/definitions/nope'");
    auto c = SchemaValidator::create("stack", "#/definitions/frames");
    CHECK(c);
  }
}
