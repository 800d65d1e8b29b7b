#include "dump/stack_model.h"

#include <fmt/format.h>

#include "pyjson/json_value.h"
#include "pyjson/json_writer.h"

namespace msdump::dump {

std::size_t StackModel::FramesHash::operator()(const std::vector<std::string>& v) const {
  std::size_t h = v.size();
  for (const auto& s : v) h = h * 1000003u ^ std::hash<std::string>{}(s);
  return h;
}

void StackModel::add(const std::string& name, std::vector<std::string> frames) {
  if (m_names.count(name) != 0) return;
  auto it = m_index.find(frames);
  std::size_t g;
  if (it == m_index.end()) {
    g = m_groups.size();
    m_index.emplace(frames, g);
    m_groups.push_back(Group{{}, std::move(frames)});
  } else {
    g = it->second;
  }
  m_groups[g].names.push_back(name);
  m_names.emplace(name, g);
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
    for (const auto& f : m_groups[g].frames) w.value(f);
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
