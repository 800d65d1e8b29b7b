#include "schema/compiled_schema.h"

#include <algorithm>
#include <map>
#include <span>

#include "pyjson/pyfloat.h"

namespace msdump::schema {
namespace {

constexpr std::string_view k_ignored_keywords[] = {
    "$schema", "$id", "id", "$comment", "title", "description", "default", "examples", "definitions",
};

// Unescapes one JSON Pointer token ("~1" -> "/", "~0" -> "~").
std::string unescape_token(std::string_view t) {
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '~' && i + 1 < t.size() && (t[i + 1] == '0' || t[i + 1] == '1')) {
      out.push_back(t[i + 1] == '0' ? '~' : '/');
      ++i;
    } else {
      out.push_back(t[i]);
    }
  }
  return out;
}

// The value at JSON Pointer `pointer` inside `root`, or nullptr.
const pyjson::Value* resolve(const pyjson::Value& root, std::string_view pointer) {
  const pyjson::Value* cur = &root;
  if (pointer == "/") return cur;
  while (!pointer.empty()) {
    if (pointer[0] != '/') return nullptr;
    pointer.remove_prefix(1);
    const std::size_t slash = pointer.find('/');
    const std::string token = unescape_token(pointer.substr(0, slash));
    pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(slash);
    if (cur->is_object()) {
      cur = cur->find(token);
    } else if (cur->is_array()) {
      std::size_t i = 0;
      if (token.empty() || token.size() > 9 || token.find_first_not_of("0123456789") != std::string::npos) return nullptr;
      i = std::stoul(token);
      if (i >= cur->as_array().size()) return nullptr;
      cur = &cur->as_array()[i];
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

// "'<keyword>' <what>", built by appending: GCC 12 reports a false -Wrestrict on
// "'" + std::string(...) + "..." chains.
std::string keyword_error(std::string_view keyword, std::string_view what) {
  std::string s = "'";
  s.append(keyword);
  s += "' ";
  s.append(what);
  return s;
}

std::string child_pointer(const std::string& parent, std::string_view keyword) {
  std::string p = parent;
  append_pointer_token(p, keyword);
  return p;
}

class Compiler {
 public:
  Compiler(const pyjson::Value& root, std::vector<std::unique_ptr<SchemaNode>>& nodes) : m_root(root), m_nodes(nodes) {}

  // The node for the schema at `pointer` (compiled once; cycles through $ref are fine because
  // a node is registered before its children are compiled). nullptr after an error.
  const SchemaNode* node_at(const std::string& pointer) {
    const auto it = m_by_pointer.find(pointer);
    if (it != m_by_pointer.end()) return it->second;
    const pyjson::Value* schema = resolve(m_root, pointer);
    if (schema == nullptr) {
      fail("", "no sub-schema at '" + pointer + "'");
      return nullptr;
    }
    m_nodes.push_back(std::make_unique<SchemaNode>());
    SchemaNode* node = m_nodes.back().get();
    node->pointer = pointer;
    m_by_pointer.emplace(pointer, node);
    fill(*node, *schema);
    return m_error.empty() ? node : nullptr;
  }

  const std::string& error() const { return m_error; }

 private:
  void fail(const std::string& where, std::string what) {
    if (m_error.empty()) m_error = where.empty() ? std::move(what) : where + ": " + what;
  }

  const SchemaNode* sub(const SchemaNode& parent, std::string_view keyword) {
    return node_at(child_pointer(parent.pointer, keyword));
  }
  const SchemaNode* sub(const SchemaNode& parent, std::string_view keyword, std::string_view key) {
    return node_at(child_pointer(child_pointer(parent.pointer, keyword), key));
  }
  const SchemaNode* sub(const SchemaNode& parent, std::string_view keyword, std::size_t index) {
    std::string p = child_pointer(parent.pointer, keyword);
    append_pointer_index(p, index);
    return node_at(p);
  }

  bool count(const SchemaNode& n, const pyjson::Value& v, std::string_view keyword, std::size_t& out) {
    const std::int64_t* i = v.if_int();
    if (i == nullptr || *i < 0) {
      fail(n.pointer, keyword_error(keyword, "must be a non-negative integer"));
      return false;
    }
    out = static_cast<std::size_t>(*i);
    return true;
  }

  bool number(const SchemaNode& n, const pyjson::Value& v, std::string_view keyword, double& out) {
    if (const std::int64_t* i = v.if_int()) {
      out = static_cast<double>(*i);
    } else if (const double* d = v.if_float()) {
      out = *d;
    } else {
      fail(n.pointer, keyword_error(keyword, "must be a number"));
      return false;
    }
    return true;
  }

  bool string_list(const SchemaNode& n, const pyjson::Value& v, std::string_view keyword, std::vector<std::string>& out) {
    if (!v.is_array()) {
      fail(n.pointer, keyword_error(keyword, "must be an array of strings"));
      return false;
    }
    for (const pyjson::Value& s : v.as_array()) {
      if (!s.is_string()) {
        fail(n.pointer, keyword_error(keyword, "must be an array of strings"));
        return false;
      }
      out.push_back(s.as_string());
    }
    return true;
  }

  std::unique_ptr<SchemaRegex> regex(const SchemaNode& n, const std::string& pattern) {
    auto re = SchemaRegex::compile(pattern);
    if (!re) {
      fail(n.pointer, re.error().message);
      return nullptr;
    }
    return std::make_unique<SchemaRegex>(std::move(*re));
  }

  void type(SchemaNode& n, const pyjson::Value& v) {
    auto bit = [&](const pyjson::Value& name) -> unsigned {
      static constexpr std::pair<std::string_view, unsigned> k_names[] = {
          {"null", k_type_null},     {"boolean", k_type_boolean}, {"integer", k_type_integer},
          {"number", k_type_number}, {"string", k_type_string},   {"array", k_type_array},
          {"object", k_type_object},
      };
      if (const std::string* s = name.if_string()) {
        for (const auto& [text, b] : k_names) {
          if (*s == text) return b;
        }
      }
      fail(n.pointer, "unknown type in 'type'");
      return 0;
    };
    if (v.is_array()) {
      for (const pyjson::Value& t : v.as_array()) n.types |= bit(t);
    } else {
      n.types = bit(v);
    }
  }

  void enumeration(SchemaNode& n, const pyjson::Value& values) {
    n.has_enum = true;
    for (const pyjson::Value& e : values.as_array()) {
      if (e.is_string()) {
        if (n.enum_strings.insert(e.as_string()).second) n.enum_string_list.push_back(e.as_string());
      } else {
        n.enum_others.push_back(e);
      }
      n.enum_all.push_back(e);
    }
  }

  void fill(SchemaNode& n, const pyjson::Value& schema) {
    if (schema.is_bool()) {
      n.always_false = !schema.as_bool();
      return;
    }
    if (!schema.is_object()) {
      fail(n.pointer, "a schema must be an object or a boolean");
      return;
    }
    if (const pyjson::Value* ref = schema.find("$ref")) {
      const std::string* target = ref->if_string();
      if (target == nullptr || target->empty() || (*target)[0] != '#') {
        fail(n.pointer, "only local $ref ('#/...') is supported");
        return;
      }
      const std::string pointer = target->substr(1);
      if (resolve(m_root, pointer) == nullptr) {
        fail(n.pointer, "$ref '" + *target + "' does not resolve");
        return;
      }
      n.ref = node_at(pointer);
      return;
    }
    for (const pyjson::Member& m : schema.as_object()) {
      if (!m_error.empty()) return;
      keyword(n, m.key, m.value, schema);
    }
    index_names(n);
    detect_simple_condition(n, schema);
  }

  static int name_index(std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<int>(it - names.begin());
    names.push_back(name);
    return static_cast<int>(names.size()) - 1;
  }

  static void index_names(SchemaNode& n) {
    for (const auto& p : n.properties) n.names.push_back(p.first);
    for (const std::string& r : n.required) n.required_index.push_back(name_index(n.names, r));
    for (const auto& [name, needs] : n.dependencies) {
      std::vector<int> idx;
      for (const std::string& need : needs) idx.push_back(name_index(n.names, need));
      n.dependency_index.emplace_back(name_index(n.names, name), std::move(idx));
    }
  }

  static void detect_simple_condition(SchemaNode& n, const pyjson::Value& schema) {
    if (n.properties.size() != 1 || n.required.size() > 1) return;
    if (n.required.size() == 1 && n.required[0] != n.properties[0].first) return;
    for (const pyjson::Member& m : schema.as_object()) {
      const bool allowed = m.key == "type" || m.key == "required" || m.key == "properties" ||
                           std::find(std::begin(k_ignored_keywords), std::end(k_ignored_keywords), m.key) !=
                               std::end(k_ignored_keywords);
      if (!allowed) return;
    }
    n.simple = std::make_unique<SchemaNode::SimpleCondition>(
        SchemaNode::SimpleCondition{n.properties[0].first, n.properties[0].second, n.required.size() == 1});
  }

  // One keyword of a schema object: its name, value and the object holding it.
  struct KeywordArgs {
    SchemaNode& n;
    std::string_view k;
    const pyjson::Value& v;
    const pyjson::Value& schema;
  };
  using KeywordHandler = void (*)(Compiler& c, const KeywordArgs& a);
  struct Keyword {
    std::string_view name;
    KeywordHandler handle;
  };

  void keyword(SchemaNode& n, const std::string& k, const pyjson::Value& v, const pyjson::Value& schema) {
    for (const Keyword& kw : keyword_table()) {
      if (kw.name == k) return kw.handle(*this, KeywordArgs{n, k, v, schema});
    }
    if (std::find(std::begin(k_ignored_keywords), std::end(k_ignored_keywords), k) == std::end(k_ignored_keywords))
      fail(n.pointer, "unsupported keyword '" + k + "'");
  }

  // The keywords this compiler implements (draft 4-7 as docs/format.md's schemas use them).
  static std::span<const Keyword> keyword_table() {
    using A = const KeywordArgs&;
    static constexpr Keyword k_table[] = {
        {"type", [](Compiler& c, A a) { c.type(a.n, a.v); }},
        {"enum", [](Compiler& c, A a) { c.enum_keyword(a); }},
        {"const",
         [](Compiler& c, A a) {
           c.enumeration(a.n, pyjson::Value::array({a.v}));
           a.n.is_const = true;
         }},
        {"minimum", [](Compiler& c, A a) { a.n.has_minimum = c.number(a.n, a.v, a.k, a.n.minimum); }},
        {"maximum", [](Compiler& c, A a) { a.n.has_maximum = c.number(a.n, a.v, a.k, a.n.maximum); }},
        {"exclusiveMinimum",
         [](Compiler& c, A a) { a.n.has_exclusive_minimum = c.number(a.n, a.v, a.k, a.n.exclusive_minimum); }},
        {"exclusiveMaximum",
         [](Compiler& c, A a) { a.n.has_exclusive_maximum = c.number(a.n, a.v, a.k, a.n.exclusive_maximum); }},
        {"minLength", [](Compiler& c, A a) { c.count(a.n, a.v, a.k, a.n.min_length); }},
        {"maxLength", [](Compiler& c, A a) { c.count(a.n, a.v, a.k, a.n.max_length); }},
        {"pattern", [](Compiler& c, A a) { c.pattern_keyword(a); }},
        {"items", [](Compiler& c, A a) { c.items_keyword(a); }},
        {"additionalItems", [](Compiler& c, A a) { a.n.additional_items = c.sub(a.n, a.k); }},
        {"minItems", [](Compiler& c, A a) { c.count(a.n, a.v, a.k, a.n.min_items); }},
        {"maxItems", [](Compiler& c, A a) { c.count(a.n, a.v, a.k, a.n.max_items); }},
        {"required", [](Compiler& c, A a) { c.string_list(a.n, a.v, a.k, a.n.required); }},
        {"properties", [](Compiler& c, A a) { c.properties_keyword(a); }},
        {"patternProperties", [](Compiler& c, A a) { c.properties_keyword(a); }},
        {"additionalProperties", [](Compiler& c, A a) { c.additional_properties_keyword(a); }},
        {"propertyNames", [](Compiler& c, A a) { a.n.property_names = c.sub(a.n, a.k); }},
        {"dependencies", [](Compiler& c, A a) { c.dependencies_keyword(a); }},
        {"minProperties", [](Compiler& c, A a) { c.count(a.n, a.v, a.k, a.n.min_properties); }},
        {"maxProperties", [](Compiler& c, A a) { c.count(a.n, a.v, a.k, a.n.max_properties); }},
        {"allOf", [](Compiler& c, A a) { c.schema_list_keyword(a, a.n.all_of); }},
        {"anyOf", [](Compiler& c, A a) { c.schema_list_keyword(a, a.n.any_of); }},
        {"oneOf", [](Compiler& c, A a) { c.schema_list_keyword(a, a.n.one_of); }},
        {"not", [](Compiler& c, A a) { a.n.not_schema = c.sub(a.n, a.k); }},
        {"if", [](Compiler& c, A a) { c.if_keyword(a); }},
        // compiled with "if"; without an "if" they have no effect (draft 7)
        {"then", [](Compiler&, A) {}},
        {"else", [](Compiler&, A) {}},
    };
    return k_table;
  }

  void enum_keyword(const KeywordArgs& a) {
    if (!a.v.is_array()) return fail(a.n.pointer, "'enum' must be an array");
    enumeration(a.n, a.v);
  }

  void pattern_keyword(const KeywordArgs& a) {
    if (!a.v.is_string()) return fail(a.n.pointer, "'pattern' must be a string");
    a.n.pattern = regex(a.n, a.v.as_string());
  }

  void items_keyword(const KeywordArgs& a) {
    if (!a.v.is_array()) {
      a.n.items = sub(a.n, a.k);
      return;
    }
    for (std::size_t i = 0; i < a.v.as_array().size(); ++i) a.n.tuple_items.push_back(sub(a.n, a.k, i));
  }

  // "properties" or "patternProperties".
  void properties_keyword(const KeywordArgs& a) {
    if (!a.v.is_object()) return fail(a.n.pointer, keyword_error(a.k, "must be an object"));
    for (const pyjson::Member& p : a.v.as_object()) {
      const SchemaNode* child = sub(a.n, a.k, p.key);
      if (a.k == "properties") {
        a.n.properties.emplace_back(p.key, child);
      } else if (auto re = regex(a.n, p.key)) {
        a.n.pattern_properties.emplace_back(std::move(*re), child);
      }
    }
  }

  void additional_properties_keyword(const KeywordArgs& a) {
    if (a.v.is_bool() && !a.v.as_bool()) {
      a.n.additional_forbidden = true;
    } else if (!(a.v.is_bool() && a.v.as_bool())) {
      a.n.additional_properties = sub(a.n, a.k);
    }
  }

  void dependencies_keyword(const KeywordArgs& a) {
    if (!a.v.is_object()) return fail(a.n.pointer, "'dependencies' must be an object");
    for (const pyjson::Member& d : a.v.as_object()) {
      if (d.value.is_array()) {
        a.n.dependencies.emplace_back(d.key, std::vector<std::string>{});
        string_list(a.n, d.value, a.k, a.n.dependencies.back().second);
      } else {
        a.n.schema_dependencies.emplace_back(d.key, sub(a.n, a.k, d.key));
      }
    }
  }

  // "allOf", "anyOf" or "oneOf" into `list`.
  void schema_list_keyword(const KeywordArgs& a, std::vector<const SchemaNode*>& list) {
    if (!a.v.is_array() || a.v.as_array().empty()) return fail(a.n.pointer, keyword_error(a.k, "must be a non-empty array"));
    for (std::size_t i = 0; i < a.v.as_array().size(); ++i) list.push_back(sub(a.n, a.k, i));
  }

  void if_keyword(const KeywordArgs& a) {
    a.n.if_schema = sub(a.n, a.k);
    if (a.schema.find("then") != nullptr) a.n.then_schema = sub(a.n, "then");
    if (a.schema.find("else") != nullptr) a.n.else_schema = sub(a.n, "else");
  }

  const pyjson::Value& m_root;
  std::vector<std::unique_ptr<SchemaNode>>& m_nodes;
  std::map<std::string, SchemaNode*> m_by_pointer;
  std::string m_error;
};

}  // namespace

Result<CompiledSchema> CompiledSchema::compile(const pyjson::Value& document, std::string_view pointer) {
  CompiledSchema schema;
  Compiler compiler(document, schema.m_nodes);
  const std::string start = pointer == "/" ? std::string() : std::string(pointer);
  schema.m_root = compiler.node_at(start);
  if (schema.m_root == nullptr) return invalid_input(compiler.error());
  prepare_fast_paths(schema.m_nodes);
  return schema;
}

std::string describe_value(const pyjson::Value& v) {
  switch (v.kind()) {
    case pyjson::Kind::null: return "null";
    case pyjson::Kind::boolean: return v.as_bool() ? "true" : "false";
    case pyjson::Kind::integer: return std::to_string(v.as_int());
    case pyjson::Kind::big_integer: return v.as_big_integer();
    case pyjson::Kind::floating: {
      std::string s;
      pyjson::append_python_float(s, v.as_float());
      return s;
    }
    case pyjson::Kind::string: {
      const std::string& s = v.as_string();
      return s.size() > 60 ? "\"" + s.substr(0, 57) + "...\"" : "\"" + s + "\"";
    }
    case pyjson::Kind::array: return "an array";
    case pyjson::Kind::object: return "an object";
  }
  return "a value";
}

}  // namespace msdump::schema
