#include "dump/entry_name.h"

#include <charconv>

namespace msdump::dump {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::uint64_t to_number(std::string_view s) {
  std::uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// Splits off the last dotted segment: "a.b.c" -> {"a.b", "c"}; no dot -> {"", s}.
std::pair<std::string_view, std::string_view> split_last(std::string_view s) {
  const auto dot = s.rfind('.');
  if (dot == std::string_view::npos) return {{}, s};
  return {s.substr(0, dot), s.substr(dot + 1)};
}

bool module_prefixed(std::string_view s) { return s.starts_with("Module.") || s.starts_with("Cell."); }

// "Module.<path>.<Class>": at least one segment after the prefix word and a class segment.
bool valid_module_op(std::string_view op) {
  const auto first = op.find('.');
  if (first == std::string_view::npos) return false;
  const auto rest = op.substr(first + 1);
  const auto dot = rest.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < rest.size();
}

}  // namespace

EntryName parse_entry_name(std::string_view name) {
  EntryName out;
  auto [head, last] = split_last(name);
  if (head.empty()) return out;

  if (last == "debug") {
    auto [base, count] = split_last(head);
    if (!base.empty() && all_digits(count)) {
      out.kind = EntryKind::debug;
      out.op = base;
      out.number = to_number(count);
    }
    return out;
  }

  if (last == "parameters_grad") {  // "...<Class>.parameters_grad" (older msprobe: no counter)
    if (!module_prefixed(name) || !valid_module_op(head)) return out;
    out.kind = EntryKind::parameters_grad;
    out.op = head;
    out.prefix = name.substr(0, name.find('.'));
    out.numbered = false;
    return out;
  }

  if (all_digits(last)) {  // module/cell "...forward.N" / "...backward.N" / "...parameters_grad.k"
    auto [op, direction] = split_last(head);
    if (!module_prefixed(name) || !valid_module_op(op)) return out;
    if (direction == "forward") out.kind = EntryKind::module_forward;
    else if (direction == "backward") out.kind = EntryKind::module_backward;
    else if (direction == "parameters_grad") out.kind = EntryKind::parameters_grad;
    else return out;
    out.op = op;
    out.prefix = name.substr(0, name.find('.'));
    out.number = to_number(last);
    return out;
  }

  if (last == "forward" || last == "backward") {  // API "<Prefix>.<api>.N.forward"
    auto [op, number] = split_last(head);
    auto [prefix, api] = split_last(op);
    if (!all_digits(number) || prefix.empty() || api.empty()) return out;
    out.kind = last == "forward" ? EntryKind::api_forward : EntryKind::api_backward;
    out.op = op;
    out.prefix = prefix;
    out.number = to_number(number);
  }
  return out;
}

bool level_includes(Level level, const EntryName& name) {
  switch (level) {
    case Level::L0: return name.is_module();
    case Level::L1: return name.is_api();
    case Level::mix: return name.is_module() || name.is_api();
  }
  return false;
}

std::string_view to_string(EntryKind kind) {
  switch (kind) {
    case EntryKind::api_forward:
    case EntryKind::module_forward: return "forward";
    case EntryKind::api_backward:
    case EntryKind::module_backward: return "backward";
    case EntryKind::parameters_grad: return "parameters_grad";
    case EntryKind::debug: return "debug";
    case EntryKind::unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace msdump::dump
