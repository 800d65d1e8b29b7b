#pragma once
// EntryOrder: the order of dump.json entries under msprobe's update_data merge rules
// (docs/format.md §4.1, §4.5), computed from the data events alone, without their values:
//   - a new name is appended;
//   - an existing name stays where it is (its new sections are merged in place), except
//     current profile: names starting with "Module." are popped and re-inserted at the end;
//     legacy profile: a Module/Cell forward entry moves to the end when its output arrives
//     (legacy msprobe created module forwards once, at the forward hook).
// Each entry keeps the list of events (trace lines) that contribute to it, so the second pass
// reads exactly those lines and nothing stays in memory but names and line positions.

#include <cstdint>
#include <list>
#include <memory>
#include <memory_resource>
#include <string>
#include <string_view>
#include <vector>

#include "core/name_table.h"
#include "core/profile.h"

namespace msdump::convert {

struct EventRef {
  std::uint64_t line = 0;    // 1-based line number
  std::uint64_t offset = 0;  // byte offset of the line
  std::uint32_t length = 0;  // bytes of the line
  std::uint64_t text_hash = 0;  // trace::line_hash of a line the index pass scanned as plain; else 0
};

class EntryOrder {
 public:
  explicit EntryOrder(Profile profile);

  // Records a data event for `name` whose surviving sections include output iff `has_output`.
  // `hash` is NameTable's hash of `name` (the caller may compute it ahead, on another thread).
  void add(std::string_view name, std::uint64_t hash, const EventRef& ref, bool is_module_forward, bool has_output);
  void add(std::string_view name, const EventRef& ref, bool is_module_forward, bool has_output) {
    add(name, hash(name), ref, is_module_forward, has_output);
  }
  // The hash add() and prefetch() take.
  static std::uint64_t hash(std::string_view name) { return NameTable<Iter>::hash(name); }
  // Starts loading the index slot of a name that add() will be called with soon.
  void prefetch(std::uint64_t hash) const { m_index.prefetch(hash); }

  // Names, event lists and list nodes all live in one arena (a trace has one entry per
  // few lines: hundreds of thousands of small allocations, freed at once).
  struct Entry {
    std::pmr::string name;
    std::pmr::vector<EventRef> events;
  };
  const std::pmr::list<Entry>& entries() const { return m_entries; }
  using Iter = std::pmr::list<Entry>::iterator;
  // Makes room in the index for `n` names.
  void reserve(std::size_t n) { m_index.reserve(n); }
  std::size_t size() const { return m_entries.size(); }

 private:
  Profile m_profile;
  std::unique_ptr<std::pmr::monotonic_buffer_resource> m_arena;  // outlives the containers below
  std::pmr::list<Entry> m_entries;
  // The list nodes (which never move), keyed by their names.
  NameTable<Iter> m_index;
};

}  // namespace msdump::convert
