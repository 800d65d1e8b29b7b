#include "anomalies/clean_shapes.h"

#include <algorithm>

namespace msdump::anomalies {

const char* CleanShapes::clean_value(std::string_view name, const char* p, const char* end) {
  pyjson::digit_runs_as_hash(name, m_head);
  auto it = m_recent.find(m_head);
  if (it != m_recent.end()) {
    if (const char* const e = match(it->second, p, end)) {
      ++m_matched;
      return e;
    }
  }
  const char* const e = m_rule.clean_value(p, end, m_tokens);
  if (e == nullptr || static_cast<std::size_t>(e - p) > k_max_entry_bytes) return e;
  if (it == m_recent.end()) {
    if (m_recent.size() >= k_max_names) m_recent.clear();  // (names of no pattern: start again)
    it = m_recent.try_emplace(m_head).first;
    it->second.fill(nullptr);
  }
  learn(it->second, std::string_view(p, static_cast<std::size_t>(e - p)));
  return e;
}

bool CleanShapes::clean(std::string_view name, std::string_view text) {
  const char* const end = text.data() + text.size();
  const char* const e = clean_value(name, text.data(), end);
  return e != nullptr && pyjson::skip_plain_ws(e, end) == end;
}

const char* CleanShapes::match(Recent& recent, const char* p, const char* end) {
  pyjson::Newlines newlines;
  for (std::size_t i = 0; i < recent.size() && recent[i] != nullptr; ++i) {
    const Plan& plan = *recent[i];
    const char* const e = plan.text.match(p, end, newlines, [this, &plan](std::size_t t, const pyjson::NumberText& n) {
      return m_rule.clean_number(n, plan.stat[t] != 0);
    });
    if (e == nullptr) continue;
    std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(i), recent.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    return e;
  }
  return nullptr;
}

// The clean value `text`, whose tokens are m_tokens: its plan first among `recent`.
void CleanShapes::learn(Recent& recent, std::string_view text) {
  m_spans.clear();
  for (const auto& t : m_tokens) m_spans.emplace_back(t.begin, t.end);
  Plan plan;
  plan.text = pyjson::TextShape::of(text, m_spans);
  const Plan* stored = m_plans.find(plan.text.runs);
  if (stored == nullptr) {
    plan.stat.reserve(m_tokens.size());
    for (const auto& t : m_tokens) plan.stat.push_back(t.stat ? 1 : 0);
    const std::string runs = plan.text.runs;
    const std::size_t bytes = sizeof(Plan) + plan.text.bytes() + plan.stat.capacity();
    m_plans.add(runs, std::move(plan), bytes);
    stored = m_plans.find(runs);
    if (stored == nullptr) return;  // (full)
  }
  auto it = std::find(recent.begin(), recent.end(), stored);
  if (it == recent.end()) it = recent.end() - 1;  // (the least recent goes)
  std::rotate(recent.begin(), it, it + 1);
  recent.front() = stored;
}

}  // namespace msdump::anomalies
