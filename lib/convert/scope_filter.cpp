#include "convert/scope_filter.h"

#include <fmt/format.h>

namespace msdump::convert {
namespace {

bool is_api_name(const std::string& n) { return dump::parse_entry_name(n).is_api(); }

bool is_module_name(const std::string& n) {
  const auto k = dump::parse_entry_name(n).kind;
  return k == dump::EntryKind::module_forward || k == dump::EntryKind::module_backward;
}

std::string quoted_scope(const std::vector<std::string>& scope) {
  std::string s = "[";
  for (std::size_t i = 0; i < scope.size(); ++i) s += (i ? ", \"" : "\"") + scope[i] + "\"";
  return s + "]";
}

}  // namespace

Result<ScopeFilter> ScopeFilter::create(const std::vector<std::string>& scope, Level level) {
  ScopeFilter f;
  if (scope.empty()) return f;
  if (scope.size() > 2)
    return invalid_input(fmt::format("scope {}: expected one or two entry names (the range's start and end), got {}",
                                     quoted_scope(scope), scope.size()));
  f.m_start = scope[0];
  f.m_end = scope.size() == 2 ? scope[1] : scope[0];
  for (const auto* n : {&f.m_start, &f.m_end}) {
    const bool api = is_api_name(*n), module = is_module_name(*n);
    if (level == Level::L1 && !api)
      return invalid_input(fmt::format("scope {}: \"{}\" is not an API entry name (expected e.g. "
                                       "\"Functional.linear.0.forward\" at level L1)",
                                       quoted_scope(scope), *n));
    if (level == Level::L0 && !module)
      return invalid_input(fmt::format("scope {}: \"{}\" is not a module entry name (expected e.g. "
                                       "\"Module.fc.Linear.forward.0\" at level L0)",
                                       quoted_scope(scope), *n));
    if (level == Level::mix && !api && !module)
      return invalid_input(fmt::format("scope {}: \"{}\" is neither an API nor a module entry name",
                                       quoted_scope(scope), *n));
  }
  if (level == Level::mix) {
    f.m_kind = Kind::mix_range;
  } else if (level == Level::L1) {
    f.m_kind = Kind::api_range;
  } else {
    f.m_kind = Kind::module_range;
  }
  return f;
}

std::pair<bool, bool> ScopeFilter::module_edges(const dump::EntryName& name, bool has_input, bool has_output) {
  if (name.kind == dump::EntryKind::module_backward) return {true, true};
  if (name.kind != dump::EntryKind::module_forward) return {false, false};
  return {has_input, has_output};
}

bool ScopeFilter::check(const std::string& name) {
  if (m_kind == Kind::module_range) return m_in_scope;
  if (name == m_start) m_in_scope = true;
  const bool result = m_in_scope;
  if (name == m_end) m_in_scope = false;
  return result;
}

void ScopeFilter::begin_module(const std::string& name) {
  if (m_kind != Kind::api_range && name == m_start) m_in_scope = true;
}

void ScopeFilter::end_module(const std::string& name) {
  if (m_kind != Kind::api_range && name == m_end) m_in_scope = false;
}

bool ScopeFilter::event(const std::string& name, bool opens, bool closes) {
  if (m_kind == Kind::none) return true;
  if (opens) begin_module(name);
  const bool result = check(name);
  if (closes) end_module(name);
  return result;
}

std::string_view to_string(ScopeFilter::Kind kind) {
  switch (kind) {
    case ScopeFilter::Kind::none: return "none";
    case ScopeFilter::Kind::api_range: return "api";
    case ScopeFilter::Kind::module_range: return "module";
    case ScopeFilter::Kind::mix_range: return "mix";
  }
  return "none";
}

}  // namespace msdump::convert
