#include "convert/entry_order.h"

namespace msdump::convert {

void EntryOrder::add(const std::string& name, const EventRef& ref, bool is_module_forward, bool has_output) {
  auto it = m_index.find(name);
  if (it == m_index.end()) {
    m_entries.push_back(Entry{name, {ref}});
    m_index.emplace(name, std::prev(m_entries.end()));
    return;
  }
  auto pos = it->second;
  pos->events.push_back(ref);
  const bool move = m_profile == Profile::current ? name.starts_with("Module.") : (is_module_forward && has_output);
  if (move) m_entries.splice(m_entries.end(), m_entries, pos);
}

}  // namespace msdump::convert
