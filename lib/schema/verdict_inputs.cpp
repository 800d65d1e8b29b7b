#include "schema/verdict_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace msdump::schema {
namespace {

const SchemaNode* deref(const SchemaNode* n) {
  while (n != nullptr && n->ref != nullptr) n = n->ref;
  return n;
}

// A string schema that only tests a pattern: every keyword that applies to strings, other than
// type and pattern, is absent (object, array and number keywords ignore strings).
bool pattern_only(const SchemaNode& n) {
  return n.pattern != nullptr && !n.always_false && (n.types == 0 || (n.types & k_type_string) != 0) && !n.has_enum &&
         n.min_length == 0 && n.max_length == SIZE_MAX && n.all_of.empty() && n.any_of.empty() && n.one_of.empty() &&
         n.not_schema == nullptr && n.if_schema == nullptr;
}

// Gathers the name tests of the nodes the walk applies to the object itself, from `n` on: $ref,
// allOf, anyOf, oneOf, not, if/then/else and schema dependencies lead to more of them; member
// values' schemas do not.
class NameTests {
 public:
  std::vector<std::string> names;
  std::vector<const SchemaRegex*> patterns;
  std::vector<const SchemaNode*> name_schemas;

  bool visit(const SchemaNode* node) {
    const SchemaNode* n = deref(node);
    if (n == nullptr || std::find(m_seen.begin(), m_seen.end(), n) != m_seen.end()) return true;
    m_seen.push_back(n);
    if (n->always_false) return true;
    if (n->has_enum) return false;
    for (const auto& [k, sub] : n->properties) names.push_back(k);
    for (const auto& [re, sub] : n->pattern_properties) patterns.push_back(&re);
    if (const SchemaNode* pn = deref(n->property_names)) {
      if (pattern_only(*pn)) patterns.push_back(pn->pattern.get());
      else name_schemas.push_back(pn);
    }
    for (const auto& r : n->required) names.push_back(r);
    for (const auto& [k, deps] : n->dependencies) {
      names.push_back(k);
      names.insert(names.end(), deps.begin(), deps.end());
    }
    for (const auto& [k, sub] : n->schema_dependencies) {
      names.push_back(k);
      if (!visit(sub)) return false;
    }
    for (const auto* list : {&n->all_of, &n->any_of, &n->one_of})
      for (const SchemaNode* sub : *list)
        if (!visit(sub)) return false;
    for (const SchemaNode* sub : {n->not_schema, n->if_schema, n->then_schema, n->else_schema})
      if (!visit(sub)) return false;
    return true;
  }

 private:
  std::vector<const SchemaNode*> m_seen;
};

constexpr double k_exact = 9007199254740992.0;  // 2^53: integers below it are exact doubles

bool add_point(std::vector<double>& points, double x) {
  if (!std::isfinite(x) || std::fabs(x) >= k_exact) return false;
  points.push_back(x);
  return true;
}

bool add_enum_member(std::vector<double>& points, const pyjson::Value& e) {
  switch (e.kind()) {
    case pyjson::Kind::null:
    case pyjson::Kind::boolean: return true;  // never equal to a number (json_equal)
    case pyjson::Kind::integer: return add_point(points, static_cast<double>(e.as_int()));
    case pyjson::Kind::floating: return add_point(points, e.as_float());
    default: return false;
  }
}

}  // namespace

std::optional<MemberNameKey> MemberNameKey::of(const CompiledSchema& schema) {
  NameTests tests;
  if (!tests.visit(&schema.root()) || tests.patterns.size() > 64) return std::nullopt;
  MemberNameKey k;
  k.m_schema = &schema;
  k.m_names = std::move(tests.names);
  k.m_patterns = std::move(tests.patterns);
  k.m_name_schemas = std::move(tests.name_schemas);
  k.m_pattern_set = SchemaRegexSet::build(k.m_patterns.data(), k.m_patterns.size());
  return k;
}

void MemberNameKey::append(std::string_view name, std::string& key) const {
  const std::uint64_t bits = m_pattern_set ? m_pattern_set->search(name)
                                           : SchemaRegex::search_many(m_patterns.data(), m_patterns.size(), name);
  char b[8];
  std::memcpy(b, &bits, 8);
  key.append(b, 8);
  for (const auto& n : m_names) key += n == name ? '1' : '0';
  for (const SchemaNode* s : m_name_schemas)
    key += m_schema->is_valid_at(*s, pyjson::Value::string(std::string(name))) ? '1' : '0';
}

std::optional<NumberClasses> NumberClasses::of(const CompiledSchema& schema) {
  NumberClasses c;
  c.m_points.push_back(0.0);
  for (const auto& node : schema.nodes()) {
    const SchemaNode& n = *node;
    for (const pyjson::Value& e : n.enum_others)
      if (!add_enum_member(c.m_points, e)) return std::nullopt;
    const std::pair<bool, double> bounds[] = {{n.has_minimum, n.minimum},
                                              {n.has_maximum, n.maximum},
                                              {n.has_exclusive_minimum, n.exclusive_minimum},
                                              {n.has_exclusive_maximum, n.exclusive_maximum}};
    for (const auto& [has, x] : bounds)
      if (has && !add_point(c.m_points, x)) return std::nullopt;
  }
  std::sort(c.m_points.begin(), c.m_points.end());
  c.m_points.erase(std::unique(c.m_points.begin(), c.m_points.end()), c.m_points.end());
  if (c.m_points.size() > 100) return std::nullopt;  // positions fit a byte below 0xFF
  return c;
}

// Big integers lie beyond every point (the validator reads them as +-infinity).
NumberClasses::Class NumberClasses::big_class(const pyjson::Value& v) const {
  return place(v.as_big_integer()[0] == '-' ? -HUGE_VAL : HUGE_VAL, 2);
}

}  // namespace msdump::schema
