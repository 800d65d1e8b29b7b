// Every real msprobe file under testdata/msprobe validates clean against the schema of its
// framework/profile, as a whole document and entry by entry (the streaming sub-schemas); and a
// legacy dump is not a current one. (valijson's verdict on the same files:
// tests/schema/reference/reference_engine_test.cpp.)

#include <doctest/doctest.h>

#include <string>

#include "schema/schema_choice.h"
#include "schema/schema_validator.h"
#include "schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;
using namespace msdump::schema::testing;

namespace {

std::string first_violations(const std::vector<Violation>& vs) {
  std::string out;
  for (std::size_t i = 0; i < vs.size() && i < 5; ++i) out += vs[i].instance_pointer + ": " + vs[i].message + "\n";
  return out;
}

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("every sample dump/stack/construct file validates against its schema") {
    const auto files = sample_files();
    REQUIRE(files.size() >= 80);
    for (const SampleFile& f : files) {
      CAPTURE(f.path.string());
      auto validator = SchemaValidator::create(f.schema);
      REQUIRE(validator);
      const auto violations = validator->validate(parse_file(f.path));
      CHECK_MESSAGE(violations.empty(), first_violations(violations));
    }
  }

  TEST_CASE("sample dumps validate entry by entry with the header and entry sub-schemas") {
    int dumps = 0;
    for (const SampleFile& f : sample_files()) {
      if (f.path.filename() != "dump.json") continue;
      CAPTURE(f.path.string());
      ++dumps;
      auto header = SchemaValidator::create(f.schema, k_header_pointer);
      auto entry = SchemaValidator::create(f.schema, k_entry_pointer);
      REQUIRE(header);
      REQUIRE(entry);
      pyjson::Value doc = parse_file(f.path);
      pyjson::Value* data = doc.find("data");
      REQUIRE(data != nullptr);
      pyjson::Object entries = std::move(data->as_object());
      data->as_object().clear();
      CHECK(header->validate(doc).empty());
      for (pyjson::Member& m : entries) {
        pyjson::Value one = pyjson::Value::object();
        one.add(m.key, std::move(m.value));
        const auto violations = entry->validate(one, "/data");
        CHECK_MESSAGE(violations.empty(), first_violations(violations));
      }
    }
    CHECK(dumps >= 28);
  }

  TEST_CASE("a legacy-profile sample is not a current-profile dump") {
    for (const SampleFile& f : sample_files()) {
      if (f.schema != "dump-pytorch-legacy") continue;
      auto current = SchemaValidator::create("dump-pytorch-current");
      REQUIRE(current);
      const auto violations = current->validate(parse_file(f.path));
      REQUIRE_FALSE(violations.empty());
      CHECK(violations[0].instance_pointer == "/data/Functional.conv2d.0.forward/is_recompute");
      CHECK(violations[0].schema_pointer == "/definitions/api_forward_entry/additionalProperties");
      CHECK(violations[0].message == "property \"is_recompute\" is not allowed");
      return;
    }
    FAIL("no legacy-profile dump.json under " << msdump::testing::samples_dir().string());
  }
}
