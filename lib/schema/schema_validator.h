#pragma once
// SchemaValidator: validates pyjson values against one embedded JSON Schema (or one of its
// sub-schemas), reporting every violation with its JSON Pointers.
//
//   auto v = SchemaValidator::create(schema_name_for(Framework::pytorch, Profile::current));
//   if (!v) return v.error();
//   for (const Violation& x : v->validate(document)) ...   // all violations, document order
//
// Streaming a large dump (schemas/README.md): compile the entry sub-schema once and validate
// each entry wrapped as {name: entry}, with the prefix "/data":
//
//   auto entry = SchemaValidator::create("dump-pytorch-current", k_entry_pointer);
//   pyjson::Value one = pyjson::Value::object();
//   one.add(std::move(event.key), std::move(event.value));
//   auto violations = entry->validate(one, "/data");   // "/data/<name>/input_args/0/shape/1"
//
// The validator is the compiled engine (compiled_schema.h; docs/performance.md "Schema: compiled
// once, compiled validator"). The tests check it against an independent implementation,
// valijson (tests/schema/reference/, test-only).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "pyjson/json_value.h"
#include "schema/violation.h"

namespace msdump::schema {

class SchemaValidator {
 public:
  // Compiles the embedded schema `name` ("dump-pytorch-current", "stack", ...), or its
  // sub-schema at JSON Pointer `sub_pointer` ("/definitions/entry"; "" = the whole schema;
  // a leading "#" is accepted). Fails (ErrorCode::invalid_input) on an unknown name
  // ("unknown schema 'dump-tensorflow' (known: construct, dump-mindspore, ...)") or pointer
  // ("schema 'stack': no sub-schema at '/definitions/nope'").
  static Result<SchemaValidator> create(std::string_view name, std::string_view sub_pointer = "");

  // Compiles a schema given as text (tests, user-supplied schemas); `name` is used in errors.
  // Fails on JSON syntax errors ("schema 'x': line 1, column 2: ...") and as create().
  static Result<SchemaValidator> from_text(std::string_view name, std::string_view schema_text,
                                           std::string_view sub_pointer = "");

  SchemaValidator(SchemaValidator&&) noexcept;
  SchemaValidator& operator=(SchemaValidator&&) noexcept;
  ~SchemaValidator();

  // Every violation of `value`, in document order; empty when valid. Instance pointers start
  // with `pointer_prefix` ("" = `value` is the document root).
  std::vector<Violation> validate(const pyjson::Value& value, std::string_view pointer_prefix = "") const;

  // Appends the violations of `value` to `out` (no allocation when valid); returns validity.
  bool validate_into(const pyjson::Value& value, std::string_view pointer_prefix, std::vector<Violation>& out) const;

  // Whether `value` is valid; stops at the first violation and builds no
  // messages, so it is the fastest check.
  bool is_valid(const pyjson::Value& value) const;

  const std::string& name() const { return m_name; }

 private:
  struct Impl;
  SchemaValidator(std::string name, std::unique_ptr<Impl> impl);
  std::string m_name;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace msdump::schema
