#include "reference_validator.h"

// GCC 12 reports a false -Wrestrict inside valijson's json_pointer.hpp (std::string::replace
// inlined with impossible sizes); it is about library code, in this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#define VALIJSON_USE_EXCEPTIONS 1
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <exception>
#include <string>

#include "pyjson/json_reader.h"
#include "schema/embedded_schemas.h"
#include "schema/schema_validator.h"
#include "valijson_pyjson_adapter.h"

namespace msdump::schema {
namespace {

using valijson_adapter::PyjsonAdapter;

// valijson's messages that only repeat, at an enclosing value, a failure reported deeper.
bool is_echo(const std::string& message) {
  static constexpr std::string_view k_echoes[] = {
      "Failed to validate item #",
      "Failed to validate against schema associated with property name",
      "Failed to validate against additional properties schema",
      "Failed to validate against a conditional schema set by if-then-else constraints.",
      "Failed to validate against child schema #",
      "Failed to validate against pattern property schema",
      "Failed to validate additional item",
      "Failed to validate value for property",
  };
  for (const std::string_view e : k_echoes) {
    if (message.compare(0, e.size(), e) == 0) return true;
  }
  return false;
}

// valijson's context ["<root>", "[data]", "[0]", ...] -> a JSON Pointer. "[0]" is an index or
// a key "0": walking `root` along the path tells which.
std::string to_pointer(const pyjson::Value& root, const std::vector<std::string>& context, std::string_view prefix) {
  std::string pointer(prefix);
  const pyjson::Value* cur = &root;
  for (std::size_t i = 1; i < context.size(); ++i) {
    const std::string& c = context[i];
    const std::string token = c.size() >= 2 && c.front() == '[' && c.back() == ']' ? c.substr(1, c.size() - 2) : c;
    append_pointer_token(pointer, token);
    if (cur == nullptr) continue;
    if (cur->is_array()) {
      const std::size_t index = token.find_first_not_of("0123456789") == std::string::npos && !token.empty()
                                    ? std::stoul(token)
                                    : SIZE_MAX;
      cur = index < cur->as_array().size() ? &cur->as_array()[index] : nullptr;
    } else if (cur->is_object()) {
      cur = cur->find(token);
    } else {
      cur = nullptr;
    }
  }
  return pointer;
}

}  // namespace

struct ReferenceValidator::Impl {
  valijson::Schema schema;
  const valijson::Subschema* root = nullptr;
};

ReferenceValidator::ReferenceValidator(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
ReferenceValidator::ReferenceValidator(ReferenceValidator&&) noexcept = default;
ReferenceValidator& ReferenceValidator::operator=(ReferenceValidator&&) noexcept = default;
ReferenceValidator::~ReferenceValidator() = default;

Result<ReferenceValidator> ReferenceValidator::compile(const pyjson::Value& document, std::string_view pointer) {
  auto impl = std::make_unique<Impl>();
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    if (pointer.empty() || pointer == "/") {
      parser.populateSchema(PyjsonAdapter(document), impl->schema);
      impl->root = impl->schema.root();
    } else {
      // A sub-schema: the whole document plus a root "$ref": "#<pointer>" (draft 7 ignores the
      // siblings of $ref), so references inside the sub-schema resolve against the document.
      if (!document.is_object()) return invalid_input("no sub-schema at '" + std::string(pointer) + "'");
      pyjson::Value doc = document;
      doc.add("$ref", pyjson::Value::string("#" + std::string(pointer)));
      parser.populateSchema(PyjsonAdapter(doc), impl->schema);
      impl->root = impl->schema.root();
    }
  } catch (const std::exception& e) {
    return invalid_input(std::string("valijson: ") + e.what());
  }
  return ReferenceValidator(std::move(impl));
}

Result<ReferenceValidator> ReferenceValidator::create(std::string_view name, std::string_view sub_pointer) {
  auto check = SchemaValidator::create(name, sub_pointer);
  if (!check) return check.error();
  const std::string context = "schema '" + std::string(name) + "'";
  auto document = pyjson::parse_json(*embedded_schema(name));
  if (!document) return document.error().with_context(context);
  if (!sub_pointer.empty() && sub_pointer[0] == '#') sub_pointer.remove_prefix(1);
  auto reference = compile(*document, sub_pointer);
  if (!reference) return reference.error().with_context(context);
  return reference;
}

bool ReferenceValidator::validate_into(const pyjson::Value& value, std::string_view prefix,
                                       std::vector<Violation>& out) const {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  const PyjsonAdapter target(value);
  const bool ok = validator.validate(*m_impl->root, target, &results);
  if (ok) return true;
  valijson::ValidationResults::Error error;
  std::vector<Violation> found;
  while (results.popError(error)) {
    if (is_echo(error.description)) continue;
    found.push_back(Violation{to_pointer(value, error.context, prefix), "", error.description});
  }
  if (found.empty()) found.push_back(Violation{std::string(prefix), "", "value does not match the schema"});
  for (Violation& v : found) out.push_back(std::move(v));
  return false;
}

std::vector<Violation> ReferenceValidator::validate(const pyjson::Value& value, std::string_view prefix) const {
  std::vector<Violation> out;
  validate_into(value, prefix, out);
  return out;
}

bool ReferenceValidator::is_valid(const pyjson::Value& value) const {
  std::vector<Violation> ignored;
  return validate_into(value, "", ignored);
}

}  // namespace msdump::schema
