#include "verify/shape_store.h"

#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

namespace msdump::verify {

std::size_t ShapeStore::ShapeHash::operator()(std::string_view s) const noexcept {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
  auto mix = [&h](std::uint64_t w) {
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
  };
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    mix(w);
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, s.data() + i, s.size() - i);
  mix(tail);
  return static_cast<std::size_t>(h * 0x94D049BB133111EBull);
}

std::shared_ptr<ShapeStore> ShapeStore::shared(const std::shared_ptr<const schema::CompiledSchema>& schema,
                                               const EntryContext& ctx) {
  // Everything check_entry and the leaf rules read of the context, and the schema (kept alive
  // here: compiled schemas live as long as the process anyway).
  using Key = std::tuple<std::shared_ptr<const schema::CompiledSchema>, Framework, int, Level, bool, std::string, bool>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<ShapeStore>> stores;
  const Key key{schema, ctx.rules.framework, ctx.rules.profile ? static_cast<int>(*ctx.rules.profile) : -1, ctx.level,
                ctx.level_known, ctx.task, ctx.has_dump_data_dir};
  std::lock_guard lock(mutex);
  auto& store = stores[key];
  if (!store) store = std::make_shared<ShapeStore>();
  return store;
}

const ShapePlan* ShapeStore::find(std::string_view shape) const {
  std::shared_lock lock(m_mutex);
  const auto it = m_plans.find(shape);
  return it == m_plans.end() ? nullptr : &it->second;  // (nodes never move or go away)
}

void ShapeStore::add(std::string_view shape, ShapePlan plan) {
  const std::size_t bytes = shape.size() + sizeof(ShapePlan) + plan.leaves.size() * sizeof(LeafPlan);
  std::unique_lock lock(m_mutex);
  if (m_bytes + bytes > m_max_bytes) return;
  if (m_plans.try_emplace(std::string(shape), std::move(plan)).second) m_bytes += bytes;
}

std::size_t ShapeStore::size() const {
  std::shared_lock lock(m_mutex);
  return m_plans.size();
}

}  // namespace msdump::verify
