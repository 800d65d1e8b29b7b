#include "dump/frame_lists.h"

#include <cstring>

namespace msdump::dump {

void FrameLists::encode(const std::vector<std::string>& frames, std::string& key) {
  key.clear();
  for (const auto& f : frames) {
    const auto n = static_cast<std::uint32_t>(f.size());
    char len[4];
    std::memcpy(len, &n, 4);
    key.append(len, 4);
    key += f;
  }
}

std::uint32_t FrameLists::intern(std::vector<std::string>&& frames) {
  encode(frames, m_scratch);
  const auto id = static_cast<std::uint32_t>(m_lists.size());
  auto [slot, inserted] = m_index.insert(m_scratch, NameTable<std::uint32_t>::hash(m_scratch), id,
                                         [&](std::uint32_t k) { return std::string_view(m_keys[k]); });
  if (inserted) {
    m_keys.push_back(m_scratch);
    m_lists.push_back(std::move(frames));
  }
  return *slot;
}

}  // namespace msdump::dump
