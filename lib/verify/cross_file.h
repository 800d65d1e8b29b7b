#pragma once
// stack.json and construct.json against dump.json (docs/format.md §8, §15 "Cross-file"):
//   stack.json      grouped (or legacy) format; only forward entries have stacks;
//   construct.json  every forward module entry (and, at level mix, every API entry) of
//                   dump.json is a key; parents are keys, null, "optimizer"/"clip_grad", or
//                   [parent, micro_step] with "megatron_micro_step_number"; level L1: {}.
// Backward module nodes are not required: msprobe records none with torch < 2
// (testdata/msprobe/README.md).

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/profile.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

struct DumpNames {
  // Every entry name of dump.json, once, in file order. A deque: it grows by blocks, so a dump of
  // many entries touches each page of its names once (a vector's doublings copy them into fresh
  // pages: ~6,000 more page faults on a 270 MB dump, docs/performance.md "Page faults").
  std::deque<std::string> in_order;
  Level level = Level::mix;
  bool level_known = false;
  // Some forward entry has input_args: data_mode kept forward inputs, so every forward stack
  // must have its entry (msprobe takes stacks at forward input collection).
  bool forward_inputs = false;

  // Appends `name` to in_order unless it is there already; returns whether it was added.
  bool add(std::string_view name);
  // The same for a name hashed beforehand (hash == hash_of(name), e.g. on a worker thread),
  // moved in when added.
  bool add(std::string&& name, std::uint32_t hash);
  bool contains(std::string_view name) const;
  static std::uint32_t hash_of(std::string_view name);
  // Starts loading the slot a name of this hash probes first (for an add() a few names later).
  void prefetch(std::uint32_t hash) const {
    if (!m_slots.empty()) __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
  }

 private:
  // Open-addressing index into in_order: 32 bits of the name's hash and index + 1 (0 = empty).
  // A lookup of a new name reads one or two slots and no string (an unordered_set<string>
  // costs dependent cache misses per lookup and a second copy of every name).
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t index = 0;
  };
  std::vector<Slot> m_slots;
  std::size_t find_slot(std::string_view name, std::uint32_t hash) const;
  void grow_if_needed();
};

void check_stack_json(const std::string& path, const DumpNames& names, FindingSink& sink);
void check_construct_json(const std::string& path, const DumpNames& names, FindingSink& sink);

}  // namespace msdump::verify
