#include "convert/entry_order.h"

namespace msdump::convert {

EntryOrder::EntryOrder(Profile profile)
    : m_profile(profile),
      m_arena(std::make_unique<std::pmr::monotonic_buffer_resource>(std::size_t{1} << 20)),
      m_entries(m_arena.get()),
      m_index(m_arena.get()) {}

void EntryOrder::add(std::string_view name, const EventRef& ref, bool is_module_forward, bool has_output) {
  auto it = m_index.find(name);
  if (it == m_index.end()) {
    auto& e = m_entries.emplace_back(Entry{std::pmr::string(name, m_arena.get()), std::pmr::vector<EventRef>(m_arena.get())});
    e.events.push_back(ref);
    m_index.emplace(std::string_view(e.name), std::prev(m_entries.end()));
    return;
  }
  auto pos = it->second;
  pos->events.push_back(ref);
  const bool move = m_profile == Profile::current ? name.starts_with("Module.") : (is_module_forward && has_output);
  if (move) m_entries.splice(m_entries.end(), m_entries, pos);
}

}  // namespace msdump::convert
