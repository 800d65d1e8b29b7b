#pragma once
// SchemaCheck: validates dump.json entries, one at a time, against the embedded JSON Schema
// for the dump's framework and profile (schemas/, lib/schema), and turns every violation
// into a Finding of kind schema whose pointer is the instance pointer.

#include <memory>
#include <string>

#include "core/profile.h"
#include "core/result.h"
#include "pyjson/json_value.h"
#include "verify/finding_sink.h"

namespace msdump::schema { class CompiledSchema; }

namespace msdump::verify {

class SchemaCheck {
 public:
  // The entry sub-schema of schema_name_for(framework, profile), compiled once per process
  // and shared (compiling its patterns costs more than verifying a small dump: docs/performance.md
  // "Schema: compiled once, compiled validator"). Fails
  // only if the embedded schema does not compile (a bug: internal error). Thread-safe.
  static Result<SchemaCheck> create(Framework framework, Profile profile);
  SchemaCheck(SchemaCheck&&) noexcept;
  SchemaCheck& operator=(SchemaCheck&&) noexcept;
  ~SchemaCheck();

  // Validates entry `name`; `entry` is moved into a one-member object for the validator and
  // moved back, so nothing is copied.
  void check(const std::string& name, pyjson::Value& entry, FindingSink& sink) const;
  // Whether entry `name` is valid (no findings), using `wrapper` as scratch for {name: entry}
  // (entry is moved there and back). Touches nothing else: safe on another thread.
  bool is_valid(const std::string& name, pyjson::Value& entry, pyjson::Value& wrapper) const;
  const std::string& schema_name() const { return m_name; }
  // The compiled entry schema (shared by every SchemaCheck of this framework and profile).
  const std::shared_ptr<const schema::CompiledSchema>& compiled() const { return m_entry; }

 private:
  SchemaCheck() = default;
  std::shared_ptr<const schema::CompiledSchema> m_entry;
  std::string m_name;
  mutable pyjson::Value m_wrapper;  // check()'s {name: entry}, reused (one SchemaCheck per thread)
};

}  // namespace msdump::verify
