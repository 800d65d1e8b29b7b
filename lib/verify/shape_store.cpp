#include "verify/shape_store.h"

#include <map>
#include <mutex>
#include <tuple>

namespace msdump::verify {

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

}  // namespace msdump::verify
