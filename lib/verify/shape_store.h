#pragma once
// ShapeStore: the entry shapes verify has checked clean (checked_shapes.h), with what settling
// an entry of each takes (ShapePlan), shared by every thread and every dump.json checked under
// one schema and one entry context in the process: the ranks and steps of a tree repeat the
// same shapes, and a dump of a few dozen entries would otherwise learn each shape only to drop
// it with the file. Shapes are only added (at most max_bytes of them), never changed or removed,
// so a plan found stays valid while the store lives (core/shape_table.h). Thread-safe.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape_table.h"
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

class ShapeStore : public ShapeTable<ShapePlan> {
 public:
  static constexpr std::size_t k_default_max_bytes = 4u << 20;

  explicit ShapeStore(std::size_t max_bytes = k_default_max_bytes) : ShapeTable(max_bytes) {}

  // The process's store for `schema` and `ctx` (made on first use).
  static std::shared_ptr<ShapeStore> shared(const std::shared_ptr<const schema::CompiledSchema>& schema,
                                            const EntryContext& ctx);

  // Adds `shape` unless it is there or the store is full.
  void add(std::string_view shape, ShapePlan plan) {
    const std::size_t bytes = sizeof(ShapePlan) + plan.leaves.size() * sizeof(LeafPlan);
    ShapeTable::add(shape, std::move(plan), bytes);
  }
};

}  // namespace msdump::verify
