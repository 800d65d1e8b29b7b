// The validation walk of CompiledSchema (compiled_schema.h). One Walker per validate() call;
// in "fast" mode (no output vector) it returns at the first broken rule, which is how "if",
// "not", "anyOf" and "oneOf" evaluate their sub-schemas.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "schema/compiled_schema.h"

namespace msdump::schema {
namespace {

// Slot of a property name in SchemaNode::name_slots.
std::size_t name_slot(const std::string& key) {
  if (key.empty()) return 0;
  const auto first = static_cast<unsigned char>(key.front());
  const auto last = static_cast<unsigned char>(key.back());
  return (key.size() * 37 + first * 7 + last) & 0xFF;
}

unsigned kind_bits(const pyjson::Value& v) {
  switch (v.kind()) {
    case pyjson::Kind::null: return k_type_null;
    case pyjson::Kind::boolean: return k_type_boolean;
    case pyjson::Kind::integer:
    case pyjson::Kind::big_integer: return k_type_integer | k_type_number;
    case pyjson::Kind::floating: return k_type_number;
    case pyjson::Kind::string: return k_type_string;
    case pyjson::Kind::array: return k_type_array;
    case pyjson::Kind::object: return k_type_object;
  }
  return 0;
}

// Python's == on JSON values: numbers compare by value across int and float.
bool json_equal(const pyjson::Value& a, const pyjson::Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind() == pyjson::Kind::integer && b.kind() == pyjson::Kind::integer) return a.as_int() == b.as_int();
    if (a.kind() == pyjson::Kind::big_integer || b.kind() == pyjson::Kind::big_integer) return a.identical(b);
    const double x = a.is_float() ? a.as_float() : static_cast<double>(a.as_int());
    const double y = b.is_float() ? b.as_float() : static_cast<double>(b.as_int());
    return x == y;
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) {
    const auto& x = a.as_array();
    const auto& y = b.as_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!json_equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const pyjson::Member& m : a.as_object()) {
      const pyjson::Value* o = b.find(m.key);
      if (o == nullptr || !json_equal(m.value, *o)) return false;
    }
    return true;
  }
  return a.identical(b);
}

// The value as a double for minimum/maximum; big integers become +-infinity (beyond any bound
// a schema can state as a double).
double numeric(const pyjson::Value& v) {
  switch (v.kind()) {
    case pyjson::Kind::integer: return static_cast<double>(v.as_int());
    case pyjson::Kind::floating: return v.as_float();
    default: return v.as_big_integer()[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  }
}

std::string type_names(unsigned types) {
  static constexpr std::pair<unsigned, std::string_view> k_names[] = {
      {k_type_null, "null"},     {k_type_boolean, "boolean"}, {k_type_integer, "integer"},
      {k_type_number, "number"}, {k_type_string, "string"},   {k_type_array, "array"},
      {k_type_object, "object"},
  };
  std::vector<std::string_view> names;
  for (const auto& [bit, name] : k_names) {
    if (types & bit) names.push_back(name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string_view kind_word(const pyjson::Value& v) {
  switch (v.kind()) {
    case pyjson::Kind::null: return "null";
    case pyjson::Kind::boolean: return "boolean";
    case pyjson::Kind::integer:
    case pyjson::Kind::big_integer: return "integer";
    case pyjson::Kind::floating: return "float";
    case pyjson::Kind::string: return "string";
    case pyjson::Kind::array: return "array";
    case pyjson::Kind::object: return "object";
  }
  return "value";
}

// "1 item", "2 items", "1 property", "2 properties".
std::string plural(std::size_t n, std::string_view word) {
  std::string s = std::to_string(n) + " ";
  if (n == 1) return s.append(word);
  if (word.back() == 'y') return s.append(word.substr(0, word.size() - 1)).append("ies");
  return s.append(word).append("s");
}

// Fast (is_valid): stops at the first broken rule and reports nothing; the compiler drops the
// messages and the instance path from that instance. Otherwise every violation is reported.
template <bool Fast>
class Walker {
 public:
  // `out` == nullptr in fast mode.
  Walker(std::vector<Violation>* out, std::string_view prefix) : m_out(out), m_prefix(prefix) {}

  bool check(const SchemaNode& n, const pyjson::Value& v) {
    if (trivially_valid(n, v)) return true;
    const SchemaNode* node = n.target;
    if (node == nullptr) {
      node = &n;
      while (node->ref != nullptr) node = node->ref;
    }
    if (node->always_false) {
      if constexpr (!Fast) report(*node, "", "no value is allowed here");
      return false;
    }
    bool ok = true;
    // Every keyword group below returns early in fast mode once `ok` is false.
#define MSDUMP_SCHEMA_STEP(expr) \
  do {                           \
    ok = (expr) && ok;           \
    if (!ok && Fast) return false; \
  } while (0)
    if (node->types != 0 && (node->types & kind_bits(v)) == 0) {
      // A value of the wrong type makes the type-specific keywords meaningless: stop here.
      if constexpr (!Fast) report(*node, "type", "expected " + type_names(node->types) + ", got " + std::string(kind_word(v)));
      return false;
    }
    if (node->has_enum) MSDUMP_SCHEMA_STEP(check_enum(*node, v));
    // (A node not seen by prepare_fast_paths has target == nullptr: every group runs.)
    const bool all = node != n.target;
    switch (v.kind()) {
      case pyjson::Kind::integer:
      case pyjson::Kind::big_integer:
      case pyjson::Kind::floating:
        if (all || node->number_rules) MSDUMP_SCHEMA_STEP(check_number(*node, v));
        break;
      case pyjson::Kind::string:
        if (all || node->string_rules) MSDUMP_SCHEMA_STEP(check_string(*node, v.as_string()));
        break;
      case pyjson::Kind::array: MSDUMP_SCHEMA_STEP(check_array(*node, v.as_array())); break;
      case pyjson::Kind::object:
        if (all || node->object_rules) MSDUMP_SCHEMA_STEP(check_object(*node, v));
        break;
      default: break;
    }
    if (all || node->combinators) MSDUMP_SCHEMA_STEP(check_combinators(*node, v));
#undef MSDUMP_SCHEMA_STEP
    return ok;
  }

  // Whether the "if" of a pure if/then/else node holds for `v` (how check_combinators decides).
  bool condition(const SchemaNode& if_schema, const pyjson::Value& v) { return matches(if_schema, v); }

 private:
  struct Segment {
    const std::string* key;  // nullptr: array index
    std::size_t index;
  };

  static constexpr bool fast() { return Fast; }

  static bool trivially_valid(const SchemaNode& n, const pyjson::Value& v) {
    return ((n.trivial_kinds >> static_cast<unsigned>(v.kind())) & 1u) != 0;
  }

  std::string instance_pointer() const {
    std::string p(m_prefix);
    for (const Segment& s : m_path) {
      if (s.key != nullptr) {
        append_pointer_token(p, *s.key);
      } else {
        append_pointer_index(p, s.index);
      }
    }
    return p;
  }

  void report(const SchemaNode& n, std::string_view keyword, std::string message) {
    if (fast()) return;
    std::string schema_pointer = n.pointer;
    if (!keyword.empty()) append_pointer_token(schema_pointer, keyword);
    m_out->push_back(Violation{instance_pointer(), std::move(schema_pointer), std::move(message)});
  }

  // The member of the last simple-condition lookup: the "if"s of one allOf ask the same object
  // for the same property ("type") one after the other.
  struct LookupCache {
    const pyjson::Value* object = nullptr;
    const std::string* key = nullptr;
    const pyjson::Value* member = nullptr;
  };

  // Runs `n` on `v` without reporting.
  bool matches(const SchemaNode& n, const pyjson::Value& v) {
    if (n.simple) {
      if (n.types != 0 && (n.types & kind_bits(v)) == 0) return false;
      if (!v.is_object()) return true;  // required/properties apply to objects only
      const std::string& key = n.simple->property;
      if (m_lookup.object != &v || m_lookup.key == nullptr || *m_lookup.key != key) {
        m_lookup = LookupCache{&v, &key, find_member(v, key)};
      }
      const pyjson::Value* p = m_lookup.member;
      if (p == nullptr) return !n.simple->required;
      return matches(*n.simple->schema, *p);
    }
    if (trivially_valid(n, v)) return true;
    if constexpr (Fast) {
      return check(n, v);  // (a fast walker reports nothing: it can run it itself)
    } else {
      return Walker<true>(nullptr, {}).check(n, v);
    }
  }

  // Like Value::find (the last of duplicate keys wins), comparing sizes before bytes.
  static const pyjson::Value* find_member(const pyjson::Value& v, const std::string& key) {
    const pyjson::Object& members = v.as_object();
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
      if (same(it->key, key)) return &it->value;
    }
    return nullptr;
  }

  // String equality without a memcmp call (keys and enum strings are short): up to 16 bytes
  // as two overlapping words (the same compare whatever the size in each range).
  [[gnu::always_inline]] static bool same(const std::string& a, const std::string& b) {
    const std::size_t n = a.size();
    if (b.size() != n) return false;
    const char *x = a.data(), *y = b.data();
    if (n >= 8) {
      if (n > 16) return std::memcmp(x, y, n) == 0;
      return word<std::uint64_t>(x) == word<std::uint64_t>(y) && word<std::uint64_t>(x + n - 8) == word<std::uint64_t>(y + n - 8);
    }
    if (n >= 4) return word<std::uint32_t>(x) == word<std::uint32_t>(y) && word<std::uint32_t>(x + n - 4) == word<std::uint32_t>(y + n - 4);
    // 0 to 3 bytes: the first, middle and last cover them all.
    return n == 0 || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
  }
  template <class W>
  [[gnu::always_inline]] static W word(const char* p) {
    W w;
    std::memcpy(&w, p, sizeof w);
    return w;
  }

  // Index of `key` in n.names, or -1.
  static int name_index(const SchemaNode& n, const std::string& key) {
    const std::size_t size = key.size();
    if (!n.name_slots.empty()) {  // one candidate by (length, first, last byte)
      const std::uint8_t c = n.name_slots[name_slot(key)];
      if (c == 0) return -1;
      if (c != 0xFF) return same(n.names[c - 1u], key) ? static_cast<int>(c - 1u) : -1;
    }
    for (std::size_t i = 0; i < n.names.size(); ++i) {
      const std::string& name = n.names[i];
      if (name.size() == size && name[0] == key[0] && same(name, key)) return static_cast<int>(i);
    }
    return -1;
  }

  bool check_enum(const SchemaNode& n, const pyjson::Value& v) {
    if (const std::string* s = v.if_string()) {
      // Up to 16 strings a size-filtered scan beats hashing the value.
      const std::uint8_t slot = n.enum_slots.empty() ? 0xFF : n.enum_slots[name_slot(*s)];
      if (slot == 0) {
        // no enum string has this (length, first, last byte) slot: not a member
      } else if (slot != 0xFF) {
        if (same(n.enum_string_list[slot - 1u], *s)) return true;
      } else if (n.enum_string_list.size() <= 16) {
        for (const std::string& e : n.enum_string_list) {
          if (same(e, *s)) return true;
        }
      } else if (n.enum_strings.count(*s) != 0) {
        return true;
      }
    } else {
      for (const pyjson::Value& e : n.enum_others) {
        if (json_equal(e, v)) return true;
      }
    }
    if (fast()) return false;
    if (n.is_const) {
      if constexpr (!Fast) report(n, "const", "expected " + describe_value(n.enum_all[0]) + ", got " + describe_value(v));
      return false;
    }
    std::string allowed;
    const std::size_t shown = std::min<std::size_t>(n.enum_all.size(), 8);
    for (std::size_t i = 0; i < shown; ++i) allowed += (i ? ", " : "") + describe_value(n.enum_all[i]);
    if (shown < n.enum_all.size()) allowed += ", ... (" + std::to_string(n.enum_all.size()) + " values)";
    if constexpr (!Fast) report(n, "enum", describe_value(v) + " is not one of the allowed values: " + allowed);
    return false;
  }

  bool check_number(const SchemaNode& n, const pyjson::Value& v) {
    bool ok = true;
    const double x = numeric(v);
    auto bound = [&](bool has, bool broken, std::string_view keyword, std::string_view words, double limit) {
      if (!has || !broken) return;
      ok = false;
      if constexpr (!Fast) report(n, keyword, describe_value(v) + " is " + std::string(words) + " " + describe_value(
          std::floor(limit) == limit && std::fabs(limit) < 9e15 ? pyjson::Value::integer(static_cast<std::int64_t>(limit))
                                                                : pyjson::Value::floating(limit)));
    };
    bound(n.has_minimum, x < n.minimum, "minimum", "less than the minimum", n.minimum);
    bound(n.has_maximum, x > n.maximum, "maximum", "greater than the maximum", n.maximum);
    bound(n.has_exclusive_minimum, x <= n.exclusive_minimum, "exclusiveMinimum", "not greater than", n.exclusive_minimum);
    bound(n.has_exclusive_maximum, x >= n.exclusive_maximum, "exclusiveMaximum", "not less than", n.exclusive_maximum);
    return ok;
  }

  bool check_string(const SchemaNode& n, const std::string& s) {
    bool ok = true;
    if (n.min_length > 0 || n.max_length != SIZE_MAX) {
      // JSON Schema counts code points, not bytes.
      std::size_t length = 0;
      for (const char c : s) length += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      if (length < n.min_length) {
        ok = false;
        if constexpr (!Fast) report(n, "minLength", "expected at least " + plural(n.min_length, "character") + ", got " + std::to_string(length));
      }
      if (length > n.max_length) {
        ok = false;
        if constexpr (!Fast) report(n, "maxLength", "expected at most " + plural(n.max_length, "character") + ", got " + std::to_string(length));
      }
    }
    if (n.pattern && !n.pattern->search(s)) {
      ok = false;
      if (!fast()) {
        if constexpr (!Fast) report(n, "pattern", describe_value(pyjson::Value::string(s)) + " does not match the pattern " + n.pattern->pattern());
      }
    }
    return ok;
  }

  bool check_array(const SchemaNode& n, const pyjson::Array& a) {
    bool ok = true;
    if (a.size() < n.min_items) {
      ok = false;
      if constexpr (!Fast) report(n, "minItems", "expected at least " + plural(n.min_items, "item") + ", got " + std::to_string(a.size()));
    }
    if (a.size() > n.max_items) {
      ok = false;
      if constexpr (!Fast) report(n, "maxItems", "expected at most " + plural(n.max_items, "item") + ", got " + std::to_string(a.size()));
    }
    if (!ok && fast()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const SchemaNode* item = nullptr;
      if (!n.tuple_items.empty()) {
        item = i < n.tuple_items.size() ? n.tuple_items[i] : n.additional_items;
      } else {
        item = n.items;
      }
      if (item == nullptr) continue;
      if (!fast()) m_path.push_back(Segment{nullptr, i});  // (fast mode reports nothing)
      const bool item_ok = trivially_valid(*item, a[i]) || check(*item, a[i]);
      if (!fast()) m_path.pop_back();
      if (!item_ok) {
        ok = false;
        if (fast()) return false;
      }
    }
    return ok;
  }

  // Which of n.names each member of an object is, looked up once (small objects and schemas;
  // otherwise `indexed` is false and names are looked up as they are needed).
  struct MemberIndex {
    static constexpr std::size_t k_max = 64;
    bool indexed = false;
    std::uint64_t present = 0;  // bit k: n.names[k] is a member
    std::int8_t index[k_max];   // member i is n.names[index[i]], or -1
  };

  static void index_members(const SchemaNode& n, const pyjson::Object& members, MemberIndex& ix) {
    ix.indexed = !n.names.empty() && n.names.size() <= MemberIndex::k_max && members.size() <= MemberIndex::k_max;
    if (!ix.indexed) return;
    for (std::size_t i = 0; i < members.size(); ++i) {
      const int k = name_index(n, members[i].key);
      ix.index[i] = static_cast<std::int8_t>(k);
      if (k >= 0) ix.present |= std::uint64_t{1} << k;
    }
  }

  // minProperties / maxProperties.
  bool check_property_count(const SchemaNode& n, std::size_t size) {
    bool ok = true;
    if (size < n.min_properties) {
      ok = false;
      if constexpr (!Fast) report(n, "minProperties", "expected at least " + plural(n.min_properties, "property") + ", got " + std::to_string(size));
    }
    if (size > n.max_properties) {
      ok = false;
      if constexpr (!Fast) report(n, "maxProperties", "expected at most " + plural(n.max_properties, "property") + ", got " + std::to_string(size));
    }
    return ok;
  }

  // required, and the property lists of dependencies. With masks, the loops run only to report
  // what the bit tests found broken.
  bool check_required(const SchemaNode& n, const pyjson::Value& v, const MemberIndex& ix) {
    auto has = [&](int name, const std::string& key) {
      return ix.indexed ? (ix.present >> name) & 1u : v.find(key) != nullptr;
    };
    bool ok = true;
    bool check = !ix.indexed || !n.masks || (ix.present & n.required_mask) != n.required_mask;
    if (ix.indexed && n.masks && !check) {
      for (const auto& [bit, needs] : n.dependency_masks) check = check || ((ix.present & bit) != 0 && (ix.present & needs) != needs);
    }
    for (std::size_t r = 0; check && r < n.required.size(); ++r) {
      if (!has(n.required_index[r], n.required[r])) {
        ok = false;
        if (fast()) return false;
        if constexpr (!Fast) report(n, "required", "missing required property \"" + n.required[r] + "\"");
      }
    }
    for (std::size_t d = 0; check && d < n.dependencies.size(); ++d) {
      const auto& [name, needs] = n.dependencies[d];
      if (!has(n.dependency_index[d].first, name)) continue;
      for (std::size_t j = 0; j < needs.size(); ++j) {
        if (!has(n.dependency_index[d].second[j], needs[j])) {
          ok = false;
          if (fast()) return false;
          if constexpr (!Fast) report(n, "dependencies", "property \"" + name + "\" requires property \"" + needs[j] + "\"");
        }
      }
    }
    return ok;
  }

  // Each member against properties / patternProperties / additionalProperties / propertyNames.
  bool check_members(const SchemaNode& n, const pyjson::Object& members, const MemberIndex& ix) {
    bool ok = true;
    for (std::size_t i = 0; i < members.size(); ++i) {
      const pyjson::Member& m = members[i];
      int property = -1;
      if (ix.indexed) {
        property = ix.index[i] >= 0 && static_cast<std::size_t>(ix.index[i]) < n.properties.size() ? ix.index[i] : -1;
      } else {
        const int k = name_index(n, m.key);
        property = k >= 0 && static_cast<std::size_t>(k) < n.properties.size() ? k : -1;
      }
      if (!fast()) m_path.push_back(Segment{&m.key, 0});
      const bool member_ok = check_member(n, m, property);
      if (!fast()) m_path.pop_back();
      if (!member_ok) {
        ok = false;
        if (fast()) return false;
      }
    }
    return ok;
  }

  bool check_object(const SchemaNode& n, const pyjson::Value& v) {
    const pyjson::Object& members = v.as_object();
    bool ok = check_property_count(n, members.size());
    if (!ok && fast()) return false;
    MemberIndex ix;
    index_members(n, members, ix);
    if (!check_required(n, v, ix)) {
      ok = false;
      if (fast()) return false;
    }
    for (const auto& [name, schema] : n.schema_dependencies) {
      if (v.find(name) != nullptr && !check(*schema, v)) {
        ok = false;
        if (fast()) return false;
      }
    }
    const bool any_member_rule = !n.properties.empty() || !n.pattern_properties.empty() ||
                                 n.additional_properties != nullptr || n.additional_forbidden ||
                                 n.property_names != nullptr;
    if (!any_member_rule) return ok;
    return check_members(n, members, ix) && ok;
  }

  // `property`: index of m.key in n.properties, or -1.
  bool check_member(const SchemaNode& n, const pyjson::Member& m, int property) {
    bool ok = true;
    // All of the node's key patterns in one lockstep pass (SchemaNode::member_patterns).
    const bool batched = !n.member_patterns.empty();
    const std::uint64_t hits =
        !batched ? 0
        : n.member_set ? n.member_set->search(m.key)
                       : SchemaRegex::search_many(n.member_patterns.data(), n.member_patterns.size(), m.key);
    const bool name_ok = batched && n.name_pattern_only && ((hits >> n.pattern_properties.size()) & 1u) != 0;
    if (n.property_names != nullptr && !name_ok) {
      std::vector<Violation> name_violations;
      Walker<Fast> names(Fast ? nullptr : &name_violations, {});
      if (!names.check(*n.property_names, pyjson::Value::string(m.key))) {
        ok = false;
        if (fast()) return false;
        for (Violation& nv : name_violations) {
          m_out->push_back(Violation{instance_pointer(), std::move(nv.schema_pointer), "property name: " + nv.message});
        }
      }
    }
    bool matched = false;
    if (property >= 0) {
      matched = true;
      const SchemaNode& p = *n.properties[static_cast<std::size_t>(property)].second;
      if (!trivially_valid(p, m.value) && !check(p, m.value)) {
        ok = false;
        if (fast()) return false;
      }
    }
    for (std::size_t i = 0; i < n.pattern_properties.size(); ++i) {
      const auto& [re, schema] = n.pattern_properties[i];
      if (batched ? ((hits >> i) & 1u) != 0 : re.search(m.key)) {
        matched = true;
        if (!check(*schema, m.value)) {
          ok = false;
          if (fast()) return false;
        }
      }
    }
    if (!matched) {
      if (n.additional_forbidden) {
        if constexpr (!Fast) report(n, "additionalProperties", "property \"" + m.key + "\" is not allowed");
        return false;
      }
      if (n.additional_properties != nullptr && !check(*n.additional_properties, m.value)) ok = false;
    }
    return ok;
  }

  bool check_combinators(const SchemaNode& n, const pyjson::Value& v) {
    bool ok = true;
    const SchemaNode::IfDispatch* d = n.dispatch.get();
    const pyjson::Value* key = d != nullptr && v.is_object() ? find_member(v, d->property) : nullptr;
    if (key != nullptr && key->is_string()) {
      // The branches of the pure if/then/else members, decided by one lookup (IfDispatch).
      const std::string& s = key->as_string();
      std::uint64_t mask = d->default_mask;
      for (const auto& [text, bits] : d->masks) {
        if (same(text, s)) {
          mask = bits;
          break;
        }
      }
      for (std::size_t i = 0; i < n.all_of.size(); ++i) {
        const int slot = d->slot[i];
        bool member_ok = true;
        if (slot < 0) {
          member_ok = check(*n.all_of[i], v);
        } else {
          const auto b = static_cast<std::size_t>(slot);
          const SchemaNode* branch = (mask >> b) & 1u ? d->then_schema[b] : d->else_schema[b];
          member_ok = branch == nullptr || check(*branch, v);
        }
        if (!member_ok) {
          ok = false;
          if (fast()) return false;
        }
      }
    } else {
      for (const SchemaNode* s : n.all_of) {
        if (!check(*s, v)) {
          ok = false;
          if (fast()) return false;
        }
      }
    }
    if (!n.any_of.empty()) {
      const bool any = std::any_of(n.any_of.begin(), n.any_of.end(), [&](const SchemaNode* s) { return matches(*s, v); });
      if (!any) {
        ok = false;
        if constexpr (!Fast) report(n, "anyOf", describe_value(v) + " matches none of the " + std::to_string(n.any_of.size()) + " anyOf alternatives");
        if (fast()) return false;
      }
    }
    if (!n.one_of.empty()) {
      const auto count = std::count_if(n.one_of.begin(), n.one_of.end(), [&](const SchemaNode* s) { return matches(*s, v); });
      if (count != 1) {
        ok = false;
        if constexpr (!Fast) report(n, "oneOf", describe_value(v) + " matches " + std::to_string(count) + " of the " +
                               std::to_string(n.one_of.size()) + " oneOf alternatives, expected exactly 1");
        if (fast()) return false;
      }
    }
    if (n.not_schema != nullptr && matches(*n.not_schema, v)) {
      ok = false;
      if constexpr (!Fast) report(n, "not", describe_value(v) + " must not match the schema at " + n.not_schema->pointer);
      if (fast()) return false;
    }
    if (n.if_schema != nullptr) {
      // (matches() evaluates msdump's "if" schemas as one member lookup: SimpleCondition)
      const SchemaNode* branch = matches(*n.if_schema, v) ? n.then_schema : n.else_schema;
      if (branch != nullptr && !check(*branch, v)) ok = false;
    }
    return ok;
  }

  std::vector<Violation>* m_out;
  std::string_view m_prefix;
  std::vector<Segment> m_path;
  LookupCache m_lookup;
};

const SchemaNode& resolved(const SchemaNode& n) {
  const SchemaNode* node = &n;
  while (node->ref != nullptr) node = node->ref;
  return *node;
}

// A node with nothing but if/then/else.
bool is_pure_if(const SchemaNode& n) {
  return n.if_schema != nullptr && !n.always_false && n.types == 0 && !n.has_enum && !n.has_minimum && !n.has_maximum &&
         !n.has_exclusive_minimum && !n.has_exclusive_maximum && n.min_length == 0 && n.max_length == SIZE_MAX &&
         !n.pattern && n.items == nullptr && n.tuple_items.empty() && n.additional_items == nullptr && n.min_items == 0 &&
         n.max_items == SIZE_MAX && n.required.empty() && n.properties.empty() && n.pattern_properties.empty() &&
         n.additional_properties == nullptr && !n.additional_forbidden && n.property_names == nullptr &&
         n.dependencies.empty() && n.schema_dependencies.empty() && n.min_properties == 0 &&
         n.max_properties == SIZE_MAX && n.all_of.empty() && n.any_of.empty() && n.one_of.empty() &&
         n.not_schema == nullptr;
}

// Whether `n`, applied to a string, gives the same answer for every string that none of its
// enums names (collected into `strings`): only type, enum (of strings) and combinators of
// such schemas apply; pattern and lengths do not qualify.
bool is_string_predicate(const SchemaNode& node, std::vector<std::string>& strings, int depth = 0) {
  const SchemaNode& n = resolved(node);
  if (depth > 16 || n.pattern || n.min_length != 0 || n.max_length != SIZE_MAX) return false;
  if (n.has_enum) {
    if (!n.enum_others.empty()) return false;
    strings.insert(strings.end(), n.enum_string_list.begin(), n.enum_string_list.end());
  }
  for (const auto* list : {&n.all_of, &n.any_of, &n.one_of}) {
    for (const SchemaNode* s : *list) {
      if (!is_string_predicate(*s, strings, depth + 1)) return false;
    }
  }
  for (const SchemaNode* s : {n.not_schema, n.if_schema, n.then_schema, n.else_schema}) {
    if (s != nullptr && !is_string_predicate(*s, strings, depth + 1)) return false;
  }
  return true;
}

// The kinds of scalar value `n` accepts whatever the value: only "type" (and, for numbers
// and strings, no bounds, lengths or pattern) applies to them; enums and combinators
// disqualify every kind.
void build_enum_slots(SchemaNode& n) {
  if (n.enum_string_list.size() <= 16 || n.enum_string_list.size() >= 0xFF) return;
  n.enum_slots.assign(256, 0);
  for (std::size_t i = 0; i < n.enum_string_list.size(); ++i) {
    std::uint8_t& c = n.enum_slots[name_slot(n.enum_string_list[i])];
    c = c == 0 ? static_cast<std::uint8_t>(i + 1) : 0xFF;
  }
}

void build_name_slots(SchemaNode& n) {
  if (n.names.size() < 4 || n.names.size() >= 0xFF) return;
  n.name_slots.assign(256, 0);
  for (std::size_t i = 0; i < n.names.size(); ++i) {
    std::uint8_t& c = n.name_slots[name_slot(n.names[i])];
    c = c == 0 ? static_cast<std::uint8_t>(i + 1) : 0xFF;
  }
}

unsigned trivial_kinds(const SchemaNode& n) {
  if (n.always_false || n.has_enum || !n.all_of.empty() || !n.any_of.empty() || !n.one_of.empty() ||
      n.not_schema != nullptr || n.if_schema != nullptr)
    return 0;
  auto allows = [&](unsigned bits) { return n.types == 0 || (n.types & bits) != 0; };
  const bool bounded = n.has_minimum || n.has_maximum || n.has_exclusive_minimum || n.has_exclusive_maximum;
  unsigned kinds = 0;
  auto set = [&](pyjson::Kind k) { kinds |= 1u << static_cast<unsigned>(k); };
  if (allows(k_type_null)) set(pyjson::Kind::null);
  if (allows(k_type_boolean)) set(pyjson::Kind::boolean);
  if (allows(k_type_integer | k_type_number) && !bounded) {
    set(pyjson::Kind::integer);
    set(pyjson::Kind::big_integer);
  }
  if (allows(k_type_number) && !bounded) set(pyjson::Kind::floating);
  if (allows(k_type_string) && !n.pattern && n.min_length == 0 && n.max_length == SIZE_MAX) set(pyjson::Kind::string);
  return kinds;
}

// SchemaNode::target and the keyword-group flags and masks (after `dispatch` is set).
void prepare_groups(SchemaNode& n) {
  n.target = &resolved(n);
  n.number_rules = n.has_minimum || n.has_maximum || n.has_exclusive_minimum || n.has_exclusive_maximum;
  n.string_rules = n.min_length > 0 || n.max_length != SIZE_MAX || n.pattern != nullptr;
  n.object_rules = n.min_properties > 0 || n.max_properties != SIZE_MAX || !n.required.empty() ||
                   !n.dependencies.empty() || !n.schema_dependencies.empty() || !n.properties.empty() ||
                   !n.pattern_properties.empty() || n.additional_properties != nullptr || n.additional_forbidden ||
                   n.property_names != nullptr;
  n.combinators = n.dispatch != nullptr || !n.all_of.empty() || !n.any_of.empty() || !n.one_of.empty() ||
                  n.not_schema != nullptr || n.if_schema != nullptr;
  n.masks = n.names.size() <= 64 &&
            std::all_of(n.required_index.begin(), n.required_index.end(), [](int r) { return r >= 0; }) &&
            std::all_of(n.dependency_index.begin(), n.dependency_index.end(), [](const auto& d) {
              return d.first >= 0 && std::all_of(d.second.begin(), d.second.end(), [](int k) { return k >= 0; });
            });
  if (!n.masks) return;
  auto bit = [](int index) { return index < 0 ? std::uint64_t{0} : std::uint64_t{1} << index; };
  n.required_mask = 0;
  for (const int r : n.required_index) n.required_mask |= bit(r);
  n.dependency_masks.clear();
  for (const auto& [name, needs] : n.dependency_index) {
    std::uint64_t m = 0;
    for (const int k : needs) m |= bit(k);
    n.dependency_masks.emplace_back(bit(name), m);
  }
}

}  // namespace

void prepare_fast_paths(const std::vector<std::unique_ptr<SchemaNode>>& nodes) {
  for (const auto& owned : nodes) {
    SchemaNode& n = *owned;
    if (n.all_of.empty()) continue;
    auto d = std::make_unique<SchemaNode::IfDispatch>();
    std::vector<std::string> strings;
    std::vector<const SchemaNode*> conditions;
    for (const SchemaNode* member : n.all_of) {
      const SchemaNode& m = resolved(*member);
      int slot = -1;
      const SchemaNode* cond = m.if_schema;
      if (is_pure_if(m) && cond->simple && (cond->types == 0 || (cond->types & k_type_object) != 0) &&
          (d->property.empty() || d->property == cond->simple->property) && conditions.size() < 64) {
        std::vector<std::string> found;
        if (is_string_predicate(*cond->simple->schema, found)) {
          d->property = cond->simple->property;
          strings.insert(strings.end(), found.begin(), found.end());
          slot = static_cast<int>(conditions.size());
          conditions.push_back(cond);
          d->then_schema.push_back(m.then_schema);
          d->else_schema.push_back(m.else_schema);
        }
      }
      d->slot.push_back(slot);
    }
    if (conditions.empty()) continue;
    std::sort(strings.begin(), strings.end());
    strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
    // Every condition evaluated on {P: s} by the walker itself: the table holds its answers.
    auto mask_for = [&](const std::string& s) {
      pyjson::Value probe = pyjson::Value::object();
      probe.add(d->property, pyjson::Value::string(s));
      std::uint64_t mask = 0;
      for (std::size_t i = 0; i < conditions.size(); ++i) {
        if (Walker<true>(nullptr, {}).condition(*conditions[i], probe)) mask |= std::uint64_t{1} << i;
      }
      return mask;
    };
    std::string other = "\x01";
    while (std::binary_search(strings.begin(), strings.end(), other)) other += '\x01';
    d->default_mask = mask_for(other);
    for (const std::string& s : strings) {
      const std::uint64_t m = mask_for(s);
      if (m != d->default_mask) d->masks.emplace_back(s, m);
    }
    n.dispatch = std::move(d);
  }
  for (const auto& owned : nodes) prepare_groups(*owned);
  for (const auto& owned : nodes) {
    owned->trivial_kinds = trivial_kinds(resolved(*owned));
    build_name_slots(*owned);
    build_enum_slots(*owned);
  }
  for (const auto& owned : nodes) {
    SchemaNode& n = *owned;
    if (n.pattern_properties.empty() || n.pattern_properties.size() >= 64) continue;
    for (const auto& p : n.pattern_properties) n.member_patterns.push_back(&p.first);
    if (n.property_names != nullptr) {
      const SchemaNode& pn = resolved(*n.property_names);
      // {"type": "string", "pattern": P} (keywords for other types do not apply to a name)
      if (pn.pattern && !pn.always_false && (pn.types == 0 || (pn.types & k_type_string) != 0) && !pn.has_enum &&
          pn.min_length == 0 && pn.max_length == SIZE_MAX && pn.all_of.empty() && pn.any_of.empty() &&
          pn.one_of.empty() && pn.not_schema == nullptr && pn.if_schema == nullptr) {
        n.member_patterns.push_back(pn.pattern.get());
        n.name_pattern_only = true;
      }
    }
    if (auto product = SchemaRegexSet::build(n.member_patterns.data(), n.member_patterns.size()))
      n.member_set = std::make_unique<SchemaRegexSet>(std::move(*product));
  }
}

bool CompiledSchema::validate(const pyjson::Value& value, std::string_view prefix, std::vector<Violation>& out) const {
  return Walker<false>(&out, prefix).check(*m_root, value);
}

bool CompiledSchema::is_valid(const pyjson::Value& value) const { return Walker<true>(nullptr, {}).check(*m_root, value); }

bool CompiledSchema::is_valid_at(const SchemaNode& node, const pyjson::Value& value) const {
  return Walker<true>(nullptr, {}).check(node, value);
}

}  // namespace msdump::schema
