#include "dump/construct_model.h"

#include <algorithm>

#include "pyjson/json_writer.h"

namespace msdump::dump {

void ConstructModel::set_raw(std::string key, std::uint64_t key_hash, pyjson::Value value) {
  auto [slot, inserted] =
      m_index.insert(key, key_hash, static_cast<std::uint32_t>(m_items.size()),
                     [&](std::uint32_t i) { return std::string_view(m_items[i].key); });
  if (!inserted) {
    m_items[*slot].value = std::move(value);
    return;
  }
  m_items.push_back(pyjson::Member{std::move(key), std::move(value), 0});
}

void ConstructModel::set(std::string child, std::uint64_t child_hash, std::optional<std::string> parent,
                         std::optional<std::int64_t> micro_step) {
  pyjson::Value p = parent ? pyjson::Value::string(std::move(*parent)) : pyjson::Value::null();
  if (!micro_step) {
    set_raw(std::move(child), child_hash, std::move(p));
    return;
  }
  pyjson::Array pair;
  pair.push_back(std::move(p));
  pair.push_back(pyjson::Value::integer(*micro_step));
  set_raw(std::move(child), child_hash, pyjson::Value::array(std::move(pair)));
  m_max_micro_step = std::max(m_max_micro_step.value_or(*micro_step), *micro_step);
  set_raw(std::string(k_megatron_key), pyjson::Value::integer(*m_max_micro_step));
}

const pyjson::Value* ConstructModel::find(std::string_view key) const {
  const auto* i = m_index.find(key, hash(key), [&](std::uint32_t k) { return std::string_view(m_items[k].key); });
  return i == nullptr ? nullptr : &m_items[*i].value;
}

std::optional<std::string> ConstructModel::parent_of(const std::string& child) const {
  const pyjson::Value* v = find(child);
  if (v == nullptr) return std::nullopt;
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
