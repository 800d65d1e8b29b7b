#pragma once
// ShapeTable<Plan>: the shapes of texts (a text with the parts that may vary cut out and replaced
// by markers: pyjson/shape_writer.h), each with a plan of what any text of that shape gives,
// shared by threads. verify settles entries by them (verify/checked_shapes.h), compare reads
// pass 1's rows by them (compare/row_shapes.h). Shapes are only added, at most max_bytes of them,
// never changed or removed: a plan found stays valid, at the same address, while the table lives.
// Thread-safe: finds take a shared lock, adds an exclusive one.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace msdump {

// Shapes are compared whole, after their hash (XXH3: std::hash's byte-at-a-time reads were 4% of
// a verify).
std::size_t shape_hash(std::string_view shape) noexcept;

template <class Plan>
class ShapeTable {
 public:
  explicit ShapeTable(std::size_t max_bytes) : m_max_bytes(max_bytes) {}

  // The plan of `shape`, or nullptr.
  const Plan* find(std::string_view shape) const {
    std::shared_lock lock(m_mutex);
    const auto it = m_plans.find(shape);
    return it == m_plans.end() ? nullptr : &it->second;  // (nodes never move or go away)
  }

  // Adds `shape` with its plan, counted as the shape's bytes and `plan_bytes`, unless it is there
  // or the table would hold more than max_bytes.
  void add(std::string_view shape, Plan plan, std::size_t plan_bytes) {
    const std::size_t bytes = shape.size() + plan_bytes;
    std::unique_lock lock(m_mutex);
    if (m_bytes + bytes > m_max_bytes) return;
    if (m_plans.try_emplace(std::string(shape), std::move(plan)).second) m_bytes += bytes;
  }

  std::size_t size() const {
    std::shared_lock lock(m_mutex);
    return m_plans.size();
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return shape_hash(s); }
  };
  mutable std::shared_mutex m_mutex;
  std::unordered_map<std::string, Plan, Hash, std::equal_to<>> m_plans;
  std::size_t m_bytes = 0;
  const std::size_t m_max_bytes;
};

}  // namespace msdump
