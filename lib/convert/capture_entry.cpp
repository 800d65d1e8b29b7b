#include "convert/capture_entry.h"

#include <algorithm>
#include <fmt/format.h>

#include "dump/dump_writer.h"
#include "dump/entry_name.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "trace/line_hash.h"
#include "trace/trace_event.h"

namespace msdump::convert {
namespace {

using pyjson::Value;

bool is_input_section(std::string_view key) { return key == "input_args" || key == "input_kwargs"; }

// Where the legacy profile's is_recompute goes among the kept members `keys` (docs/format.md
// §4.2): PyTorch module forwards last, API forwards right after the inputs (an entry whose
// inputs were filtered out gets it with its output, i.e. last).
template <typename Keys>
std::size_t is_recompute_position(const dump::EntryName& name, std::size_t n, Keys key) {
  if (name.kind == dump::EntryKind::module_forward) return n;
  std::size_t at = n;
  for (std::size_t i = 0; i < n; ++i)
    if (is_input_section(key(i))) at = i + 1;
  return at;
}

bool wants_is_recompute(const EntryRules& rules, const dump::EntryName& name) {
  return rules.profile == Profile::legacy && rules.framework == Framework::pytorch && name.is_forward();
}

std::string at_line(const std::string& file, std::uint64_t line) { return fmt::format("{}:{}", file, line); }

}  // namespace

Result<bool> finish_entry(const std::string& name, Value& entry, std::optional<bool> is_recompute,
                          const EntryRules& rules, LeafConverter& leaves, const std::string& file,
                          const std::function<std::uint64_t(std::size_t)>& line_of, std::vector<Problem>& problems) {
  const auto parsed = dump::parse_entry_name(name);
  auto& members = entry.as_object();
  const bool pg = parsed.kind == dump::EntryKind::parameters_grad;
  bool any = false;
  for (std::size_t i = 0; i < members.size(); ++i) {
    auto& m = members[i];
    if (m.key == "is_recompute" || !rules.data_mode.keeps_section(parsed.kind, m.key)) continue;
    any = true;
    const std::uint64_t line = line_of(i);
    if (auto r = leaves.convert_section(name, m.key, pg, m.value, line, problems); !r)
      return r.error().with_context(at_line(file, line));
  }
  std::erase_if(members, [&](const pyjson::Member& m) {
    return m.key == "is_recompute" || !rules.data_mode.keeps_section(parsed.kind, m.key);
  });
  if (!any) return false;
  if (wants_is_recompute(rules, parsed) && (!rules.mirror_is_recompute || is_recompute)) {
    const std::size_t at = is_recompute_position(parsed, members.size(), [&](std::size_t i) -> std::string_view {
      return members[i].key;
    });
    members.insert(members.begin() + static_cast<std::ptrdiff_t>(at),
                   pyjson::Member{"is_recompute", Value::boolean(is_recompute.value_or(false)), 0});
  }
  return true;
}

Result<bool> CaptureEntry::write(const std::string& name, std::span<const EventLine> events, const EntryRules& rules,
                                 LeafConverter& leaves, const std::string& file, dump::EntryFormatter& out,
                                 std::vector<Problem>& problems) {
  auto plain = write_plain(name, events, rules, leaves, file, out, problems);
  if (!plain) return plain.error();
  if (*plain) return **plain;
  return write_parsed(name, events, rules, leaves, file, out, problems);
}

Result<bool> CaptureEntry::write_parsed(const std::string& name, std::span<const EventLine> events,
                                        const EntryRules& rules, LeafConverter& leaves, const std::string& file,
                                        dump::EntryFormatter& out, std::vector<Problem>& problems) {
  Value merged = Value::object();
  auto& member_lines = m_member_lines;  // the line each merged member came from
  member_lines.clear();
  std::optional<bool> is_recompute;
  for (const auto& event : events) {
    auto v = pyjson::parse_json(event.text);
    if (!v) return v.error().with_context(at_line(file, event.line));
    auto ev = trace::parse_trace_event(std::move(*v));
    if (!ev) return ev.error().with_context(at_line(file, event.line));
    for (auto& m : ev->sections) {
      if (m.key == "is_recompute") {
        if (m.value.is_bool()) is_recompute = m.value.as_bool();
        continue;
      }
      // update_data: an existing key is overwritten where it stands, a new key is appended.
      auto& members = merged.as_object();
      auto it = std::find_if(members.begin(), members.end(), [&](const pyjson::Member& x) { return x.key == m.key; });
      if (it != members.end()) {
        it->value = std::move(m.value);
        member_lines[static_cast<std::size_t>(it - members.begin())] = event.line;
      } else {
        members.push_back(std::move(m));
        member_lines.push_back(event.line);
      }
    }
  }
  auto kept = finish_entry(name, merged, is_recompute, rules, leaves, file,
                           [&](std::size_t k) { return member_lines[k]; }, problems);
  if (!kept) return kept.error();
  if (*kept) out.write_entry(name, merged);
  return *kept;
}

Result<std::optional<bool>> CaptureEntry::write_plain(const std::string& name, std::span<const EventLine> events,
                                                      const EntryRules& rules, LeafConverter& leaves,
                                                      const std::string& file, dump::EntryFormatter& out,
                                                      std::vector<Problem>& problems) {
  // Every line first: one that is not plain sends the whole entry the parsed way.
  if (m_scanned.size() < events.size()) m_scanned.resize(events.size());
  for (std::size_t k = 0; k < events.size(); ++k) {
    auto& s = m_scanned[k];
    const EventLine& e = events[k];
    const bool unchanged = e.text_hash != 0 && trace::line_hash(e.text) == e.text_hash;
    if (!(unchanged ? trace::split_data_line(e.text, s) : trace::scan_data_line(e.text, s)) || s.kind != "data" ||
        s.name.empty())
      return std::optional<bool>();
  }

  // The merge, by key.
  m_sections.clear();
  std::optional<bool> is_recompute;
  for (std::size_t k = 0; k < events.size(); ++k) {
    for (const auto& s : m_scanned[k].sections) {
      if (s.key == "is_recompute") {
        if (s.value == "true") is_recompute = true;
        else if (s.value == "false") is_recompute = false;
        continue;
      }
      auto it = std::find_if(m_sections.begin(), m_sections.end(), [&](const Section& x) { return x.key == s.key; });
      if (it != m_sections.end()) {
        it->value = s.value;
        it->line = events[k].line;
      } else {
        m_sections.push_back({s.key, s.value, events[k].line});
      }
    }
  }

  // data_mode, then is_recompute's place among the kept sections.
  const auto parsed = dump::parse_entry_name(name);
  std::erase_if(m_sections, [&](const Section& s) { return !rules.data_mode.keeps_section(parsed.kind, s.key); });
  if (m_sections.empty()) return std::optional<bool>(false);
  const std::size_t n = m_sections.size();
  const std::size_t recompute_at =
      wants_is_recompute(rules, parsed)
          ? is_recompute_position(parsed, n, [&](std::size_t i) { return m_sections[i].key; })
          : n + 1;

  const bool pg = parsed.kind == dump::EntryKind::parameters_grad;
  pyjson::JsonWriter& w = out.begin_entry(name);
  w.begin_object();
  for (std::size_t i = 0; i <= n; ++i) {
    if (i == recompute_at) {
      w.key("is_recompute");
      w.value(is_recompute.value_or(false));
    }
    if (i == n) break;
    const Section& s = m_sections[i];
    m_key.assign(s.key);
    w.key(s.key);
    auto r = m_text.write(s.value, w, [&](std::string_view text, dump::LeafKind kind,
                                          const std::vector<std::string>& path) -> Result<void> {
      auto leaf = m_leaf.read(text);
      if (!leaf) return leaf.error();
      return leaves.write_leaf(name, m_key, pg, path, **leaf, kind == dump::LeafKind::ndarray, s.line, problems, w);
    });
    if (!r) return r.error().with_context(at_line(file, s.line));
  }
  w.end_object();
  return std::optional<bool>(true);
}

}  // namespace msdump::convert
