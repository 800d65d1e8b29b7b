#pragma once
// stack.json (docs/format.md §8.1): names whose call stacks are identical share one group;
// groups are keyed "0", "1", ... in first-occurrence order:
//   {"0": [[name, ...], [frame, ...]], ...}

#include <functional>
#include <string>
#include <vector>

#include "core/name_table.h"
#include "core/result.h"
#include "dump/frame_lists.h"

namespace msdump::pyjson { class Value; class JsonWriter; }

namespace msdump::dump {

class StackModel {
 public:
  // Records the stack of `name`. A name recorded twice is kept once, in its first group.
  void add(const std::string& name, std::vector<std::string> frames);
  // The same for a stack interned in `lists`, which must outlive the model and be the same
  // for every call (a model is built either this way or with the call above, not both).
  void add(const std::string& name, std::uint32_t frames_id, const FrameLists& lists);
  bool empty() const { return m_groups.empty(); }
  std::size_t group_count() const { return m_groups.size(); }
  std::size_t name_count() const { return m_names.size(); }
  bool contains(const std::string& name) const;

  // Writes the whole stack.json document.
  void write(pyjson::JsonWriter& w) const;

  // Reads a stack.json document (grouped format, or the legacy {name: [frames]} format that
  // msprobe's own reader accepts: docs/format.md §8.1) and replays it into `add` calls, group by
  // group, name by name. `keep(name)` decides which names survive (level, scope, list).
  template <typename Keep>
  static Result<StackModel> from_json(const pyjson::Value& doc, Keep keep);

 private:
  struct Group {
    std::vector<std::string> names;
    std::uint32_t frames_id;
  };
  const FrameLists& lists() const { return m_external != nullptr ? *m_external : m_own; }
  std::string_view name_at(std::uint64_t pos) const {
    return m_groups[static_cast<std::size_t>(pos >> 32)].names[static_cast<std::uint32_t>(pos)];
  }

  std::vector<Group> m_groups;
  FrameLists m_own;                        // stacks added as lists of strings
  const FrameLists* m_external = nullptr;  // or the caller's, for stacks added by number
  std::vector<std::uint32_t> m_group_of;   // frames id -> group + 1 (0: none yet)
  NameTable<std::uint64_t> m_names;        // name -> (group << 32 | index in its names)
};

// Non-template core of StackModel::from_json: calls visit(name, frames) in replay order.
Result<void> replay_stack_json(const pyjson::Value& doc,
                               const std::function<void(const std::string&, std::vector<std::string>)>& visit);

template <typename Keep>
Result<StackModel> StackModel::from_json(const pyjson::Value& doc, Keep keep) {
  StackModel model;
  auto r = replay_stack_json(doc, [&](const std::string& name, std::vector<std::string> frames) {
    if (keep(name)) model.add(name, std::move(frames));
  });
  if (!r) return r.error();
  return model;
}

}  // namespace msdump::dump
