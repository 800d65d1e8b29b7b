#include "dump/stack_model.h"

#include <fmt/format.h>

#include "pyjson/json_value.h"
#include "pyjson/json_writer.h"

namespace msdump::dump {

void StackModel::add(const std::string& name, std::vector<std::string> frames) {
  add(name, m_own.intern(std::move(frames)), m_own);
}

void StackModel::add(const std::string& name, std::uint32_t frames_id, const FrameLists& lists) {
  if (&lists != &m_own) m_external = &lists;
  const auto h = NameTable<std::uint64_t>::hash(name);
  auto name_of = [&](std::uint64_t pos) { return name_at(pos); };
  if (m_names.find(name, h, name_of) != nullptr) return;
  if (m_group_of.size() <= frames_id) m_group_of.resize(frames_id + 1, 0);
  if (m_group_of[frames_id] == 0) {
    m_groups.push_back(Group{{}, frames_id});
    m_group_of[frames_id] = static_cast<std::uint32_t>(m_groups.size());
  }
  const std::size_t g = m_group_of[frames_id] - 1;
  auto& names = m_groups[g].names;
  names.push_back(name);
  m_names.insert(names.back(), h, (std::uint64_t{g} << 32) | (names.size() - 1), name_of);
}

bool StackModel::contains(const std::string& name) const {
  return m_names.find(name, NameTable<std::uint64_t>::hash(name), [&](std::uint64_t pos) { return name_at(pos); }) !=
         nullptr;
}

void StackModel::write(pyjson::JsonWriter& w) const {
  w.begin_object();
  for (std::size_t g = 0; g < m_groups.size(); ++g) {
    w.key(fmt::format("{}", g));
    w.begin_array();
    w.begin_array();
    for (const auto& n : m_groups[g].names) w.value(n);
    w.end_array();
    w.begin_array();
    for (const auto& f : lists().at(m_groups[g].frames_id)) w.value(f);
    w.end_array();
    w.end_array();
  }
  w.end_object();
}

namespace {

Result<std::vector<std::string>> string_list(const pyjson::Value& v, const std::string& where) {
  if (!v.is_array()) return invalid_input(fmt::format("{}: expected a list of strings, got {}", where, kind_name(v.kind())));
  std::vector<std::string> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.as_array().size(); ++i) {
    const auto& s = v.as_array()[i];
    if (!s.is_string())
      return invalid_input(fmt::format("{}/{}: expected a string, got {}", where, i, kind_name(s.kind())));
    out.push_back(s.as_string());
  }
  return out;
}

}  // namespace

Result<void> replay_stack_json(const pyjson::Value& doc,
                               const std::function<void(const std::string&, std::vector<std::string>)>& visit) {
  if (!doc.is_object()) return invalid_input(fmt::format("/: expected an object, got {}", kind_name(doc.kind())));
  const auto* zero = doc.find("0");
  const bool grouped = zero != nullptr && zero->is_array() && zero->size() > 0;
  for (const auto& m : doc.as_object()) {
    const std::string where = "/" + m.key;
    if (grouped) {
      if (!m.value.is_array() || m.value.size() != 2)
        return invalid_input(fmt::format("{}: expected [[names...], [frames...]]", where));
      auto names = string_list(m.value.as_array()[0], where + "/0");
      if (!names) return names.error();
      auto frames = string_list(m.value.as_array()[1], where + "/1");
      if (!frames) return frames.error();
      for (const auto& n : *names) visit(n, *frames);
    } else {
      auto frames = string_list(m.value, where);
      if (!frames) return frames.error();
      visit(m.key, std::move(*frames));
    }
  }
  return {};
}

}  // namespace msdump::dump
