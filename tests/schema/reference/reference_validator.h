#pragma once
// ReferenceValidator: validation of a pyjson::Value by valijson 1.0 (draft 7), the independent
// implementation that msdump's compiled validator (compiled_schema.h) is tested against. It is
// far slower (std::regex, per-node copies of its path; docs/performance.md "Schema: compiled
// once, compiled validator") and not part of msdump: it is the test-only library
// msdump_reference_validator, built when valijson is installed (MSDUMP_REFERENCE_VALIDATOR,
// scripts/install-deps.sh --with-reference), for the differential tests of tests/schema/ and
// bench/bench_schema.cpp.
//
// valijson reports where (a path) and what, but not which schema rule: Violations from here
// carry the instance pointer and valijson's message, and an empty schema_pointer. valijson
// also reports every enclosing object/array of a failure again ("Failed to validate item
// #0 in array."); those echoes are dropped, so a violation list names the innermost failures.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "pyjson/json_value.h"
#include "schema/violation.h"

namespace msdump::schema {

class ReferenceValidator {
 public:
  // The embedded schema `name`, or its sub-schema at `sub_pointer` (a leading "#" is accepted),
  // as SchemaValidator::create takes them. The schema is compiled by the compiled engine first:
  // valijson aborts on some unresolvable references instead of throwing, and the compiled
  // engine reports every schema defect as an error (the same errors as SchemaValidator::create).
  static Result<ReferenceValidator> create(std::string_view name, std::string_view sub_pointer = "");

  // Parses `document` (a JSON Schema) with valijson and selects the sub-schema at JSON Pointer
  // `pointer` ("" = the root). Fails (ErrorCode::invalid_input) with valijson's message when
  // valijson rejects the schema, or "no sub-schema at '<pointer>'".
  static Result<ReferenceValidator> compile(const pyjson::Value& document, std::string_view pointer = "");

  ReferenceValidator(ReferenceValidator&&) noexcept;
  ReferenceValidator& operator=(ReferenceValidator&&) noexcept;
  ~ReferenceValidator();

  // Appends the violations of `value` to `out` (instance pointers prefixed with `prefix`);
  // returns whether `value` is valid.
  bool validate_into(const pyjson::Value& value, std::string_view prefix, std::vector<Violation>& out) const;

  // Every violation of `value` (innermost failures; instance pointers prefixed with `prefix`).
  std::vector<Violation> validate(const pyjson::Value& value, std::string_view prefix = "") const;

  bool is_valid(const pyjson::Value& value) const;

 private:
  struct Impl;
  explicit ReferenceValidator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace msdump::schema
