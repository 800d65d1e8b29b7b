#pragma once
// ShapeStore: the entry shapes verify has checked clean (checked_shapes.h), with what settling
// an entry of each takes (ShapePlan), shared by every thread and every dump.json checked under
// one schema and one entry context in the process: the ranks and steps of a tree repeat the
// same shapes, and a dump of a few dozen entries would otherwise learn each shape only to drop
// it with the file. Shapes are only added (at most max_bytes of them), never changed or removed,
// so a plan found stays valid while the store lives. Thread-safe.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pyjson/json_value.h"
#include "schema/compiled_schema.h"
#include "verify/entry_checks.h"

namespace msdump::verify {

// Where a settled entry's checks find what they read.
struct LeafPlan {
  std::string pointer;  // below the entry's own
  bool ndarray = false;
  pyjson::Value dtype;  // (the shape holds it: strings are not cut)
  bool has_dtype = false;
  std::int32_t shape_begin = -1, shape_end = -1;  // its shape's items among the numbers; -1: no shape array
  std::array<std::int32_t, 4> stat_number{-1, -1, -1, -1};  // Max, Min, Mean, Norm among the numbers
  std::array<std::optional<pyjson::Value>, 4> stat_literal;  // or a literal (null, true, NaN...), or absent
};
struct ShapePlan {
  std::vector<LeafPlan> leaves;
  std::uint32_t entry_signals = 0;
  bool has_input_args = false;
  std::size_t numbers = 0;
};

class ShapeStore {
 public:
  static constexpr std::size_t k_default_max_bytes = 4u << 20;

  explicit ShapeStore(std::size_t max_bytes = k_default_max_bytes) : m_max_bytes(max_bytes) {}

  // The process's store for `schema` and `ctx` (made on first use).
  static std::shared_ptr<ShapeStore> shared(const std::shared_ptr<const schema::CompiledSchema>& schema,
                                            const EntryContext& ctx);

  // The plan of `shape`, or nullptr.
  const ShapePlan* find(std::string_view shape) const;
  // Adds `shape` unless it is there or the store is full.
  void add(std::string_view shape, ShapePlan plan);
  std::size_t size() const;

 private:
  // Shapes are compared whole; the hash reads 8 bytes a step (std::hash's reads were 4% of a
  // verify).
  struct ShapeHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept;
  };
  mutable std::shared_mutex m_mutex;
  std::unordered_map<std::string, ShapePlan, ShapeHash, std::equal_to<>> m_plans;
  std::size_t m_bytes = 0;
  const std::size_t m_max_bytes;
};

}  // namespace msdump::verify
