#include "dump/construct_model.h"

#include <algorithm>

#include "pyjson/json_writer.h"

namespace msdump::dump {

void ConstructModel::set_raw(const std::string& key, pyjson::Value value) {
  auto [it, inserted] = m_index.try_emplace(key, m_items.size());
  if (!inserted) {
    m_items[it->second].value = std::move(value);
    return;
  }
  m_items.push_back(pyjson::Member{key, std::move(value), 0});
}

void ConstructModel::set(const std::string& child, std::optional<std::string> parent,
                         std::optional<std::int64_t> micro_step) {
  pyjson::Value p = parent ? pyjson::Value::string(std::move(*parent)) : pyjson::Value::null();
  if (!micro_step) {
    set_raw(child, std::move(p));
    return;
  }
  pyjson::Array pair;
  pair.push_back(std::move(p));
  pair.push_back(pyjson::Value::integer(*micro_step));
  set_raw(child, pyjson::Value::array(std::move(pair)));
  m_max_micro_step = std::max(m_max_micro_step.value_or(*micro_step), *micro_step);
  set_raw(std::string(k_megatron_key), pyjson::Value::integer(*m_max_micro_step));
}

std::optional<std::string> ConstructModel::parent_of(const std::string& child) const {
  auto it = m_index.find(child);
  if (it == m_index.end()) return std::nullopt;
  const pyjson::Value* v = &m_items[it->second].value;
  if (v->is_array() && !v->as_array().empty()) v = &v->as_array()[0];
  if (const auto* s = v->if_string(); s != nullptr && !s->empty()) return *s;
  return std::nullopt;
}

bool ConstructModel::is_within(const std::string& name, const std::string& ancestor) const {
  std::string cur = name;
  for (std::size_t hops = 0; hops <= m_items.size(); ++hops) {  // bounded: a cycle cannot loop forever
    if (cur == ancestor) return true;
    auto p = parent_of(cur);
    if (!p) return false;
    cur = std::move(*p);
  }
  return false;
}

void ConstructModel::write(pyjson::JsonWriter& w) const {
  w.begin_object();
  for (const auto& m : m_items) {
    w.key(m.key);
    w.write(m.value);
  }
  w.end_object();
}

}  // namespace msdump::dump
