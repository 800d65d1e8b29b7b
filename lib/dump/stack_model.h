#pragma once
// stack.json (dump-format.md §8.1): names whose call stacks are identical share one group;
// groups are keyed "0", "1", ... in first-occurrence order:
//   {"0": [[name, ...], [frame, ...]], ...}

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.h"

namespace msdump::pyjson { class Value; class JsonWriter; }

namespace msdump::dump {

class StackModel {
 public:
  // Records the stack of `name`. A name recorded twice is kept once, in its first group.
  void add(const std::string& name, std::vector<std::string> frames);
  bool empty() const { return m_groups.empty(); }
  std::size_t group_count() const { return m_groups.size(); }
  std::size_t name_count() const { return m_names.size(); }
  bool contains(const std::string& name) const { return m_names.count(name) != 0; }

  // Writes the whole stack.json document.
  void write(pyjson::JsonWriter& w) const;

  // Reads a stack.json document (grouped format, or the legacy {name: [frames]} format that
  // msprobe's own reader accepts: dump-format.md §8.1) and replays it into `add` calls, group by
  // group, name by name. `keep(name)` decides which names survive (level, scope, list).
  template <typename Keep>
  static Result<StackModel> from_json(const pyjson::Value& doc, Keep keep);

 private:
  struct Group {
    std::vector<std::string> names;
    std::vector<std::string> frames;
  };
  struct FramesHash {
    std::size_t operator()(const std::vector<std::string>& v) const;
  };
  std::vector<Group> m_groups;
  std::unordered_map<std::vector<std::string>, std::size_t, FramesHash> m_index;
  std::unordered_map<std::string, std::size_t> m_names;
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
