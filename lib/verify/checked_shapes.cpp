#include "verify/checked_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>

#include "dump/entry_name.h"
#include "dump/format_signals.h"
#include "dump/leaf_walk.h"
#include "pyjson/plain_reader.h"
#include "pyjson/number_tokens.h"
#include "pyjson/tree_arena.h"
#include "verify/leaf_rules.h"

namespace msdump::verify {
namespace {

using pyjson::Kind;
using pyjson::Value;

constexpr std::string_view k_stats[] = {"Max", "Min", "Mean", "Norm"};

// A number that came from a number token: NaN and the infinities in a tree are the literals (a
// token that overflows is never learned, see on_number).
bool is_number_token(const Value& v) {
  return v.kind() == Kind::integer || v.kind() == Kind::big_integer ||
         (v.kind() == Kind::floating && std::isfinite(v.as_float()));
}

// The entry's number tokens in text order (the tree keeps members and items in text order).
void collect_numbers(const Value& v, std::vector<const Value*>& out) {
  if (is_number_token(v)) out.push_back(&v);
  else if (v.is_array())
    for (const Value& item : v.as_array()) collect_numbers(item, out);
  else if (v.is_object())
    for (const auto& m : v.as_object()) collect_numbers(m.value, out);
}

std::int32_t index_of(const std::vector<const Value*>& numbers, const Value* v) {
  for (std::size_t i = 0; i < numbers.size(); ++i)
    if (numbers[i] == v) return static_cast<std::int32_t>(i);
  return -1;
}

}  // namespace

CheckedShapes::CheckedShapes(std::shared_ptr<const schema::CompiledSchema> schema,
                             std::shared_ptr<const EntryContext> ctx, std::shared_ptr<ShapeStore> store)
    : m_schema(std::move(schema)), m_ctx(std::move(ctx)), m_store(std::move(store)) {
  if (!m_schema) return;
  if (!m_store) m_store = ShapeStore::shared(m_schema, *m_ctx);
  m_inputs = inputs_of(m_schema);
  if (m_inputs->name_key) m_name_key = &*m_inputs->name_key;
  if (m_inputs->classes) m_classes = &*m_inputs->classes;
}

std::shared_ptr<const CheckedShapes::SchemaInputs> CheckedShapes::inputs_of(
    const std::shared_ptr<const schema::CompiledSchema>& schema) {
  static std::mutex mutex;
  // By the schema itself (kept alive here): compiled schemas are made once per process too.
  static std::map<std::shared_ptr<const schema::CompiledSchema>, std::shared_ptr<const SchemaInputs>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[schema];
  if (!slot) {
    auto made = std::make_shared<SchemaInputs>();
    made->name_key = schema::MemberNameKey::of(*schema);
    made->classes = schema::NumberClasses::of(*schema);
    slot = std::move(made);
  }
  return slot;
}

bool CheckedShapes::read_shape(const std::string& name, const dump::EntryName& parsed, std::string_view text) {
  thread_local std::string head;
  head.clear();
  m_name_key->append(name, head);
  head += '\xFF';
  head += static_cast<char>(parsed.kind);
  head += parsed.numbered ? '1' : '0';
  head += '\xFF';
  m_writer.begin(m_shape_buffer, head, text);
  m_count = 0;
  // No syntax check here: a shape equal to a learned one, which came from valid text, makes
  // this text valid too (pyjson/number_tokens.h); an unknown shape is parsed whole.
  if (!pyjson::for_each_number_token(text, [this](const pyjson::NumberText& n) { return on_number(n); })) return false;
  m_shape = m_writer.finish();
  return true;
}

bool CheckedShapes::on_number(const pyjson::NumberText& n) {
  if (m_count == m_numbers.size()) m_numbers.emplace_back();
  Value& v = m_numbers[m_count++];
  const bool negative = *n.begin == '-';
  if (n.int_end == n.end && n.int_end - n.int_begin <= 18) {  // an integer of up to 18 digits
    std::int64_t x = 0;
    for (const char* d = n.int_begin; d != n.int_end; ++d) x = x * 10 + (*d - '0');
    v = Value::integer(negative ? -x : x);
  } else if (!pyjson::read_number_token(std::string_view(n.begin, static_cast<std::size_t>(n.end - n.begin)), m_cursor,
                                        v)) {
    return false;
  } else if (v.is_float() && !std::isfinite(v.as_float())) {
    return false;  // (1e999: the tree shows Infinity)
  }
  const auto c = m_classes->class_of(v);
  const char marker[2] = {static_cast<char>(0x80 | c.kind), static_cast<char>(c.position)};
  m_writer.cut(n.begin, n.end, std::string_view(marker, 2));
  return true;
}

std::optional<CheckedShapes::Settled> CheckedShapes::check_text(const std::string& name, std::string_view text,
                                                                 const std::string& pointer, FindingSink& sink) {
  m_pending = false;
  if (!enabled() || text.size() > k_max_entry_bytes) return std::nullopt;
  const auto parsed = dump::parse_entry_name(name);
  if (!read_shape(name, parsed, text)) return std::nullopt;
  const ShapePlan* plan = m_store->find(shape());
  if (plan == nullptr) {
    m_pending = true;
    return std::nullopt;
  }
  return run(*plan, name, parsed, pointer, sink);
}

CheckedShapes::Settled CheckedShapes::run(const ShapePlan& plan, const std::string& name, const dump::EntryName& parsed,
                                          const std::string& pointer, FindingSink& sink) const {
  // What check_entry runs that reads more than the shape: the name, and each leaf's rules.
  check_entry_name(name, parsed, *m_ctx, pointer, sink);
  Settled s{plan.leaves.size(), plan.entry_signals, plan.has_input_args};
  thread_local std::string lp;
  for (const LeafPlan& leaf : plan.leaves) {
    std::array<const Value*, 4> stats{};
    for (std::size_t k = 0; k < 4; ++k)
      stats[k] = leaf.stat_number[k] >= 0 ? &m_numbers[static_cast<std::size_t>(leaf.stat_number[k])]
                 : leaf.stat_literal[k] ? &*leaf.stat_literal[k]
                                        : nullptr;
    std::optional<std::span<const Value>> shape;
    if (leaf.shape_begin >= 0)
      shape = std::span<const Value>(m_numbers.data() + leaf.shape_begin,
                                     static_cast<std::size_t>(leaf.shape_end - leaf.shape_begin));
    lp.assign(pointer);
    lp += leaf.pointer;
    check_tensor_leaf(LeafView(leaf.has_dtype ? &leaf.dtype : nullptr, shape, stats), leaf.ndarray, m_ctx->rules, name,
                      lp, sink, &s.signals);
  }
  return s;
}

std::optional<ShapePlan> CheckedShapes::plan_of(const Value& entry, const dump::EntryName& parsed) const {
  if (!entry.is_object()) return std::nullopt;
  const pyjson::TreeArenaScope heap(nullptr);  // the plan outlives the entry's tree arena
  std::vector<const Value*> numbers;
  collect_numbers(entry, numbers);
  ShapePlan plan;
  plan.numbers = numbers.size();
  plan.entry_signals = dump::entry_signals(parsed, entry, m_ctx->rules.framework);
  plan.has_input_args = entry.find("input_args") != nullptr;
  bool ok = true;
  std::vector<std::string> path;
  for (const auto& section : entry.as_object()) {
    path.clear();
    dump::walk_leaves(section.value, path, [&](const Value& v, dump::LeafKind kind, const std::vector<std::string>& p) {
      if (!ok || (kind != dump::LeafKind::tensor && kind != dump::LeafKind::ndarray)) return;
      const LeafView view(v);
      if (view.find("data_name") != nullptr || view.find("md5") != nullptr) {
        ok = false;  // checked against the entry's name, or against other leaves
        return;
      }
      LeafPlan& leaf = plan.leaves.emplace_back();
      dump::append_pointer_token(leaf.pointer, section.key);
      for (const auto& c : p) dump::append_pointer_token(leaf.pointer, c);
      leaf.ndarray = kind == dump::LeafKind::ndarray;
      if (const Value* dtype = view.find("dtype")) {
        if (!dtype->is_string()) ok = false;
        leaf.dtype = *dtype;
        leaf.has_dtype = true;
      }
      if (const auto items = view.shape_items()) {
        const std::int32_t first = items->empty() ? 0 : index_of(numbers, &items->front());
        for (std::size_t i = 0; i < items->size() && ok; ++i)
          ok = first >= 0 && static_cast<std::size_t>(first) + i < numbers.size() &&
               numbers[static_cast<std::size_t>(first) + i] == &(*items)[i];
        leaf.shape_begin = first;
        leaf.shape_end = first + static_cast<std::int32_t>(items->size());
      }
      for (std::size_t k = 0; k < 4; ++k) {
        const Value* stat = view.find(k_stats[k]);
        if (stat == nullptr) continue;
        leaf.stat_number[k] = index_of(numbers, stat);
        if (stat->is_array() || stat->is_object()) ok = false;  // (its numbers are not in the shape)
        else if (leaf.stat_number[k] < 0) leaf.stat_literal[k] = *stat;  // a literal: in the shape
      }
    });
    if (!ok) return std::nullopt;
  }
  return plan;
}

void CheckedShapes::learn(const std::string& name, const Value& entry, bool clean) {
  if (!m_pending) return;
  m_pending = false;
  if (!clean) return;
  auto plan = plan_of(entry, dump::parse_entry_name(name));
  if (!plan || plan->numbers != m_count) return;
  m_store->add(shape(), std::move(*plan));
}

}  // namespace msdump::verify
