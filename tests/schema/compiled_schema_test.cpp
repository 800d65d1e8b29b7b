#include "schema/compiled_schema.h"

#include <doctest/doctest.h>

#include <string>

#include "schema/schema_validator.h"
#include "schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;
using msdump::schema::testing::parse;

namespace {

// "instance | schema | message" lines of validating `instance` against `schema`.
std::vector<std::string> violations(std::string_view schema, std::string_view instance) {
  auto v = SchemaValidator::from_text("t", schema);
  REQUIRE_MESSAGE(v, (v ? std::string() : v.error().message));
  std::vector<std::string> out;
  for (const Violation& x : v->validate(parse(instance))) {
    out.push_back(x.instance_pointer + " | " + x.schema_pointer + " | " + x.message);
  }
  CHECK(v->is_valid(parse(instance)) == out.empty());
  return out;
}

std::string compile_error(std::string_view schema) {
  auto v = SchemaValidator::from_text("t", schema);
  return v ? "OK" : v.error().message;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("compiled schema: types keep Python's int/float split") {
    CHECK(violations(R"({"type": "integer"})", "3").empty());
    CHECK(violations(R"({"type": "integer"})", "3.0") == Lines{" | /type | expected integer, got float"});
    CHECK(violations(R"({"type": "integer"})", "123456789012345678901234567890").empty());
    CHECK(violations(R"({"type": "number"})", "NaN").empty());
    CHECK(violations(R"({"type": ["null", "string"]})", "[]") == Lines{" | /type | expected null or string, got array"});
  }

  TEST_CASE("compiled schema: every violation is reported, with escaped JSON Pointers") {
    const char* schema = R"({
      "type": "object",
      "required": ["a", "b"],
      "properties": {"a/b~c": {"type": "array", "items": {"type": "integer", "minimum": 0}}},
      "additionalProperties": false
    })";
    CHECK(violations(schema, R"({"a/b~c": [1, -2, "x"], "z": 1})") ==
          Lines{" | /required | missing required property \"a\"",
                " | /required | missing required property \"b\"",
                "/a~1b~0c/1 | /properties/a~1b~0c/items/minimum | -2 is less than the minimum 0",
                "/a~1b~0c/2 | /properties/a~1b~0c/items/type | expected integer, got string",
                "/z | /additionalProperties | property \"z\" is not allowed"});
  }

  TEST_CASE("compiled schema: enum, const, pattern, lengths, counts, dependencies") {
    CHECK(violations(R"({"enum": ["a", 1, null]})", "1.0").empty());
    CHECK(violations(R"({"enum": ["a", 1, null]})", "\"b\"") ==
          Lines{" | /enum | \"b\" is not one of the allowed values: \"a\", 1, null"});
    CHECK(violations(R"({"const": "pytorch"})", "\"mindspore\"") == Lines{" | /const | expected \"pytorch\", got \"mindspore\""});
    CHECK(violations(R"({"pattern": "^[0-9a-f]{8}$"})", "\"xyz\"") ==
          Lines{" | /pattern | \"xyz\" does not match the pattern ^[0-9a-f]{8}$"});
    CHECK(violations(R"({"pattern": "^x$"})", "5").empty());  // pattern applies to strings only
    CHECK(violations(R"({"minLength": 2, "maxLength": 3})", "\"\xe4\xb8\xad\"") ==
          Lines{" | /minLength | expected at least 2 characters, got 1"});
    CHECK(violations(R"({"minItems": 1, "maxItems": 1})", "[]") == Lines{" | /minItems | expected at least 1 item, got 0"});
    CHECK(violations(R"({"maxProperties": 1})", R"({"a": 1, "b": 2})") ==
          Lines{" | /maxProperties | expected at most 1 property, got 2"});
    CHECK(violations(R"({"dependencies": {"Max": ["Min", "Mean"]}})", R"({"Max": 1, "Mean": 2})") ==
          Lines{" | /dependencies | property \"Max\" requires property \"Min\""});
    CHECK(violations(R"({"exclusiveMinimum": 0, "maximum": 2.5})", "[0]").empty());
    CHECK(violations(R"({"exclusiveMinimum": 0, "maximum": 2.5})", "0") == Lines{" | /exclusiveMinimum | 0 is not greater than 0"});
    CHECK(violations(R"({"exclusiveMinimum": 0, "maximum": 2.5})", "3") == Lines{" | /maximum | 3 is greater than the maximum 2.5"});
  }

  TEST_CASE("compiled schema: $ref, if/then/else, combinators, propertyNames, tuples") {
    const char* schema = R"({
      "definitions": {"pos": {"type": "integer", "minimum": 1}},
      "type": "object",
      "propertyNames": {"pattern": "^[a-z]+$"},
      "additionalProperties": {"$ref": "#/definitions/pos"},
      "if": {"required": ["kind"]}, "then": {"properties": {"kind": {"const": 1}}}, "else": {"minProperties": 2}
    })";
    CHECK(violations(schema, R"({"kind": 1})").empty());
    CHECK(violations(schema, R"({"kind": 2})") == Lines{"/kind | /then/properties/kind/const | expected 1, got 2"});
    CHECK(violations(schema, R"({"a": 0})") ==
          Lines{"/a | /definitions/pos/minimum | 0 is less than the minimum 1",
                " | /else/minProperties | expected at least 2 properties, got 1"});
    CHECK(violations(schema, R"({"B": 1, "c": 1})") ==
          Lines{"/B | /propertyNames/pattern | property name: \"B\" does not match the pattern ^[a-z]+$"});
    CHECK(violations(R"({"anyOf": [{"type": "string"}, {"type": "integer"}]})", "null") ==
          Lines{" | /anyOf | null matches none of the 2 anyOf alternatives"});
    CHECK(violations(R"({"oneOf": [{"type": "number"}, {"type": "integer"}]})", "1") ==
          Lines{" | /oneOf | 1 matches 2 of the 2 oneOf alternatives, expected exactly 1"});
    CHECK(violations(R"({"not": {"type": "string"}})", "\"s\"") == Lines{" | /not | \"s\" must not match the schema at /not"});
    CHECK(violations(R"({"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false})", R"(["a", 1, 2])") ==
          Lines{"/2 | /additionalItems | no value is allowed here"});
    CHECK(violations(R"({"allOf": [{"minimum": 2}, {"maximum": 0}]})", "1") ==
          Lines{" | /allOf/0/minimum | 1 is less than the minimum 2", " | /allOf/1/maximum | 1 is greater than the maximum 0"});
  }

  TEST_CASE("compiled schema: schema defects are compile errors, never skipped rules") {
    CHECK(compile_error(R"({"format": "uri"})") == "schema 't': unsupported keyword 'format'");
    CHECK(compile_error(R"({"properties": {"a": {"$ref": "#/definitions/nope"}}})") ==
          "schema 't': /properties/a: $ref '#/definitions/nope' does not resolve");
    CHECK(compile_error(R"x({"pattern": "a(?!b)"})x") ==
          "schema 't': pattern 'a(?!b)': lookaround and named groups are not supported (offset 2)");
    CHECK(compile_error(R"({"type": "int"})") == "schema 't': unknown type in 'type'");
    CHECK(compile_error(R"({"minItems": -1})") == "schema 't': 'minItems' must be a non-negative integer");
    CHECK(compile_error("{") == "schema 't': line 1, column 2: unexpected end of input, expected a string key in double quotes or '}'");
  }

  TEST_CASE("compiled schema: recursive references terminate") {
    const char* schema = R"({"definitions": {"v": {"type": ["integer", "array"], "items": {"$ref": "#/definitions/v"}}},
                            "$ref": "#/definitions/v"})";
    CHECK(violations(schema, "[1, [2, [3, [\"x\"]]]]") == Lines{"/1/1/1/0 | /definitions/v/type | expected integer or array, got string"});
  }

  TEST_CASE("compiled schema: string enums, consts and property names match byte for byte at every length") {
    // Strings of 0 to 24 bytes (every word-compare size class), each also with one byte changed
    // at each position: only the listed strings match. Enums of up to 16 strings are searched
    // linearly, larger ones by slots; consts and property names use the same compare.
    std::vector<std::string> words;
    for (std::size_t n = 0; n <= 24; ++n) {
      std::string w;
      for (std::size_t i = 0; i < n; ++i) w += static_cast<char>('a' + (i * 7 + n) % 26);
      words.push_back(w);
    }
    std::string big_enum = R"({"enum": [)", properties = R"({"type": "object", "additionalProperties": false, "properties": {)";
    for (std::size_t i = 0; i < words.size(); ++i) {
      big_enum += (i ? ", \"" : "\"") + words[i] + "\"";
      properties += (i ? ", \"" : "\"") + words[i] + "\": {}";
    }
    big_enum += "]}";
    properties += "}}";
    auto in_enum = SchemaValidator::from_text("t", big_enum);
    auto in_properties = SchemaValidator::from_text("t", properties);
    REQUIRE(in_enum);
    REQUIRE(in_properties);
    for (const std::string& w : words) {
      CAPTURE(w);
      auto one = SchemaValidator::from_text("t", R"({"const": ")" + w + R"("})");
      REQUIRE(one);
      CHECK(one->is_valid(parse("\"" + w + "\"")));
      CHECK(in_enum->is_valid(parse("\"" + w + "\"")));
      CHECK(in_properties->is_valid(parse("{\"" + w + "\": 1}")));
      for (std::size_t i = 0; i < w.size(); ++i) {
        std::string changed = w;
        changed[i] = 'Z';
        CHECK_FALSE(one->is_valid(parse("\"" + changed + "\"")));
        CHECK_FALSE(in_enum->is_valid(parse("\"" + changed + "\"")));
        CHECK_FALSE(in_properties->is_valid(parse("{\"" + changed + "\": 1}")));
      }
      CHECK_FALSE(one->is_valid(parse("\"" + w + "x\"")));
    }
  }
}
