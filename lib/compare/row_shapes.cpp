#include "compare/row_shapes.h"

#include <algorithm>
#include <cstring>

#include "compare/value_text.h"
#include "pyjson/number_tokens.h"

namespace msdump::compare {
namespace {
constexpr char k_integer_marker = '\x80', k_float_marker = '\x81';
}  // namespace

std::shared_ptr<RowShapeStore> RowShapeStore::shared() {
  static const auto store = std::make_shared<RowShapeStore>();
  return store;
}

void RowShapeStore::add(std::string_view shape, RowShapePlan plan) {
  std::size_t bytes = sizeof(RowShapePlan) + plan.rows.size() * sizeof(RowShapePlan::PlanRow);
  for (const auto& r : plan.rows) bytes += r.suffix.capacity() + r.dtype.capacity();
  bytes += plan.text.bytes() + plan.kinds.capacity();
  if (plan.full) {
    bytes += plan.full->rows.size() * sizeof(Row) + plan.full->patches.size() * sizeof(RowShapePlan::Patch);
    for (const Row& r : plan.full->rows)
      bytes += r.name.capacity() + r.dtype.capacity() + r.shape.capacity() + r.md5.capacity() + r.data_name.capacity();
  }
  ShapeTable::add(shape, std::move(plan), bytes);
}

void RowShapes::head_of(std::string_view name) {
  pyjson::digit_runs_as_hash(name, m_head);
  m_head += '\xFF';
}

const char* RowShapes::match(std::string_view key, const char* p, const char* end, pyjson::Newlines& newlines) {
  m_matched = nullptr;
  head_of(key);
  const auto it = m_recent.find(m_head);
  if (it == m_recent.end()) return nullptr;
  Recent& recent = it->second;
  for (std::size_t i = 0; i < recent.size() && recent[i] != nullptr; ++i) {
    const RowShapePlan& plan = *recent[i];
    const char* const e = plan.text.match(p, end, newlines, [&plan](std::size_t t, const pyjson::NumberText& n) {
      return (n.int_end == n.end) == (plan.kinds[t] == k_integer_marker);
    });
    if (e == nullptr) continue;
    m_matched = recent[i];
    std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(i), recent.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    return e;
  }
  return nullptr;
}

// `plan` first among those of m_head.
void RowShapes::remember(const RowShapePlan* plan) {
  Recent& recent = m_recent[m_head];
  auto it = std::find(recent.begin(), recent.end(), plan);
  if (it == recent.end()) it = recent.end() - 1;  // (the least recent goes)
  std::rotate(recent.begin(), it, it + 1);
  recent.front() = plan;
}

const RowShapePlan* RowShapes::find(std::string_view name, std::string_view text) {
  m_pending = false;
  if (text.size() > k_max_entry_bytes) return nullptr;
  head_of(name);
  m_writer.begin(m_buffer, m_head, text);
  m_tokens.clear();
  m_kinds.clear();
  const bool read = pyjson::for_each_number_token(text, [this, &text](const pyjson::NumberText& n) {
    m_kinds += n.int_end == n.end ? k_integer_marker : k_float_marker;
    m_writer.cut(n.begin, n.end, std::string_view(&m_kinds.back(), 1));
    m_tokens.emplace_back(static_cast<std::uint32_t>(n.begin - text.data()), static_cast<std::uint32_t>(n.end - text.data()));
    return true;
  });
  if (!read) return nullptr;  // (a backslash, a byte that is not ASCII, or not a number token)
  m_shape = m_writer.finish();
  const RowShapePlan* plan = m_store->find(m_shape);
  m_pending = plan == nullptr;
  if (plan != nullptr) remember(plan);
  return plan;
}

namespace {

// The cells a use `how` (of statistic `stat`) makes: bits 0-3 the statistics, 4 the shape, 5 the md5.
constexpr std::uint8_t k_shape_cell = 0x10, k_md5_cell = 0x20;
std::uint8_t cells_of(EntryTextRows::Use how, std::uint8_t stat) {
  using Use = EntryTextRows::Use;
  switch (how) {
    case Use::stat_cell: return static_cast<std::uint8_t>(1u << stat);
    case Use::value_cells: return 0xF;
    case Use::shape_str: return k_shape_cell;
    case Use::md5_str:
    case Use::md5_crc: return k_md5_cell;
    case Use::other: return 0xF | k_md5_cell;
  }
  return 0x3F;
}

// Pass 2's whole rows of entry `name` = `text` (number tokens at `tokens`), or nullopt where
// read_rows declines, reorders, names a row after its data_name or makes a value holding tokens
// into a cell in a way a plan cannot repeat.
std::optional<RowShapePlan::Full> full_plan(std::string_view name, std::string_view text,
                                            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tokens) {
  EntryTextRows reader;
  std::vector<EntryTextRows::TextUse> uses;
  reader.list_uses(&uses);
  RowShapePlan::Full full;
  if (!reader.read_rows(name, text, full.rows) || reader.reordered() || reader.named_by_data_name()) return std::nullopt;
  for (Row& r : full.rows) {
    if (!r.name.starts_with(name)) return std::nullopt;
    r.name.erase(0, name.size());
  }
  for (const auto& u : uses) {
    const auto begin = u.text.present() ? static_cast<std::uint32_t>(u.text.begin - text.data()) : 0;
    const auto end = u.text.present() ? static_cast<std::uint32_t>(u.text.end - text.data()) : 0;
    // The tokens inside the value: [first, last].
    const auto first = std::lower_bound(tokens.begin(), tokens.end(), begin,
                                        [](const auto& t, std::uint32_t b) { return t.first < b; });
    if (first == tokens.end() || first->first >= end) {
      // None: what it made is the plan's, and what patches before it made is overwritten.
      std::erase_if(full.patches, [&u](const RowShapePlan::Patch& p) {
        return p.row == u.row && (cells_of(u.how, u.stat) & cells_of(p.how, p.stat)) != 0;
      });
      continue;
    }
    if (u.how == EntryTextRows::Use::other) return std::nullopt;
    auto last = first;
    while (last + 1 != tokens.end() && (last + 1)->first < end) ++last;
    full.patches.push_back({u.row, u.stat, u.how, static_cast<std::uint32_t>(first - tokens.begin()),
                            static_cast<std::uint32_t>(last - tokens.begin()), first->first - begin, end - last->second});
  }
  full.patched.assign(full.rows.size(), 0);
  for (const auto& p : full.patches) full.patched[p.row] |= cells_of(p.how, p.stat);
  return full;
}

// What read_rows does with a value's text (EntryTextRows::Use), again.
bool apply(const RowShapePlan::Patch& p, ValueText v, const char* end, Row& r) {
  using Use = EntryTextRows::Use;
  switch (p.how) {
    case Use::stat_cell: return stat_cell_of(v, end, r.stats[p.stat]);
    case Use::value_cells: {
      Cell cell;
      if (!value_cell_of(v, end, cell)) return false;
      for (auto& c : r.stats) c = cell;
      return true;
    }
    case Use::shape_str: return python_str_of(v, end, r.shape);
    case Use::md5_str: return python_str_of(v, end, r.md5);
    case Use::md5_crc: {
      thread_local std::string text;
      if (!python_str_of(v, end, text)) return false;
      r.md5 = crc_text(text);
      return true;
    }
    case Use::other: break;
  }
  return false;
}

}  // namespace

bool read_planned_rows(const RowShapePlan& plan, std::string_view name, std::string_view value, std::vector<Row>& out) {
  if (!plan.full) return false;
  const RowShapePlan::Full& full = *plan.full;
  thread_local std::vector<ValueText> tokens;
  tokens.clear();
  const char* const end = value.data() + value.size();
  const bool whole = plan.text.tokens_of(value, [](std::size_t, const pyjson::NumberText& n) { tokens.push_back({n.begin, n.end}); });
  if (!whole) return false;  // (not the text the plan was made of)
  if (out.size() < full.rows.size()) out.resize(full.rows.size());
  for (std::size_t i = 0; i < full.rows.size(); ++i) {
    // Every member of Row (dump_rows.h), but the cells the patches make.
    const Row& t = full.rows[i];
    Row& r = out[i];
    const std::uint8_t patched = full.patched[i];
    r.name.assign(name).append(t.name);
    r.entry = t.entry;
    r.state = t.state;
    r.dtype = t.dtype;
    if ((patched & k_shape_cell) == 0) r.shape = t.shape;
    r.requires_grad = t.requires_grad;
    for (std::size_t k = 0; k < 4; ++k)
      if ((patched & (1u << k)) == 0) r.stats[k] = t.stats[k];
    if ((patched & k_md5_cell) == 0) r.md5 = t.md5;
    r.data_name = t.data_name;
    r.tensor = t.tensor;
  }
  out.resize(full.rows.size());
  for (const auto& patch : full.patches) {
    const ValueText v{tokens[patch.first].begin - patch.before, tokens[patch.last].end + patch.after};
    if (!apply(patch, v, end, out[patch.row])) return false;
  }
  return true;
}

const RowShapePlan* RowShapes::learn(std::string_view name, std::string_view text, const EntryTextRows& rows, bool md5) {
  if (!m_pending) return nullptr;
  m_pending = false;
  if (rows.named_by_data_name()) return nullptr;
  RowShapePlan plan;
  plan.has_md5 = md5;
  plan.rows.reserve(rows.rows().size());
  for (const auto& r : rows.rows()) {
    const std::string_view row_name = rows.name(r);
    if (!row_name.starts_with(name)) return nullptr;  // (only a data_name names a row otherwise)
    plan.rows.push_back({std::string(row_name.substr(name.size())), std::string(r.dtype), r.stat_kinds, r.state});
  }
  plan.full = full_plan(name, text, m_tokens);
  if (plan.full && plan.full->rows.size() != plan.rows.size()) plan.full.reset();
  plan.text = pyjson::TextShape::of(text, m_tokens);
  plan.kinds = m_kinds;
  m_store->add(m_shape, std::move(plan));
  const RowShapePlan* stored = m_store->find(m_shape);
  if (stored != nullptr) remember(stored);
  return stored;
}

}  // namespace msdump::compare
