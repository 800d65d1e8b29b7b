#pragma once
// construct.json (docs/format.md §8.2): child name -> parent name (or null), insertion-ordered,
// with Python dict-assignment semantics (re-assigning a key keeps its position). The Megatron
// variant stores [parent, micro_step] and a "megatron_micro_step_number" key holding the
// largest micro step seen.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/name_table.h"
#include "core/result.h"
#include "pyjson/json_value.h"

namespace msdump::pyjson { class JsonWriter; }

namespace msdump::dump {

inline constexpr std::string_view k_megatron_key = "megatron_micro_step_number";

class ConstructModel {
 public:
  // Records child -> parent. With `micro_step` the Megatron form [parent, micro_step] is used.
  void set(std::string child, std::optional<std::string> parent, std::optional<std::int64_t> micro_step) {
    const auto h = hash(child);
    set(std::move(child), h, std::move(parent), micro_step);
  }
  // The same with the key's hash computed ahead (hash(child)).
  void set(std::string child, std::uint64_t child_hash, std::optional<std::string> parent,
           std::optional<std::int64_t> micro_step);
  // Records a raw value as read from a construct.json (replaying an msprobe dump).
  void set_raw(std::string key, pyjson::Value value) {
    const auto h = hash(key);
    set_raw(std::move(key), h, std::move(value));
  }
  void set_raw(std::string key, std::uint64_t key_hash, pyjson::Value value);
  // The hash set() and prefetch() take.
  static std::uint64_t hash(std::string_view key) { return NameTable<std::uint32_t>::hash(key); }
  // Starts loading the index slot of a key that set() will be called with soon.
  void prefetch(std::uint64_t key_hash) const { m_index.prefetch(key_hash); }
  std::size_t size() const { return m_items.size(); }
  // Makes room for `n` keys.
  void reserve(std::size_t n) {
    m_items.reserve(n);
    m_index.reserve(n);
  }
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  // The parent of `child` (Megatron form unwrapped); nullopt when absent or null.
  std::optional<std::string> parent_of(const std::string& child) const;
  // Whether `ancestor` is `name` itself or one of its ancestors (following parents).
  bool is_within(const std::string& name, const std::string& ancestor) const;

  void write(pyjson::JsonWriter& w) const;

 private:
  const pyjson::Value* find(std::string_view key) const;

  std::vector<pyjson::Member> m_items;
  NameTable<std::uint32_t> m_index;  // key -> position in m_items
  std::optional<std::int64_t> m_max_micro_step;
};

}  // namespace msdump::dump
