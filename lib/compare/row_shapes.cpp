#include "compare/row_shapes.h"

#include "pyjson/number_tokens.h"

namespace msdump::compare {

std::shared_ptr<RowShapeStore> RowShapeStore::shared() {
  static const auto store = std::make_shared<RowShapeStore>();
  return store;
}

void RowShapeStore::add(std::string_view shape, RowShapePlan plan) {
  std::size_t bytes = sizeof(RowShapePlan) + plan.rows.size() * sizeof(RowShapePlan::PlanRow);
  for (const auto& r : plan.rows) bytes += r.suffix.capacity() + r.dtype.capacity();
  ShapeTable::add(shape, std::move(plan), bytes);
}

const RowShapePlan* RowShapes::find(std::string_view name, std::string_view text) {
  m_pending = false;
  if (text.size() > k_max_entry_bytes) return nullptr;
  m_head.clear();
  for (std::size_t i = 0; i < name.size(); ++i) {
    const bool digit = name[i] >= '0' && name[i] <= '9';
    if (!digit) m_head += name[i];
    else if (i == 0 || name[i - 1] < '0' || name[i - 1] > '9') m_head += '#';
  }
  m_head += '\xFF';
  m_writer.begin(m_buffer, m_head, text);
  static constexpr char k_integer = '\x80', k_float = '\x81';
  const bool read = pyjson::for_each_number_token(text, [this](const pyjson::NumberText& n) {
    m_writer.cut(n.begin, n.end, std::string_view(n.int_end == n.end ? &k_integer : &k_float, 1));
    return true;
  });
  if (!read) return nullptr;  // (a backslash, a byte that is not ASCII, or not a number token)
  m_shape = m_writer.finish();
  const RowShapePlan* plan = m_store->find(m_shape);
  m_pending = plan == nullptr;
  return plan;
}

void RowShapes::learn(std::string_view name, const EntryTextRows& rows, bool md5) {
  if (!m_pending) return;
  m_pending = false;
  if (rows.named_by_data_name()) return;
  RowShapePlan plan;
  plan.has_md5 = md5;
  plan.rows.reserve(rows.rows().size());
  for (const auto& r : rows.rows()) {
    const std::string_view row_name = rows.name(r);
    if (!row_name.starts_with(name)) return;  // (only a data_name names a row otherwise)
    plan.rows.push_back({std::string(row_name.substr(name.size())), std::string(r.dtype), r.stat_kinds, r.state});
  }
  m_store->add(m_shape, std::move(plan));
}

}  // namespace msdump::compare
