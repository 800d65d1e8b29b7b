#pragma once
// CompiledSchema: a JSON Schema (draft 7) document turned once into a graph of SchemaNodes, so
// validating a value is a walk over that value with every rule pre-parsed: type bitmasks,
// string enums in hash sets, patterns as DFAs (schema_regex.h), $ref resolved to node
// pointers. It is msdump's fast validator; valijson (tests/schema/reference/, test-only) is the
// reference it is tested against (tests/schema/reference/engines_agree_test.cpp).
//
// Supported keywords: $ref (local "#/..." references), type, enum, const, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, items (schema or array),
// additionalItems, minItems, maxItems, required, properties, patternProperties,
// additionalProperties, propertyNames, dependencies, minProperties, maxProperties, allOf,
// anyOf, oneOf, not, if/then/else, boolean schemas; annotations ($schema, $id, $comment, title,
// description, default, examples, definitions) are ignored. Any other keyword is a compile
// error, so a rule is never silently skipped.
//
// Python semantics of numbers (docs/format.md §9): "integer" matches integer tokens only
// (3.0 is a float), "number" matches both and NaN/Infinity; big integers are integers.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/result.h"
#include "pyjson/json_value.h"
#include "schema/schema_regex.h"
#include "schema/schema_regex_set.h"
#include "schema/violation.h"

namespace msdump::schema {

// Bits of SchemaNode::types.
enum TypeBit : unsigned {
  k_type_null = 1u << 0,
  k_type_boolean = 1u << 1,
  k_type_integer = 1u << 2,
  k_type_number = 1u << 3,
  k_type_string = 1u << 4,
  k_type_array = 1u << 5,
  k_type_object = 1u << 6,
};

struct SchemaNode {
  std::string pointer;        // JSON Pointer of this schema in its document ("" = root)
  bool always_false = false;  // the boolean schema `false`
  const SchemaNode* ref = nullptr;  // $ref target (draft 7: siblings of $ref are ignored)

  unsigned types = 0;  // 0 = any type
  bool has_enum = false;
  bool is_const = false;  // enum of one value that came from "const"
  std::unordered_set<std::string> enum_strings;
  std::vector<std::string> enum_string_list;  // the same strings: small enums are searched linearly
  std::vector<pyjson::Value> enum_others;  // non-string enum members
  // Like name_slots for enum_string_list (index + 1, 0 = none, 0xFF = several): set for
  // enums of more than 16 strings (dtype names).
  std::vector<std::uint8_t> enum_slots;
  std::vector<pyjson::Value> enum_all;     // every member, for messages

  bool has_minimum = false, has_maximum = false, has_exclusive_minimum = false, has_exclusive_maximum = false;
  double minimum = 0, maximum = 0, exclusive_minimum = 0, exclusive_maximum = 0;
  std::size_t min_length = 0, max_length = SIZE_MAX;
  std::unique_ptr<SchemaRegex> pattern;

  const SchemaNode* items = nullptr;             // "items": schema
  std::vector<const SchemaNode*> tuple_items;    // "items": [schemas]
  const SchemaNode* additional_items = nullptr;  // with tuple_items
  std::size_t min_items = 0, max_items = SIZE_MAX;

  std::vector<std::string> required;
  std::vector<std::pair<std::string, const SchemaNode*>> properties;
  std::vector<std::pair<SchemaRegex, const SchemaNode*>> pattern_properties;
  const SchemaNode* additional_properties = nullptr;  // nullptr = any (or forbidden, below)
  bool additional_forbidden = false;                  // "additionalProperties": false
  const SchemaNode* property_names = nullptr;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependencies;
  std::vector<std::pair<std::string, const SchemaNode*>> schema_dependencies;
  std::size_t min_properties = 0, max_properties = SIZE_MAX;

  // Object rules by member index: `names` = the property names first (same order as
  // `properties`), then the other names `required` / `dependencies` mention; the *_index
  // vectors refer to it, so a validation pass maps each member key to an index once and
  // answers required/dependencies with bit tests (used when both have at most 64 entries).
  std::vector<std::string> names;
  std::vector<int> required_index;
  // 256 slots by a hash of (length, first byte, last byte) of a name: index + 1 in `names`,
  // 0 = no name, 0xFF = several (look them up linearly). Empty for small name lists.
  std::vector<std::uint8_t> name_slots;
  std::vector<std::pair<int, std::vector<int>>> dependency_index;

  // Set when this schema is only {["type",] "required": [P]?, "properties": {P: S}} (the shape
  // of every "if" in msdump's schemas): is_valid() then evaluates it as one member lookup.
  struct SimpleCondition {
    std::string property;
    const SchemaNode* schema = nullptr;
    bool required = false;
  };
  std::unique_ptr<SimpleCondition> simple;

  // Set on a node whose allOf holds "pure" if/then/else members (nothing but if, then, else)
  // whose "if"s are SimpleConditions on one property P tested by string-only predicates (enum of
  // strings, const, not, type, combinators of those): typed_leaf's allOf of 6 ifs on "type".
  // For an object whose P is a string, which branch each such member takes is precomputed per
  // string: one table lookup instead of evaluating every "if" (compiled_validator.cpp builds it
  // by evaluating the conditions themselves, so the answers are the same by construction).
  struct IfDispatch {
    std::string property;
    std::vector<int> slot;  // per all_of index: bit of the member in the masks, or -1
    std::vector<const SchemaNode*> then_schema, else_schema;  // per bit
    std::vector<std::pair<std::string, std::uint64_t>> masks;  // string -> bits whose "if" holds
    std::uint64_t default_mask = 0;  // for every string not in `masks`
  };
  std::unique_ptr<IfDispatch> dispatch;

  // The patternProperties' regexes, then (if name_pattern_only) the propertyNames pattern: a
  // member key is searched by all of them in one pass (SchemaRegex::search_many). Set when
  // there are patternProperties; name_pattern_only when propertyNames is just
  // {"type": "string", "pattern": P}, so a name that matches P passes it without a walk.
  std::vector<const SchemaRegex*> member_patterns;
  // The same patterns as one product automaton (one lookup per byte), when it is small.
  std::unique_ptr<SchemaRegexSet> member_set;
  // Bit (1 << pyjson::Kind) set for each scalar kind that this schema (after $ref) accepts
  // without looking at the value (type only): the walker skips those values.
  unsigned trivial_kinds = 0;
  bool name_pattern_only = false;

  // Set by prepare_fast_paths: the node after $ref, and on it which keyword groups can fail at
  // all, so the walker skips the others (a group with no keyword accepts every value).
  const SchemaNode* target = nullptr;
  bool number_rules = false;   // minimum / maximum / exclusive*
  bool string_rules = false;   // minLength / maxLength / pattern
  bool object_rules = false;   // any object keyword
  bool combinators = false;    // allOf / anyOf / oneOf / not / if
  // required and dependencies as masks over `names` (when names has at most 64 entries):
  // which must be present, and per dependency (its bit, the bits it needs).
  std::uint64_t required_mask = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> dependency_masks;
  bool masks = false;

  std::vector<const SchemaNode*> all_of, any_of, one_of;
  const SchemaNode* not_schema = nullptr;
  const SchemaNode* if_schema = nullptr;
  const SchemaNode* then_schema = nullptr;
  const SchemaNode* else_schema = nullptr;
};

// Builds SchemaNode::dispatch and member_patterns where they apply (compiled_validator.cpp).
// Called by compile().
void prepare_fast_paths(const std::vector<std::unique_ptr<SchemaNode>>& nodes);

class CompiledSchema {
 public:
  // Compiles the sub-schema of `document` at JSON Pointer `pointer` ("" or "/" = the whole
  // document, "/definitions/entry" = one definition). Fails (ErrorCode::invalid_input) with
  // the schema location, e.g. "/definitions/x: unsupported keyword 'format'",
  // "/properties/a: $ref '#/definitions/nope' does not resolve",
  // "no sub-schema at '/definitions/entri'".
  static Result<CompiledSchema> compile(const pyjson::Value& document, std::string_view pointer = "");

  // Validates `value`, appending one Violation per broken rule (all of them, in document
  // order) to `out`; instance pointers start with `prefix` (e.g. "/data" when `value` is one
  // member of a dump's "data" wrapped as {name: entry}). Returns whether `value` is valid.
  bool validate(const pyjson::Value& value, std::string_view prefix, std::vector<Violation>& out) const;

  // Whether `value` is valid, stopping at the first broken rule (no messages).
  bool is_valid(const pyjson::Value& value) const;
  // The same against `node`, one of this schema's nodes.
  bool is_valid_at(const SchemaNode& node, const pyjson::Value& value) const;

  const SchemaNode& root() const { return *m_root; }
  // Every node of the schema (those reachable from root() among them).
  const std::vector<std::unique_ptr<SchemaNode>>& nodes() const { return m_nodes; }

 private:
  std::vector<std::unique_ptr<SchemaNode>> m_nodes;
  const SchemaNode* m_root = nullptr;
};

// Compact description of a value for messages: "\"torch.float99\"", "-1", "2.5", "null",
// "an array", "an object" (strings longer than 60 bytes are cut with "...").
std::string describe_value(const pyjson::Value& v);

}  // namespace msdump::schema
