#include "compare/row_match.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <unordered_map>
#include <utility>

#include "dump/match_key.h"

namespace msdump::compare {
namespace {

constexpr std::uint32_t k_never = std::numeric_limits<std::uint32_t>::max();  // a key nothing pairs with

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The next dotted component of `name` from `start`: [start, end).
std::size_t component_end(std::string_view name, std::size_t start) {
  const auto dot = name.find('.', start);
  return dot == std::string_view::npos ? name.size() : dot;
}

// Length of the entry part of a row name found from its words: up to the first `forward`,
// `backward` or `parameters_grad` component, with the module-style counter after it.
std::size_t entry_length_by_words(std::string_view name) {
  const bool module = name.starts_with("Module.") || name.starts_with("Cell.");
  for (std::size_t start = 0; start < name.size();) {
    const auto end = component_end(name, start);
    const auto word = name.substr(start, end - start);
    if (word == "forward" || word == "backward" || word == "parameters_grad") {
      if (module && end < name.size()) {
        const auto next_end = component_end(name, end + 1);
        if (all_digits(name.substr(end + 1, next_end - end - 1))) return next_end;
      }
      return end;
    }
    start = end + 1;
  }
  return std::string_view::npos;
}

// Length of the entry part of `name`: `hint` (the row's own entry) when the name starts with it.
std::size_t entry_length(std::string_view name, std::string_view hint) {
  if (!hint.empty() && name.starts_with(hint) && (name.size() == hint.size() || name[hint.size()] == '.'))
    return hint.size();
  return entry_length_by_words(name);
}

// Exact keys of one side: row names with their entry replaced by its match key.
class RowKeys {
 public:
  std::string key(std::string_view name, std::string_view entry_hint) {
    const auto length = entry_length(name, entry_hint);
    if (length == std::string_view::npos) return std::string(name);
    const std::string entry(name.substr(0, length));
    auto it = m_entry_key.find(entry);
    if (it == m_entry_key.end()) it = m_entry_key.emplace(entry, m_keys.key(entry)).first;
    return it->second + std::string(name.substr(length));
  }

 private:
  dump::MatchKeys m_keys;
  std::unordered_map<std::string, std::string> m_entry_key;
};

std::string_view entry_of(const DumpRows& rows, const Row& row) {
  return row.entry < rows.entries.size() ? std::string_view(rows.entries[row.entry]) : std::string_view();
}

// The name an NPU row pairs by under the mappings; nullopt: unmatchable.
std::optional<std::string> npu_name(const DumpRows& npu, const Row& row, const MatchOptions& options, bool cross) {
  if (options.data_mapping != nullptr) {
    const auto& m = options.data_mapping->bench_of;
    if (auto it = m.find(row.name); it != m.end()) return it->second;
  }
  std::string name = row.name;
  if (options.api_mapping != nullptr && cross) {
    name = api_mapped_name(name, entry_of(npu, row), *options.api_mapping);
    if (name.empty()) return std::nullopt;
  }
  if (options.cell_mapping != nullptr) {
    name = cell_mapped_name(name, *options.cell_mapping);
    if (name.empty()) return std::nullopt;
  }
  return name;
}

std::vector<std::optional<std::uint32_t>> exact_pairs(const DumpRows& npu, const DumpRows& bench,
                                                      const MatchOptions& options, bool cross) {
  RowKeys bench_keys;
  std::unordered_map<std::string, std::uint32_t> first_of;
  for (std::uint32_t i = 0; i < bench.rows.size(); ++i)
    first_of.emplace(bench_keys.key(bench.rows[i].name, entry_of(bench, bench.rows[i])), i);
  RowKeys npu_keys;
  std::vector<std::optional<std::uint32_t>> out(npu.rows.size());
  for (std::size_t i = 0; i < npu.rows.size(); ++i) {
    const Row& row = npu.rows[i];
    const auto name = npu_name(npu, row, options, cross);
    if (!name) continue;
    const auto hint = *name == row.name ? entry_of(npu, row) : std::string_view();
    if (auto it = first_of.find(npu_keys.key(*name, hint)); it != first_of.end()) out[i] = it->second;
  }
  return out;
}

// Positions of each key on one side, in order; `head` skips those before the queue's start.
struct KeyPositions {
  std::vector<std::vector<std::uint32_t>> at;
  std::vector<std::uint32_t> head;

  explicit KeyPositions(std::size_t keys) : at(keys), head(keys, 0) {}
  // The first position >= lo holding `key` (k_never if none).
  std::uint32_t first_from(std::uint32_t key, std::uint32_t lo) {
    auto& list = at[key];
    auto& h = head[key];
    while (h < list.size() && list[h] < lo) ++h;
    return h < list.size() ? list[h] : k_never;
  }
};

// msprobe's fuzzy queue algorithm over key ids (docs/compare.md "Matching rows"). The queues are always
// the ranges [lo, hi) of each side, so "is this key in the queue" is a lookup in its positions:
// linear in the rows overall, where testing every queue element at each step is quadratic.
std::vector<std::optional<std::uint32_t>> queue_pairs(const std::vector<std::uint32_t>& n,
                                                      const std::vector<std::uint32_t>& b, std::size_t keys) {
  std::vector<std::optional<std::uint32_t>> out(n.size());
  KeyPositions pn(keys), pb(keys);
  std::uint32_t lo_n = 0, hi_n = 0, lo_b = 0, hi_b = 0;
  const auto steps = std::max(n.size(), b.size());
  for (std::uint32_t i = 0; i < steps; ++i) {
    if (i < n.size()) {
      if (n[i] != k_never) pn.at[n[i]].push_back(i);
      hi_n = i + 1;
    }
    if (i < b.size()) {
      if (b[i] != k_never) pb.at[b[i]].push_back(i);
      hi_b = i + 1;
    }
    if ((lo_n == hi_n) != (lo_b == hi_b)) break;  // one side is used up: nothing more can pair
    if (lo_n == hi_n) continue;
    const std::uint32_t last_n = hi_n - 1, last_b = hi_b - 1;
    // The last NPU row against every bench row in the queue (the first one wins), then every
    // earlier NPU row against the last bench row.
    std::uint32_t a = k_never, c = k_never;
    if (n[last_n] != k_never && (c = pb.first_from(n[last_n], lo_b)) != k_never) a = last_n;
    if (a == k_never && b[last_b] != k_never) {
      const auto earlier = pn.first_from(b[last_b], lo_n);
      if (earlier < last_n) {
        a = earlier;
        c = last_b;
      }
    }
    if (a == k_never) continue;
    out[a] = c;
    lo_n = a + 1;
    lo_b = c + 1;
  }
  return out;
}

std::vector<std::optional<std::uint32_t>> fuzzy_pairs(const DumpRows& npu, const DumpRows& bench,
                                                      const MatchOptions& options, bool cross) {
  std::unordered_map<std::string, std::uint32_t> ids;
  auto id_of = [&](std::string key) {
    return ids.emplace(std::move(key), static_cast<std::uint32_t>(ids.size())).first->second;
  };
  std::vector<std::uint32_t> n(npu.rows.size()), b(bench.rows.size());
  for (std::size_t i = 0; i < npu.rows.size(); ++i) {
    const auto name = npu_name(npu, npu.rows[i], options, cross);
    n[i] = name ? id_of(fuzzy_key(*name)) : k_never;
  }
  for (std::size_t i = 0; i < bench.rows.size(); ++i) b[i] = id_of(fuzzy_key(bench.rows[i].name));
  return queue_pairs(n, b, ids.size());
}

// Lower-case family of a dtype text for cross-framework pairs: bool, complex, float, int.
std::string_view dtype_family(std::string_view dtype) {
  std::string lower(dtype);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view family : {"bool", "complex", "float", "int"})
    if (lower.find(family) != std::string::npos) return family;
  return dtype;
}

bool in(std::string_view dtype, const std::array<std::string_view, 3>& set) {
  return std::find(set.begin(), set.end(), dtype) != set.end();
}

}  // namespace

std::string fuzzy_key(std::string_view row_name) {
  const auto f = row_name.find("forward"), b = row_name.find("backward");
  const auto at = std::min(f, b);
  if (at == std::string_view::npos) return std::string(row_name);
  auto head = row_name.substr(0, at);
  if (head.ends_with('.')) head.remove_suffix(1);
  const auto dot = head.rfind('.');
  const auto kept = dot == std::string_view::npos ? std::string_view() : head.substr(0, dot + 1);
  return std::string(kept) + std::string(row_name.substr(at));
}

bool dtypes_pair(std::string_view npu, std::string_view bench, bool cross) {
  if (cross) return dtype_family(npu) == dtype_family(bench);
  if (npu == bench) return true;
  static constexpr std::array<std::string_view, 3> torch_floats{"torch.float16", "torch.float32", "torch.bfloat16"};
  static constexpr std::array<std::string_view, 3> ms_floats{"Float16", "Float32", "BFloat16"};
  return (in(npu, torch_floats) && in(bench, torch_floats)) || (in(npu, ms_floats) && in(bench, ms_floats));
}

bool cross_framework(const DumpRows& npu, const DumpRows& bench) {
  return (npu.framework == "mindspore" || npu.framework == "mindtorch") && bench.framework == "pytorch";
}

MatchResult match_rows(const DumpRows& npu, const DumpRows& bench, const MatchOptions& options) {
  const bool cross = cross_framework(npu, bench);
  const bool mapped = options.data_mapping != nullptr || options.cell_mapping != nullptr;
  MatchResult out;
  out.bench_of = options.fuzzy && !mapped ? fuzzy_pairs(npu, bench, options, cross)
                                          : exact_pairs(npu, bench, options, cross);
  std::vector<bool> taken(bench.rows.size(), false);
  for (std::size_t i = 0; i < out.bench_of.size(); ++i) {
    auto& partner = out.bench_of[i];
    if (!partner) continue;
    if (options.data_mapping == nullptr && !dtypes_pair(npu.rows[i].dtype, bench.rows[*partner].dtype, cross)) {
      partner.reset();
      continue;
    }
    taken[*partner] = true;
  }
  for (std::uint32_t j = 0; j < bench.rows.size(); ++j)
    if (!taken[j]) out.bench_only.push_back(j);
  return out;
}

}  // namespace msdump::compare
