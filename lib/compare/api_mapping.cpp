#include "compare/api_mapping.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "compare/yaml_tree.h"
#include "dump/entry_name.h"

namespace msdump::compare {
namespace {

struct TablePair {
  std::string_view ms, pt;
};
constexpr TablePair k_table[] = {
#include "compare/api_mapping_table.inc"
};
static_assert(std::is_sorted(std::begin(k_table), std::end(k_table),
                             [](const TablePair& a, const TablePair& b) { return a.ms < b.ms; }),
              "api_mapping_table.inc must be sorted by its MindSpore op");

// Prefix rules, applied when an op has no entry of its own.
constexpr std::array<TablePair, 2> k_prefixes{{{"MintFunctional.", "Functional."}, {"Mint.", "Torch."}}};

constexpr std::array<std::string_view, 10> k_rule_keys{"ms_api",        "pt_api",        "ms_args",
                                                       "pt_args",       "ms_outputs",    "pt_outputs",
                                                       "ms_parameters", "pt_parameters", "ms_parameters_grad",
                                                       "pt_parameters_grad"};

// One list of positions (integers or names).
Result<std::vector<std::string>> positions(const YamlNode& node, std::string_view key, const std::string& shown_as) {
  if (node.kind != YamlNode::Kind::sequence)
    return yaml_error(shown_as, node, fmt::format("expected a list of positions for {}, found {}", key, describe(node.kind)));
  std::vector<std::string> out;
  for (const auto& item : node.items) {
    if (item.kind != YamlNode::Kind::scalar || item.text.empty())
      return yaml_error(shown_as, item, fmt::format("expected a position (an integer or a name) in {}, found {}", key,
                                                    item.kind == YamlNode::Kind::scalar ? "an empty string" : describe(item.kind)));
    out.push_back(item.text);
  }
  return out;
}

// Pairs section `name` of `fields` (ms_<name>, pt_<name>) into `out`.
Result<void> section(const std::unordered_map<std::string, const YamlNode*>& fields, const YamlNode& rule,
                     std::string_view name, ApiRule::Section& out, const std::string& shown_as) {
  const std::string ms_key = fmt::format("ms_{}", name), pt_key = fmt::format("pt_{}", name);
  const auto ms = fields.find(ms_key), pt = fields.find(pt_key);
  if (ms == fields.end() && pt == fields.end()) return {};
  if (ms == fields.end() || pt == fields.end())
    return yaml_error(shown_as, rule, fmt::format("{} and {} must be given together", ms_key, pt_key));
  auto a = positions(*ms->second, ms_key, shown_as);
  if (!a) return a.error();
  auto b = positions(*pt->second, pt_key, shown_as);
  if (!b) return b.error();
  if (a->size() != b->size())
    return yaml_error(shown_as, *pt->second, fmt::format("{} has {} positions, {} has {}; expected the same number",
                                                         ms_key, a->size(), pt_key, b->size()));
  out.given = true;
  out.ms = std::move(*a);
  out.pt = std::move(*b);
  return {};
}

Result<std::string> op_name(const std::unordered_map<std::string, const YamlNode*>& fields, const YamlNode& rule,
                            const std::string& key, const std::string& shown_as) {
  const auto it = fields.find(key);
  if (it == fields.end()) return yaml_error(shown_as, rule, fmt::format("the rule has no {}", key));
  const YamlNode& v = *it->second;
  if (v.kind != YamlNode::Kind::scalar || v.text.empty())
    return yaml_error(shown_as, v, fmt::format("expected an API name for {}, found {}", key,
                                               v.kind == YamlNode::Kind::scalar ? "an empty string" : describe(v.kind)));
  return v.text;
}

Result<ApiRule> parse_rule(const YamlNode& rule, const std::string& shown_as) {
  if (rule.kind != YamlNode::Kind::map)
    return yaml_error(shown_as, rule, fmt::format("expected a rule (a mapping with ms_api and pt_api), found {}",
                                                  describe(rule.kind)));
  std::unordered_map<std::string, const YamlNode*> fields;
  for (std::size_t i = 0; i + 1 < rule.items.size(); i += 2) {
    const YamlNode& key = rule.items[i];
    if (key.kind != YamlNode::Kind::scalar ||
        std::find(k_rule_keys.begin(), k_rule_keys.end(), key.text) == k_rule_keys.end())
      return yaml_error(shown_as, key, fmt::format("expected one of ms_api, pt_api, ms_args, pt_args, ms_outputs, "
                                                   "pt_outputs, ms_parameters, pt_parameters, ms_parameters_grad, "
                                                   "pt_parameters_grad, found {}",
                                                   key.kind == YamlNode::Kind::scalar ? "'" + key.text + "'"
                                                                                       : std::string(describe(key.kind))));
    if (!fields.emplace(key.text, &rule.items[i + 1]).second)
      return yaml_error(shown_as, key, fmt::format("duplicate key '{}'", key.text));
  }
  ApiRule out;
  auto ms = op_name(fields, rule, "ms_api", shown_as);
  if (!ms) return ms.error();
  auto pt = op_name(fields, rule, "pt_api", shown_as);
  if (!pt) return pt.error();
  out.ms_api = std::move(*ms);
  out.pt_api = std::move(*pt);
  MSDUMP_TRY(section(fields, rule, "args", out.args, shown_as));
  MSDUMP_TRY(section(fields, rule, "outputs", out.outputs, shown_as));
  MSDUMP_TRY(section(fields, rule, "parameters", out.parameters, shown_as));
  MSDUMP_TRY(section(fields, rule, "parameters_grad", out.parameters_grad, shown_as));
  return out;
}

// The section of a row suffix (".input.<p>...", ".output.<p>...", ".parameters.<p>..."; for a
// parameters_grad entry ".<p>...") and the text after its section word: "<p>...".
struct SuffixParts {
  std::string_view word;  // "input", "output", "parameters", or empty (parameters_grad)
  std::string_view rest;
};

// `suffix` with its first position remapped by `rule` into `out`; false when the section's
// lists are given and do not list that position.
bool remap_suffix(std::string_view suffix, bool parameters_grad_entry, const ApiRule& rule, std::string& out) {
  out = std::string(suffix);
  SuffixParts parts{{}, suffix.substr(1)};
  const ApiRule::Section* sec = &rule.parameters_grad;
  if (!parameters_grad_entry) {
    const auto dot = parts.rest.find('.');
    if (dot == std::string_view::npos) return true;
    parts.word = parts.rest.substr(0, dot);
    parts.rest = parts.rest.substr(dot + 1);
    if (parts.word == "input") sec = &rule.args;
    else if (parts.word == "output") sec = &rule.outputs;
    else if (parts.word == "parameters") sec = &rule.parameters;
    else return true;
  }
  if (!sec->given) return true;
  const auto end = parts.rest.find('.');
  const auto it = std::find(sec->ms.begin(), sec->ms.end(), parts.rest.substr(0, end));
  if (it == sec->ms.end()) return false;
  out = parts.word.empty() ? "." : fmt::format(".{}.", parts.word);
  out += sec->pt[static_cast<std::size_t>(it - sec->ms.begin())];
  if (end != std::string_view::npos) out += parts.rest.substr(end);
  return true;
}

// The entry name with its op replaced by `op`.
std::string with_op(std::string_view entry_name, std::string_view old_op, std::string_view op) {
  return std::string(op) + std::string(entry_name.substr(old_op.size()));
}

}  // namespace

Result<ApiMapping> parse_api_mapping(std::string_view yaml, const std::string& shown_as) {
  auto root = read_yaml(yaml, shown_as);
  if (!root) return root.error();
  if (root->kind != YamlNode::Kind::sequence)
    return yaml_error(shown_as, *root, fmt::format("expected a list of API rules, found {}", describe(root->kind)));
  ApiMapping out;
  for (const auto& item : root->items) {
    auto rule = parse_rule(item, shown_as);
    if (!rule) return rule.error();
    if (!out.by_ms_api.emplace(rule->ms_api, out.rules.size()).second)
      return yaml_error(shown_as, item, fmt::format("a second rule for ms_api '{}'", rule->ms_api));
    out.rules.push_back(std::move(*rule));
  }
  return out;
}

std::string builtin_pt_op(std::string_view ms_op) {
  const auto* end = std::end(k_table);
  const auto* it = std::lower_bound(std::begin(k_table), end, ms_op,
                                    [](const TablePair& p, std::string_view op) { return p.ms < op; });
  if (it != end && it->ms == ms_op) return std::string(it->pt);
  for (const auto& [from, to] : k_prefixes)
    if (ms_op.starts_with(from)) return std::string(to) + std::string(ms_op.substr(from.size()));
  return std::string(ms_op);
}

std::string api_mapped_name(std::string_view row_name, std::string_view entry_name, const ApiMapping& mapping) {
  const auto parsed = dump::parse_entry_name(entry_name);
  const bool known = parsed.is_api() || parsed.is_module();
  if (!known || !row_name.starts_with(entry_name)) return std::string(row_name);
  const std::string_view suffix = row_name.substr(entry_name.size());
  if (!suffix.empty() && suffix.front() != '.') return std::string(row_name);
  const auto rule = mapping.by_ms_api.find(std::string(parsed.op));
  if (rule == mapping.by_ms_api.end()) {
    if (!parsed.is_api()) return std::string(row_name);
    return with_op(entry_name, parsed.op, builtin_pt_op(parsed.op)) + std::string(suffix);
  }
  const ApiRule& r = mapping.rules[rule->second];
  std::string mapped_suffix;
  if (!suffix.empty() && !remap_suffix(suffix, parsed.kind == dump::EntryKind::parameters_grad, r, mapped_suffix))
    return {};
  return with_op(entry_name, parsed.op, r.pt_api) + mapped_suffix;
}

}  // namespace msdump::compare
