#include "compare/dump_rows.h"

#include <array>
#include <charconv>

#include <fmt/format.h>

#include "compare/python_repr.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/pyfloat.h"
#include "stats/crc32.h"

namespace msdump::compare {
namespace {

using pyjson::Kind;
using pyjson::Value;

void append_python_str(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Kind::null: out += "None"; return;
    case Kind::boolean: out += v.as_bool() ? "True" : "False"; return;
    case Kind::integer: out += std::to_string(v.as_int()); return;
    case Kind::big_integer: out += v.as_big_integer(); return;
    case Kind::floating: out += Cell::floating(v.as_float()).str(); return;
    case Kind::string: out += v.as_string(); return;
    case Kind::array: {
      out += '[';
      bool first = true;
      for (const auto& item : v.as_array()) {
        if (!first) out += ", ";
        first = false;
        if (item.is_string()) out += python_str_repr(item.as_string());
        else append_python_str(out, item);
      }
      out += ']';
      return;
    }
    case Kind::object: {
      out += '{';
      bool first = true;
      for (const auto& m : v.as_object()) {
        if (!first) out += ", ";
        first = false;
        out += python_str_repr(m.key);
        out += ": ";
        if (m.value.is_string()) out += python_str_repr(m.value.as_string());
        else append_python_str(out, m.value);
      }
      out += '}';
      return;
    }
  }
}

// A statistic as msprobe's table holds it: numbers typed, NaN -> "Nan", null or missing ->
// "None", bools as their text (a tensor descriptor's bools are turned into text). `kept`: a
// float keeps its str() (pass 2); without it (pass 1, FlattenDetail::names_and_dtypes) only the
// cell's type and value are made.
Cell stat_cell(const Value* v, bool kept) {
  if (v == nullptr || v->is_null()) return Cell::text(std::string(k_none));
  switch (v->kind()) {
    case Kind::integer: return Cell::integer(v->as_int());
    case Kind::big_integer: return Cell::big_integer(v->as_big_integer());
    case Kind::floating:
      if (v->as_float() != v->as_float()) return Cell::text(std::string(k_nan));
      return kept ? Cell::floating_kept(v->as_float()) : Cell::floating(v->as_float());
    case Kind::boolean: return Cell::text(v->as_bool() ? "True" : "False");
    default: return Cell::text(python_str(*v));
  }
}

// A scalar's own value in its four statistic cells: kept typed (bools stay bools).
Cell value_cell(const Value* v, bool kept) {
  if (v != nullptr && v->is_bool()) return Cell::boolean(v->as_bool());
  return stat_cell(v, kept);
}

std::string python_type_text(const Value* v) { return std::string(python_type_name(v == nullptr ? Kind::null : v->kind())); }


struct Walker {
  std::string_view entry_name;
  std::uint32_t entry_index;
  std::vector<Row>& out;
  std::string path;  // JSON path below the entry to the part walked, for messages
  bool names_only = false;  // FlattenDetail::names_and_dtypes
  // The path below `path`, rendered only for a message: a member key, or an index when `key`
  // is null.
  struct Step {
    const char* key = nullptr;
    std::size_t key_size = 0, index = 0;
  };
  std::vector<Step> steps;

  Result<void> fail(std::string what) const {
    std::string at = path;
    for (const auto& s : steps) {
      if (s.key == nullptr) at += fmt::format("[{}]", s.index);
      else at.append(".").append(s.key, s.key_size);
    }
    return invalid_input(fmt::format("entry '{}': {}: {}", entry_name, at.empty() ? "(entry)" : at, what));
  }

  Row base(std::string_view name, RowState state) const {
    Row r;
    r.name.assign(name);
    r.entry = entry_index;
    r.state = state;
    r.requires_grad = std::string(k_na);
    r.data_name = "-1";
    return r;
  }

  void null_row(const std::string& name, RowState state) {
    Row r = base(name, state);
    r.dtype = std::string(k_none);
    r.shape = std::string(k_none);
    for (auto& c : r.stats) c = Cell::text(std::string(k_none));
    r.md5 = std::string(k_na);
    out.push_back(std::move(r));
  }

  Result<void> leaf(const Value& d, const std::string& name, RowState state);
  Result<void> walk(const Value& v, std::string& name, RowState state, int depth);
};

// The members of a leaf descriptor that make its row, found in one pass over its members (the
// last of a duplicated key wins, as in Python's json.load).
using LeafFields = LeafMembers<const Value*>;

LeafFields leaf_fields(const Value& d) {
  LeafFields f;
  for (const auto& m : d.as_object()) note_leaf_member(f, m.key, &m.value);
  return f;
}

Result<void> Walker::leaf(const Value& d, const std::string& name, RowState state) {
  const LeafFields f = leaf_fields(d);
  const bool named_by_data = f.data_name && f.data_name->is_string() && !f.data_name->as_string().empty();
  Row r = base(named_by_data ? std::string_view() : std::string_view(name), state);
  if (named_by_data) {
    r.data_name = f.data_name->as_string();
    const auto dot = r.data_name.rfind('.');
    r.name = dot == std::string::npos ? r.data_name : r.data_name.substr(0, dot);
  }
  if (const auto* rg = f.requires_grad; rg && !rg->is_null()) {
    if (!rg->is_bool()) return fail("requires_grad must be a boolean, got " + std::string(pyjson::kind_name(rg->kind())));
    r.requires_grad = rg->as_bool() ? "True" : "False";
  }
  static const std::string no_type;
  const std::string& type = f.type && f.type->is_string() ? f.type->as_string() : no_type;
  const Value* value = f.value;
  const Value* dtype = f.dtype;
  const Value* md5 = f.md5;
  const bool kept = !names_only;
  for (int i = 0; i < 4; ++i) r.stats[i] = stat_cell(f.stats[i], kept);
  const bool has_dtype = dtype != nullptr && !dtype->is_null() && !(dtype->is_string() && dtype->as_string().empty()) &&
                         !(dtype->is_bool() && !dtype->as_bool());
  if (has_dtype) {
    r.tensor = true;
    r.dtype = dtype->is_string() ? dtype->as_string() : python_str(*dtype);
    const Value* shape = f.shape;
    if (shape == nullptr || shape->is_null()) r.shape = std::string(k_none);
    else if (!shape->is_array()) return fail("shape must be an array, got " + std::string(pyjson::kind_name(shape->kind())));
    else if (!names_only) r.shape = python_str(*shape);
  } else {
    std::string_view last, second_last;
    last_two_components(name, last, second_last);
    const auto text_all = [&](const std::string& t) { for (auto& c : r.stats) c = Cell::text(t); };
    r.dtype = type;
    r.shape = "[]";
    if (type == "torch.Size") {
      r.shape = value ? python_str(*value) : "None";
    } else if (type == "slice") {
      r.shape = fmt::format("({},)", value && value->is_array() ? value->size() : 0);
      if (value && !value->is_array()) r.shape = "()";
    } else if (type == "ellipsis") {
      for (auto& c : r.stats) c = value_cell(value, kept);
    } else if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst") {
      text_all(value ? python_str(*value) : "None");
      r.md5 = value ? python_str(*value) : "None";
    } else if (type == "torch.ProcessGroup") {
      const Value* ranks = f.group_ranks;
      text_all(ranks ? python_str(*ranks) : "None");
      r.md5 = ranks ? python_str(*ranks) : "None";
    } else {
      r.dtype = python_type_text(value);
      for (auto& c : r.stats) c = value_cell(value, kept);
    }
  }
  if (r.md5.empty() && !names_only) {
    if (md5 && !md5->is_null() && !(md5->is_string() && md5->as_string().empty())) r.md5 = python_str(*md5);
    else r.md5 = value ? crc_text(python_str(*value)) : std::string(k_crc_of_empty);
  }
  out.push_back(std::move(r));
  return {};
}

// `name` is the row name so far: extended in place for the parts below, and restored.
Result<void> Walker::walk(const Value& v, std::string& name, RowState state, int depth) {
  if (depth > k_max_leaf_depth) return fail(fmt::format("nested deeper than {} levels", k_max_leaf_depth));
  if (v.is_null()) {
    null_row(name, state);
    return {};
  }
  const auto name_size = name.size();
  if (v.is_array()) {
    const bool indexed = !has_component(name, "parameters_grad");
    for (std::size_t i = 0; i < v.as_array().size(); ++i) {
      steps.push_back({nullptr, 0, i});
      if (indexed) {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, i).ptr;
        name.append(".").append(digits, end);
      }
      auto r = walk(v.as_array()[i], name, state, depth + 1);
      if (!r) return r;
      name.resize(name_size);
      steps.pop_back();
    }
    return {};
  }
  if (!v.is_object()) return {};  // a bare number or string is no leaf: msprobe yields nothing
  if (const auto* ct = v.find("class_type"); ct && ct->is_string() && ct->as_string() == "torch.distributed.P2POp") {
    const Value* t = v.find("tensor");
    if (t && t->is_object()) return leaf(*t, name, state);
    null_row(name, state);
    return {};
  }
  if (const auto* type = v.find("type"); type && type->is_string()) return leaf(v, name, state);
  for (const auto& m : v.as_object()) {
    steps.push_back({m.key.data(), m.key.size(), 0});
    name.append(".").append(m.key);
    auto r = walk(m.value, name, state, depth + 1);
    if (!r) return r;
    name.resize(name_size);
    steps.pop_back();
  }
  return {};
}

// msprobe's rule for "this dump carries md5": per entry value, a dict with an md5 key directly
// in a list, or an md5 key of a dict value.
bool entry_has_md5(const Value& entry) {
  if (!entry.is_object()) return false;
  for (const auto& m : entry.as_object()) {
    if (m.value.is_array()) {
      for (const auto& item : m.value.as_array())
        if (item.is_object() && item.find("md5")) return true;
    } else if (m.value.is_object() && m.value.find("md5")) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string crc_text(std::string_view text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  const std::uint32_t crc = stats::crc32(as_bytes(text));
  std::string out(8, '0');
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = k_hex[(crc >> (28 - 4 * i)) & 0xf];
  return out;
}

void last_two_components(std::string_view name, std::string_view& last, std::string_view& second_last) {
  const auto dot = name.rfind('.');
  last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  second_last = {};
  if (dot == std::string_view::npos) return;
  const auto head = name.substr(0, dot);
  const auto dot2 = head.rfind('.');
  second_last = dot2 == std::string_view::npos ? head : head.substr(dot2 + 1);
}

void Row::reset() {
  name.clear();
  entry = 0;
  state = RowState::input;
  dtype.clear();
  shape.clear();
  requires_grad.clear();
  for (Cell& c : stats) c.clear();
  md5.clear();
  data_name.clear();
  tensor = false;
}

bool has_component(std::string_view name, std::string_view component) {
  if (!component.empty() && component.find('.') == std::string_view::npos) {
    // where `component` occurs, between dots or the ends (a search, not a split)
    for (auto at = name.find(component); at != std::string_view::npos; at = name.find(component, at + 1)) {
      const std::size_t after = at + component.size();
      if ((at == 0 || name[at - 1] == '.') && (after == name.size() || name[after] == '.')) return true;
    }
    return false;
  }
  std::size_t start = 0;
  for (;;) {
    const auto dot = name.find('.', start);
    if (name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start) == component)
      return true;
    if (dot == std::string_view::npos) return false;
    start = dot + 1;
  }
}

std::string_view python_type_name(pyjson::Kind kind) {
  switch (kind) {
    case Kind::null: return "<class 'NoneType'>";
    case Kind::boolean: return "<class 'bool'>";
    case Kind::integer:
    case Kind::big_integer: return "<class 'int'>";
    case Kind::floating: return "<class 'float'>";
    case Kind::string: return "<class 'str'>";
    case Kind::array: return "<class 'list'>";
    default: return "<class 'dict'>";
  }
}

std::string_view to_string(RowState s) {
  switch (s) {
    case RowState::input: return "input";
    case RowState::output: return "output";
    case RowState::parameters: return "parameters";
    case RowState::parameters_grad: return "parameters_grad";
  }
  return "input";
}

EntryKind entry_kind(std::string_view name) {
  std::string_view last, second_last;
  last_two_components(name, last, second_last);
  if (last == "parameters_grad" || second_last == "parameters_grad") return EntryKind::parameters_grad;
  if (last == "forward" || second_last == "forward") return EntryKind::forward;
  if (last == "backward" || second_last == "backward") return EntryKind::backward;
  return EntryKind::other;
}

std::string python_str(const Value& v) {
  std::string out;
  append_python_str(out, v);
  return out;
}

Result<void> flatten_entry(std::string_view name, std::uint32_t entry_index, const Value& entry, std::vector<Row>& out,
                           bool& has_md5, FlattenDetail detail) {
  const auto kind = entry_kind(name);
  if (kind == EntryKind::other) return {};
  if (entry_has_md5(entry)) has_md5 = true;
  Walker w{name, entry_index, out, {}, detail == FlattenDetail::names_and_dtypes, {}};
  std::string row_name;  // one buffer for every row name of the entry
  row_name.reserve(name.size() + 64);
  row_name.assign(name);
  if (kind == EntryKind::parameters_grad) {
    auto r = w.walk(entry, row_name, RowState::parameters_grad, 0);
    if (!r) return r;
  } else if (entry.is_object()) {
    // In the order the rows are listed: inputs (and kwargs), parameters, outputs.
    static constexpr std::pair<const char*, RowState> k_containers[] = {
        {"input_args", RowState::input}, {"input_kwargs", RowState::input}, {"input", RowState::input},
        {"parameters", RowState::parameters}, {"output", RowState::output}};
    for (const auto& [key, state] : k_containers) {
      const Value* part = entry.find(key);
      if (part == nullptr) continue;
      w.path = key;
      const char* shown = state == RowState::output ? ".output" : state == RowState::parameters ? ".parameters" : ".input";
      row_name.assign(name).append(shown);
      auto r = w.walk(*part, row_name, state, 0);
      if (!r) return r;
    }
  }
  return {};
}

Result<DumpRows> read_dump_rows(const ByteSource& src, const std::string& shown_as) {
  DumpRows rows;
  rows.path = shown_as;
  rows.framework = "pytorch";
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent ev;
  bool saw_data = false;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) {
      rows.error = more.error().with_context("reading '" + shown_as + "'");
      break;
    }
    if (!*more) break;
    if (ev.type == pyjson::DumpEvent::Type::member) {
      auto text = ev.value.is_string() ? ev.value.as_string() : std::string();
      if (ev.key == "task") rows.task = text;
      else if (ev.key == "level") rows.level = text;
      else if (ev.key == "framework" && !text.empty()) rows.framework = text;
    } else if (ev.type == pyjson::DumpEvent::Type::data_begin) {
      saw_data = true;
    } else if (ev.type == pyjson::DumpEvent::Type::entry) {
      if (entry_kind(ev.key) == EntryKind::other) continue;
      const auto index = static_cast<std::uint32_t>(rows.entries.size());
      auto r = flatten_entry(ev.key, index, ev.value, rows.rows, rows.has_md5);
      rows.entries.push_back(ev.key);
      if (!r) {
        // The entry's rows are dropped whole: a half-flattened entry would pair wrongly.
        while (!rows.rows.empty() && rows.rows.back().entry == index) rows.rows.pop_back();
        rows.entries.pop_back();
        rows.error = r.error().with_context(fmt::format("'{}': {}", shown_as, pyjson::to_string(ev.position)));
        break;
      }
    }
  }
  if (rows.task.empty() && rows.error) return *rows.error;
  if (!saw_data && rows.error) return *rows.error;
  if (rows.task.empty())
    return invalid_input(fmt::format("'{}': no \"task\" member: expected a dump.json of msprobe", shown_as));
  if (!saw_data)
    return invalid_input(fmt::format("'{}': no \"data\" object: expected a dump.json of msprobe", shown_as));
  return rows;
}

}  // namespace msdump::compare
