#include "compare/entry_text_rows.h"

#include <array>
#include <charconv>

#include "compare/cell.h"
#include "compare/unmatched_stats.h"
#include "compare/value_text.h"
#include "pyjson/plain_text_walk.h"

namespace msdump::compare {
namespace entry_text {

// A descriptor's members that make its row, and those that make it one (last duplicate wins,
// as Value::find and flatten's leaf_fields read them).
struct Fields : LeafMembers<ValueText> {
  const char* end = nullptr;  // past the object
};

}  // namespace entry_text

namespace {

using entry_text::Fields;
using pyjson::Kind;
using pyjson::skip_plain_ws;
using pyjson::plain_text::each_item;
using pyjson::plain_text::each_member;
using pyjson::plain_text::value_end;

std::uint8_t all_four(std::uint8_t kind) { return static_cast<std::uint8_t>(kind | kind << 2 | kind << 4 | kind << 6); }

// The fields of the object at `object`; Fields::end is past it.
Fields fields_of(const char* object, const char* end) {
  Fields f;
  f.end = each_member(object, end, [&f, end](std::string_view k, const char* p) {
    const char* e = value_end(p, end);
    note_leaf_member(f, k, ValueText{p, e});
    return e;
  });
  return f;
}

// flatten's md5 rule on one value of the entry that the walk does not visit: a dict with an
// md5 member, or a list holding one.
bool md5_in_entry_value(const char* p, const char* end) {
  if (*p == '{') return fields_of(p, end).md5.present();
  if (*p != '[') return false;
  bool found = false;
  each_item(p, end, [&](std::size_t, const char* item) -> const char* {
    if (*item != '{') return value_end(item, end);
    const Fields f = fields_of(item, end);
    found = f.md5.present();
    return found ? nullptr : f.end;
  });
  return found;
}

// Where a value sits for flatten's md5 rule (an md5 member of a dict directly in one of the
// entry's lists, or of one of its dicts): the entry itself, a value of its members, an item of
// such a list, elsewhere.
constexpr int k_md5_none = 0, k_md5_item = 1, k_md5_member = 2, k_md5_entry = 3;

}  // namespace

// The next row of read_rows' output: a Row already there is reset (its strings keep their
// buffers), else one is added.
Row& EntryTextRows::new_row(std::string_view name, RowState state) {
  std::vector<Row>& out = *m_full;
  const bool reused = m_full_rows < out.size();
  Row& r = reused ? out[m_full_rows] : out.emplace_back();
  if (reused) r.reset();
  ++m_full_rows;
  r.name.assign(name);
  r.state = state;
  r.requires_grad = k_na;
  r.data_name = "-1";
  return r;
}

void EntryTextRows::add_row(std::string_view name, std::string_view dtype, std::uint8_t kinds, RowState state) {
  TextRow r;
  r.name_begin = static_cast<std::uint32_t>(m_names.size());
  m_names += name;
  r.name_end = static_cast<std::uint32_t>(m_names.size());
  r.dtype = dtype;
  r.stat_kinds = kinds;
  r.state = state;
  m_rows.push_back(r);
}

void EntryTextRows::null_row(RowState state) {
  if (m_full == nullptr) {
    add_row(m_path, k_none, all_four(k_stat_other), state);
    return;
  }
  Row& r = new_row(m_path, state);
  r.dtype = k_none;
  r.shape = k_none;
  for (auto& c : r.stats) c = Cell::text(std::string(k_none));
  r.md5 = k_na;
}

// flatten's Walker::leaf on a descriptor's fields: the checks both passes share, then pass 1's row
// (FlattenDetail::names_and_dtypes) here or pass 2's in full_leaf.
bool EntryTextRows::leaf(const Fields& f, RowState state) {
  std::string_view name = m_path;
  if (f.data_name.is_string() && f.data_name.end - f.data_name.begin > 2) {
    const std::string_view data_name = f.data_name.string();
    name = data_name.substr(0, data_name.rfind('.'));
    m_data_named = true;
  }
  if (f.requires_grad.present() && value_kind(f.requires_grad) != Kind::null && value_kind(f.requires_grad) != Kind::boolean)
    return false;  // (flatten's error)
  const ValueText& dtype = f.dtype;
  const bool tensor = dtype.present() && !dtype.is_null() && !(dtype.is_string() && dtype.end - dtype.begin == 2) &&
                      dtype.first() != 'f';
  if (tensor) {
    if (!dtype.is_string()) return false;  // (its python str(): left to the tree)
    if (f.shape.present() && !f.shape.is_null() && f.shape.first() != '[') return false;  // (flatten's error)
  }
  if (m_full != nullptr) return full_leaf(f, name, tensor, state);
  const std::string_view type = f.type.is_string() ? f.type.string() : std::string_view();
  std::uint8_t kinds = 0;
  for (int i = 0; i < 4; ++i) kinds = static_cast<std::uint8_t>(kinds | stat_kind_of(f.stats[i]) << (2 * i));
  if (tensor) {
    add_row(name, dtype.string(), kinds, state);
    return true;
  }
  std::string_view last, second_last;
  last_two_components(m_path, last, second_last);
  std::string_view row_dtype = type;
  if (type == "torch.Size" || type == "slice") {
    // the descriptor's own statistics
  } else if (type == "ellipsis") {
    kinds = all_four(stat_kind_of(f.value));
  } else if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst" || type == "torch.ProcessGroup") {
    kinds = all_four(k_stat_other);
  } else {
    row_dtype = python_type_name(f.value.present() ? value_kind(f.value) : Kind::null);
    kinds = all_four(stat_kind_of(f.value));
  }
  add_row(name, row_dtype, kinds, state);
  return true;
}

namespace {

// flatten's Walker::leaf, full, for a descriptor without a dtype: its dtype, shape, statistic
// cells and (for ranks and process groups) md5 cell. `path` is the row's path name.
template <class Use>
bool non_tensor_cells(const Fields& f, std::string_view type, std::string_view path, const char* end, Row& r, Use&& use) {
  using How = EntryTextRows::Use;
  std::string_view last, second_last;
  last_two_components(path, last, second_last);
  const ValueText& value = f.value;
  r.dtype = type;
  r.shape = "[]";
  const auto all_four_cells = [&r](const Cell& c) {
    for (auto& cell : r.stats) cell = c;
  };
  // str() of `v`, "None" without it, as every statistic cell and the md5 cell
  const auto text_all = [&](const ValueText& v) {
    use(How::other, v);
    std::string text = "None";
    if (v.present() && !python_str_of(v, end, text)) return false;
    all_four_cells(Cell::text(text));
    r.md5 = std::move(text);
    return true;
  };
  Cell cell;
  if (type == "torch.Size") {
    use(How::shape_str, value);
    if (!value.present()) r.shape = "None";
    else if (!python_str_of(value, end, r.shape)) return false;
  } else if (type == "slice") {
    if (value.present() && value.first() != '[') r.shape = "()";
    else r.shape = "(" + std::to_string(value.present() ? item_count(value, end) : 0) + ",)";
  } else if (type == "ellipsis") {
    use(How::value_cells, value);
    if (!value_cell_of(value, end, cell)) return false;
    all_four_cells(cell);
  } else if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst") {
    return text_all(value);
  } else if (type == "torch.ProcessGroup") {
    return text_all(f.group_ranks);
  } else {
    r.dtype = python_type_name(value.present() ? value_kind(value) : Kind::null);
    use(How::value_cells, value);
    if (!value_cell_of(value, end, cell)) return false;
    all_four_cells(cell);
  }
  return true;
}

}  // namespace

// flatten's Walker::leaf with FlattenDetail::full (the name, requires_grad, dtype and shape checked
// by leaf; `tensor`: the descriptor has a dtype).
bool EntryTextRows::full_leaf(const Fields& f, std::string_view name, bool tensor, RowState state) {
  Row& r = new_row(name, state);
  if (f.data_name.is_string() && f.data_name.end - f.data_name.begin > 2) r.data_name = f.data_name.string();
  if (f.requires_grad.present() && !f.requires_grad.is_null()) r.requires_grad = f.requires_grad.first() == 't' ? "True" : "False";
  for (int i = 0; i < 4; ++i) {
    use(Use::stat_cell, f.stats[i], static_cast<std::uint8_t>(i));
    if (!stat_cell_of(f.stats[i], m_end, r.stats[i])) return false;
  }
  const std::string_view type = f.type.is_string() ? f.type.string() : std::string_view();
  if (tensor) {
    r.tensor = true;
    r.dtype = f.dtype.string();
    use(Use::shape_str, f.shape);
    if (!f.shape.present() || f.shape.is_null()) r.shape = k_none;
    else if (!python_str_of(f.shape, m_end, r.shape)) return false;
  } else if (!non_tensor_cells(f, type, m_path, m_end, r, [this](Use how, ValueText text) { use(how, text); })) {
    return false;
  }
  if (!r.md5.empty()) return true;
  const ValueText& md5 = f.md5;
  if (md5.present() && !md5.is_null() && !(md5.is_string() && md5.end - md5.begin == 2)) {
    use(Use::md5_str, md5);
    return python_str_of(md5, m_end, r.md5);
  }
  if (!f.value.present()) {
    r.md5 = k_crc_of_empty;
    return true;
  }
  use(Use::md5_crc, f.value);
  std::string text;
  if (!python_str_of(f.value, m_end, text)) return false;
  r.md5 = crc_text(text);
  return true;
}

void EntryTextRows::use(Use how, ValueText text, std::uint8_t stat) {
  if (m_uses != nullptr) m_uses->push_back({static_cast<std::uint32_t>(m_full_rows - 1), stat, how, text});
}

// flatten's Walker::walk of the value at p: `m_path` is the row name so far, extended and
// restored; `md5` where the value sits for the md5 rule. Returns past the value, or nullptr
// when the reader declines.
const char* EntryTextRows::walk(const char* p, RowState state, int depth, int md5) {
  if (depth > k_max_leaf_depth) return nullptr;  // (flatten's error)
  const std::size_t path_size = m_path.size();
  switch (*p) {
    case 'n': null_row(state); return p + 4;
    case '[': {
      const bool indexed = !has_component(m_path, "parameters_grad");
      return each_item(p, m_end, [&](std::size_t i, const char* item) {
        if (indexed) {
          char digits[24];
          const auto end = std::to_chars(digits, digits + sizeof digits, i).ptr;
          m_path.append(".").append(digits, end);
        }
        const char* e = walk(item, state, depth + 1, md5 == k_md5_member ? k_md5_item : k_md5_none);
        m_path.resize(path_size);
        return e;
      });
    }
    case '{': {
      const Fields f = fields_of(p, m_end);
      if (f.md5.present() && (md5 == k_md5_member || md5 == k_md5_item)) m_md5 = true;
      if (f.class_type.is_string() && f.class_type.string() == "torch.distributed.P2POp") {
        if (f.tensor.present() && f.tensor.first() == '{') return leaf(fields_of(f.tensor.begin, m_end), state) ? f.end : nullptr;
        null_row(state);
        return f.end;
      }
      if (f.type.is_string()) return leaf(f, state) ? f.end : nullptr;
      return each_member(p, m_end, [&](std::string_view key, const char* member) {
        m_path.append(".").append(key);
        const char* e = walk(member, state, depth + 1, md5 == k_md5_entry ? k_md5_member : k_md5_none);
        m_path.resize(path_size);
        return e;
      });
    }
    default: return value_end(p, m_end);  // a bare number or string is no leaf
  }
}

// The rows of an entry object: its containers walked as they come, each one's rows kept as a
// segment, then put in the order flatten lists them (inputs and kwargs, parameters, outputs;
// of a duplicated key the last, as Value::find).
bool EntryTextRows::read_containers(std::string_view name, const char* entry) {
  static constexpr std::pair<std::string_view, RowState> k_containers[] = {
      {"input_args", RowState::input}, {"input_kwargs", RowState::input}, {"input", RowState::input},
      {"parameters", RowState::parameters}, {"output", RowState::output}};
  constexpr int k_count = static_cast<int>(std::size(k_containers));
  struct Segment {
    std::uint32_t begin = 0, end = 0;
    bool present = false;
  };
  const auto row_count = [this] { return static_cast<std::uint32_t>(m_full != nullptr ? m_full_rows : m_rows.size()); };
  std::array<Segment, k_count> segments{};
  bool in_order = true;  // each container after the one before, none twice
  int last = -1;
  const char* end = each_member(entry, m_end, [&](std::string_view key, const char* p) -> const char* {
    int c = 0;
    while (c < k_count && key != k_containers[c].first) ++c;
    if (c == k_count) {
      if (!m_md5 && md5_in_entry_value(p, m_end)) m_md5 = true;
      return value_end(p, m_end);
    }
    const RowState state = k_containers[c].second;
    m_path.assign(name).append(state == RowState::output ? ".output" : state == RowState::parameters ? ".parameters" : ".input");
    in_order = in_order && c > last;
    last = c;
    Segment& s = segments[static_cast<std::size_t>(c)];
    s = {row_count(), 0, true};
    const char* e = walk(p, state, 0, k_md5_member);
    s.end = row_count();
    return e;
  });
  if (end == nullptr) return false;
  if (in_order) return true;
  m_reordered_rows = true;
  if (m_full != nullptr) {
    std::vector<Row> ordered;
    ordered.reserve(m_full_rows);
    for (const auto& s : segments)
      if (s.present)
        ordered.insert(ordered.end(), std::make_move_iterator(m_full->begin() + s.begin), std::make_move_iterator(m_full->begin() + s.end));
    std::move(ordered.begin(), ordered.end(), m_full->begin());
    m_full_rows = ordered.size();  // (a container given twice: its first rows are dropped)
    return true;
  }
  m_reordered.clear();
  for (const auto& s : segments)
    if (s.present) m_reordered.insert(m_reordered.end(), m_rows.begin() + s.begin, m_rows.begin() + s.end);
  m_rows.swap(m_reordered);
  return true;
}

bool EntryTextRows::read(std::string_view name, std::string_view value, bool& has_md5) {
  m_rows.clear();
  m_names.clear();
  m_full = nullptr;
  const bool ok = read_entry(name, value);
  if (ok && m_md5) has_md5 = true;
  return ok;
}

bool EntryTextRows::read_rows(std::string_view name, std::string_view value, std::vector<Row>& out) {
  if (m_uses != nullptr) m_uses->clear();
  m_full = &out;
  m_full_rows = 0;
  const bool ok = read_entry(name, value);
  m_full = nullptr;
  if (ok) out.resize(m_full_rows);
  return ok;
}

bool EntryTextRows::read_entry(std::string_view name, std::string_view value) {
  m_md5 = false;
  m_data_named = false;
  m_reordered_rows = false;
  m_end = value.data() + value.size();
  const char* entry = skip_plain_ws(value.data(), m_end);
  if (entry == m_end) return false;
  const auto kind = entry_kind(name);
  if (kind == EntryKind::other) return true;
  m_path.assign(name);
  bool ok = true;
  if (kind == EntryKind::parameters_grad) ok = walk(entry, RowState::parameters_grad, 0, k_md5_entry) != nullptr;
  else if (*entry == '{') ok = read_containers(name, entry);
  return ok;
}

}  // namespace msdump::compare
