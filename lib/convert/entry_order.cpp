#include "convert/entry_order.h"

namespace msdump::convert {

EntryOrder::EntryOrder(Profile profile)
    : m_profile(profile),
      m_arena(std::make_unique<std::pmr::monotonic_buffer_resource>(std::size_t{1} << 20)),
      m_entries(m_arena.get()) {}

void EntryOrder::add(std::string_view name, std::uint64_t hash, const EventRef& ref, bool is_module_forward,
                     bool has_output) {
  auto name_of = [](Iter it) { return std::string_view(it->name); };
  auto [slot, inserted] = m_index.insert(name, hash, Iter{}, name_of);
  if (inserted) {
    m_entries.emplace_back(Entry{std::pmr::string(name, m_arena.get()), std::pmr::vector<EventRef>(m_arena.get())});
    *slot = std::prev(m_entries.end());
    (*slot)->events.push_back(ref);
    return;
  }
  const Iter pos = *slot;
  pos->events.push_back(ref);
  const bool move = m_profile == Profile::current ? name.starts_with("Module.") : (is_module_forward && has_output);
  if (move) m_entries.splice(m_entries.end(), m_entries, pos);  // relinks the node: `pos` stays valid
}

}  // namespace msdump::convert
