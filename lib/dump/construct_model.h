#pragma once
// construct.json (dump-format.md §8.2): child name -> parent name (or null), insertion-ordered,
// with Python dict-assignment semantics (re-assigning a key keeps its position). The Megatron
// variant stores [parent, micro_step] and a "megatron_micro_step_number" key holding the
// largest micro step seen.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "pyjson/json_value.h"

namespace msdump::pyjson { class JsonWriter; }

namespace msdump::dump {

inline constexpr std::string_view k_megatron_key = "megatron_micro_step_number";

class ConstructModel {
 public:
  // Records child -> parent. With `micro_step` the Megatron form [parent, micro_step] is used.
  void set(const std::string& child, std::optional<std::string> parent, std::optional<std::int64_t> micro_step);
  // Records a raw value as read from a construct.json (replaying an msprobe dump).
  void set_raw(const std::string& key, pyjson::Value value);
  std::size_t size() const { return m_items.size(); }
  // Makes room for `n` keys.
  void reserve(std::size_t n) {
    m_items.reserve(n);
    m_index.reserve(n);
  }
  bool contains(const std::string& key) const { return m_index.count(key) != 0; }
  // The parent of `child` (Megatron form unwrapped); nullopt when absent or null.
  std::optional<std::string> parent_of(const std::string& child) const;
  // Whether `ancestor` is `name` itself or one of its ancestors (following parents).
  bool is_within(const std::string& name, const std::string& ancestor) const;

  void write(pyjson::JsonWriter& w) const;

 private:
  std::vector<pyjson::Member> m_items;
  std::unordered_map<std::string, std::size_t> m_index;
  std::optional<std::int64_t> m_max_micro_step;
};

}  // namespace msdump::dump
