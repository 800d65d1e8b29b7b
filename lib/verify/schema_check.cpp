#include "verify/schema_check.h"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "pyjson/json_reader.h"
#include "schema/compiled_schema.h"
#include "schema/embedded_schemas.h"
#include "schema/schema_choice.h"

namespace msdump::verify {

SchemaCheck::SchemaCheck(SchemaCheck&&) noexcept = default;
SchemaCheck& SchemaCheck::operator=(SchemaCheck&&) noexcept = default;
SchemaCheck::~SchemaCheck() = default;

Result<SchemaCheck> SchemaCheck::create(Framework framework, Profile profile) {
  static std::mutex cache_mutex;
  static std::map<std::string, std::shared_ptr<const schema::CompiledSchema>> cache;
  SchemaCheck c;
  c.m_name = std::string(schema::schema_name_for(framework, profile));
  std::lock_guard lock(cache_mutex);
  if (auto it = cache.find(c.m_name); it != cache.end()) {
    c.m_entry = it->second;
    return c;
  }
  const auto text = schema::embedded_schema(c.m_name);
  if (!text) return internal_error(fmt::format("schema '{}' is not embedded", c.m_name));
  auto doc = pyjson::parse_json(*text);
  if (!doc) return internal_error(fmt::format("schema '{}': {}", c.m_name, doc.error().message));
  auto compiled = schema::CompiledSchema::compile(*doc, schema::k_entry_pointer);
  if (!compiled) return internal_error(fmt::format("schema '{}': {}", c.m_name, compiled.error().message));
  c.m_entry = std::make_shared<const schema::CompiledSchema>(std::move(*compiled));
  cache.emplace(c.m_name, c.m_entry);
  return c;
}

bool SchemaCheck::is_valid(const std::string& name, pyjson::Value& entry, pyjson::Value& wrapper) const {
  if (!wrapper.is_object() || wrapper.as_object().size() != 1) {
    const pyjson::TreeArenaScope heap(nullptr);  // kept across entries: not in a tree arena
    wrapper = pyjson::Value::object();
    wrapper.add(name, pyjson::Value());
  }
  wrapper.as_object().front().key.assign(name);
  wrapper.as_object().front().value = std::move(entry);
  const bool valid = m_entry->is_valid(wrapper);
  entry = std::move(wrapper.as_object().front().value);
  return valid;
}

void SchemaCheck::check(const std::string& name, pyjson::Value& entry, FindingSink& sink) const {
  // The one-member wrapper is kept between calls: its member vector and key keep their storage.
  pyjson::Value& wrapper = m_wrapper;
  if (!wrapper.is_object() || wrapper.as_object().size() != 1) {
    const pyjson::TreeArenaScope heap(nullptr);  // kept across entries: not in a tree arena
    wrapper = pyjson::Value::object();
    wrapper.add(name, pyjson::Value());
  }
  wrapper.as_object().front().key.assign(name);
  wrapper.as_object().front().value = std::move(entry);
  if (!m_entry->is_valid(wrapper)) {
    std::vector<schema::Violation> violations;
    m_entry->validate(wrapper, "/data", violations);
    for (auto& v : violations) {
      Finding f;
      f.kind = FindingKind::schema;
      f.entry = name;
      f.pointer = std::move(v.instance_pointer);
      f.message = fmt::format("{} (schema {}#{})", v.message, m_name, v.schema_pointer);
      sink.add(std::move(f));
    }
  }
  entry = std::move(wrapper.as_object().front().value);
}

}  // namespace msdump::verify
