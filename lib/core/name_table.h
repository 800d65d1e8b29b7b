#pragma once
// NameTable<T>: an open-addressing hash index from names to small values (ids, pointers) for
// names stored elsewhere, in the caller's own ordered list. Built for the convert index pass,
// which looks up hundreds of thousands of entry names once or twice each:
//   - one 16-byte slot per name (full 64-bit hash + value), linear probing, load <= 1/2: a
//     lookup of a new name touches one slot, a found name one slot and the caller's name;
//   - the hash is computed by the caller (possibly on another thread) and passed in, and
//     prefetch(hash) lets a caller that knows the next names hide the slot's cache miss.
// The name itself is never copied: name_of(value) returns it.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace msdump {

template <typename T>
class NameTable {
 public:
  // The hash to pass to the other functions (never 0: 0 marks an empty slot).
  static std::uint64_t hash(std::string_view name) {
    const std::uint64_t h = std::hash<std::string_view>{}(name);
    return h == 0 ? 1 : h;
  }

  std::size_t size() const { return m_size; }

  // Makes room for `n` names without growing.
  void reserve(std::size_t n) {
    if (2 * n > m_slots.size()) rehash(std::bit_ceil(std::max<std::size_t>(2 * n, 16)));
  }

  // Starts loading the slot `hash` will probe first.
  void prefetch(std::uint64_t hash) const {
    if (!m_slots.empty()) __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
  }

  // The value stored for `name`, or nullptr. `name_of(const T&)` returns a stored value's name.
  template <typename NameOf>
  const T* find(std::string_view name, std::uint64_t hash, NameOf name_of) const {
    if (m_slots.empty()) return nullptr;
    const Slot& s = m_slots[probe(name, hash, name_of)];
    return s.hash == 0 ? nullptr : &s.value;
  }
  template <typename NameOf>
  T* find(std::string_view name, std::uint64_t hash, NameOf name_of) {
    return const_cast<T*>(std::as_const(*this).find(name, hash, name_of));
  }

  // The value stored for `name`; when absent, a new slot holding `value` (returned with true).
  template <typename NameOf>
  std::pair<T*, bool> insert(std::string_view name, std::uint64_t hash, T value, NameOf name_of) {
    if (2 * (m_size + 1) > m_slots.size()) rehash(std::max<std::size_t>(2 * m_slots.size(), 16));
    Slot& s = m_slots[probe(name, hash, name_of)];
    if (s.hash != 0) return {&s.value, false};
    s.hash = hash;
    s.value = std::move(value);
    ++m_size;
    return {&s.value, true};
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    T value{};
  };

  // The slot holding `name`, or the empty slot where it would go.
  template <typename NameOf>
  std::size_t probe(std::string_view name, std::uint64_t hash, NameOf& name_of) const {
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = m_slots[i];
      if (s.hash == 0 || (s.hash == hash && name_of(s.value) == name)) return i;
    }
  }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(m_slots);
    const std::size_t mask = capacity - 1;
    for (Slot& s : old) {
      if (s.hash == 0) continue;
      std::size_t i = s.hash & mask;
      while (m_slots[i].hash != 0) i = (i + 1) & mask;
      m_slots[i] = std::move(s);
    }
  }

  std::vector<Slot> m_slots;  // a power of two in size, or empty
  std::size_t m_size = 0;
};

}  // namespace msdump
