#include "schema/schema_validator.h"

#include <optional>

#include "pyjson/json_reader.h"
#include "schema/compiled_schema.h"
#include "schema/embedded_schemas.h"

namespace msdump::schema {

struct SchemaValidator::Impl {
  CompiledSchema compiled;
};

SchemaValidator::SchemaValidator(std::string name, std::unique_ptr<Impl> impl)
    : m_name(std::move(name)), m_impl(std::move(impl)) {}
SchemaValidator::SchemaValidator(SchemaValidator&&) noexcept = default;
SchemaValidator& SchemaValidator::operator=(SchemaValidator&&) noexcept = default;
SchemaValidator::~SchemaValidator() = default;

Result<SchemaValidator> SchemaValidator::create(std::string_view name, std::string_view sub_pointer) {
  const std::optional<std::string_view> text = embedded_schema(name);
  if (!text) {
    std::string known;
    for (const EmbeddedSchema& s : embedded_schemas()) known += (known.empty() ? "" : ", ") + std::string(s.name);
    return invalid_input("unknown schema '" + std::string(name) + "' (known: " + known + ")");
  }
  return from_text(name, *text, sub_pointer);
}

Result<SchemaValidator> SchemaValidator::from_text(std::string_view name, std::string_view schema_text,
                                                   std::string_view sub_pointer) {
  const std::string context = "schema '" + std::string(name) + "'";
  auto document = pyjson::parse_json(schema_text);
  if (!document) return document.error().with_context(context);
  if (!sub_pointer.empty() && sub_pointer[0] == '#') sub_pointer.remove_prefix(1);
  auto compiled = CompiledSchema::compile(*document, sub_pointer);
  if (!compiled) return compiled.error().with_context(context);
  return SchemaValidator(std::string(name), std::make_unique<Impl>(Impl{std::move(*compiled)}));
}

bool SchemaValidator::validate_into(const pyjson::Value& value, std::string_view pointer_prefix,
                                    std::vector<Violation>& out) const {
  return m_impl->compiled.validate(value, pointer_prefix, out);
}

std::vector<Violation> SchemaValidator::validate(const pyjson::Value& value, std::string_view pointer_prefix) const {
  std::vector<Violation> out;
  validate_into(value, pointer_prefix, out);
  return out;
}

bool SchemaValidator::is_valid(const pyjson::Value& value) const { return m_impl->compiled.is_valid(value); }

}  // namespace msdump::schema
