#pragma once
// What a compiled schema's verdict on a value reads, for callers that reuse a verdict instead of
// walking the value again (verify's checked entry shapes, verify/checked_shapes.h):
//
// - MemberNameKey: of a one-member object {name: v} (how verify validates one entry), the
//   name is read only by the object-level keywords (properties, patternProperties,
//   propertyNames, required, dependencies) of the nodes the walk applies to the object itself.
//   The key records each of their answers, so two names with the same key get the same verdict
//   for the same v.
// - NumberClasses: a number is read only by type (integer, float, big integer) and by the
//   numeric rules (minimum, maximum, exclusive*) and numeric enum / const members. A number's
//   class is its kind and its position among those rules' constants (below, at or above each),
//   so two numbers of the same class get the same verdict everywhere in the schema.
//
// Both err one way: when the schema has a keyword they cannot account for, they give no key or
// no classes, and the caller walks every value.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pyjson/json_value.h"
#include "schema/compiled_schema.h"
#include "schema/schema_regex_set.h"

namespace msdump::schema {

class MemberNameKey {
 public:
  // The tests the schema makes of a member name, gathered once. nullopt when an object-level
  // node compares the whole object (enum / const) or tests names with more than 64 patterns.
  static std::optional<MemberNameKey> of(const CompiledSchema& schema);

  // Appends the answers for `name` to `key`: 8 bytes of pattern bits, then one byte per other
  // test, in a fixed order.
  void append(std::string_view name, std::string& key) const;

 private:
  const CompiledSchema* m_schema = nullptr;
  std::vector<std::string> m_names;                   // name == each
  std::vector<const SchemaRegex*> m_patterns;         // patternProperties, pattern-only propertyNames
  std::optional<SchemaRegexSet> m_pattern_set;        // the same as one automaton, when small
  std::vector<const SchemaNode*> m_name_schemas;      // other propertyNames: validated
};

class NumberClasses {
 public:
  // nullopt when a numeric enum / const member or bound cannot be placed exactly (containers
  // or big integers in an enum, non-finite bounds, bounds of magnitude 2^53 or more).
  static std::optional<NumberClasses> of(const CompiledSchema& schema);

  struct Class {
    std::uint8_t kind = 0;      // 0 integer, 1 float, 2 big integer
    std::uint8_t position = 0;  // 2 x (constants below it) + (1 if equal to one); 0xFF: NaN
    bool operator==(const Class&) const = default;
  };
  // The class of a number (an integer, floating or big_integer Value).
  Class class_of(const pyjson::Value& number) const {
    if (number.kind() == pyjson::Kind::integer) return place(static_cast<double>(number.as_int()), 0);
    if (number.kind() == pyjson::Kind::floating) return place(number.as_float(), 1);
    return big_class(number);
  }

  // The constants (sorted, distinct; 0 is always one of them, for callers' own zero tests).
  const std::vector<double>& points() const { return m_points; }

 private:
  Class place(double x, std::uint8_t kind) const {
    Class c{kind, 0xFF};
    if (x != x) return c;  // NaN
    unsigned below = 0, at = 0;
    for (const double p : m_points) {  // (a few points: a loop beats a binary search)
      below += p < x;
      at += p == x;
    }
    c.position = static_cast<std::uint8_t>(2 * below + at);
    return c;
  }
  Class big_class(const pyjson::Value& number) const;

  std::vector<double> m_points;
};

}  // namespace msdump::schema
