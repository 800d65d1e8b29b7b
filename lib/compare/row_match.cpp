#include "compare/row_match.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <limits>
#include <unordered_map>
#include <utility>

#include "dump/entry_name.h"
#include "dump/match_key.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

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
    std::string out;
    key_into(name, entry_hint, out);
    return out;
  }
  // The same into `out` (reused: no allocation once it has grown).
  void key_into(std::string_view name, std::string_view entry_hint, std::string& out) { out.assign(key_view(name, entry_hint, out)); }
  // The key: `name` itself when its entry is its own key (not a backward entry), else built
  // into `out`.
  std::string_view key_view(std::string_view name, std::string_view entry_hint, std::string& out) {
    const auto length = entry_length(name, entry_hint);
    if (length == std::string_view::npos) return name;
    const auto entry = name.substr(0, length);
    // The rows of one entry come one after the other: the last entry's key is the usual answer.
    if (!m_has_last || m_last_entry != entry) {
      m_last_entry.assign(entry);
      m_last_is_entry = !backward(entry);
      if (!m_last_is_entry) m_last = backward_key(entry);
      m_has_last = true;
    }
    if (m_last_is_entry) return name;
    out.assign(m_last);
    out += name.substr(length);
    return out;
  }

 private:
  // (A name without the word cannot be a backward entry: its grammar has a "backward" component.)
  static bool backward(std::string_view entry) {
    return entry.find("backward") != std::string_view::npos && dump::parse_entry_name(entry).is_backward();
  }
  // A forward entry is its own key; a backward entry's key counts it among its operator's
  // backward calls, once: kept by the entry's 128-bit hash (backward entries only, so the memory
  // grows with them alone).
  const std::string& backward_key(std::string_view entry) {
    auto [it, fresh] = m_backward_key.try_emplace(hash_key(entry));
    if (fresh) it->second = m_keys.key(entry);
    return it->second;
  }

  bool m_has_last = false;
  bool m_last_is_entry = false;  // the last entry is its own key (m_last unused)
  std::string m_last_entry, m_last;
  dump::MatchKeys m_keys;
  std::unordered_map<KeyHash, std::string, KeyHashHasher> m_backward_key;
};

std::string_view entry_of(const DumpRows& rows, const Row& row) {
  return row.entry < rows.entries.size() ? std::string_view(rows.entries[row.entry]) : std::string_view();
}

// The name an NPU row named `row_name` pairs by under the mappings; nullopt: unmatchable.
std::optional<std::string> npu_name_for(std::string_view row_name, std::string_view entry, const MatchOptions& options, bool cross) {
  std::string name(row_name);
  if (options.data_mapping != nullptr) {
    const auto& m = options.data_mapping->bench_of;
    if (auto it = m.find(name); it != m.end()) return it->second;
  }
  if (options.api_mapping != nullptr && cross) {
    name = api_mapped_name(name, entry, *options.api_mapping);
    if (name.empty()) return std::nullopt;
  }
  if (options.cell_mapping != nullptr) {
    name = cell_mapped_name(name, *options.cell_mapping);
    if (name.empty()) return std::nullopt;
  }
  return name;
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

std::uint64_t hash_bytes(std::string_view s, std::uint64_t seed) { return XXH3_64bits_withSeed(s.data(), s.size(), seed); }

KeyHash hash_key(std::string_view key) {
  const XXH128_hash_t x = XXH3_128bits(key.data(), key.size());
  KeyHash h{x.high64, x.low64};
  if (h == k_no_key) h.lo = 1;
  return h;
}

struct RowKeyer::State {
  RowKeys keys;
  std::string key;  // hashed()'s key text, reused
};

RowKeyer::RowKeyer(bool npu_side, const MatchOptions& options, bool cross)
    : m_npu(npu_side), m_options(options), m_cross(cross),
      m_fuzzy(fuzzy_pairing(options)),
      m_state(std::make_unique<State>()) {}
RowKeyer::~RowKeyer() = default;
RowKeyer::RowKeyer(RowKeyer&&) noexcept = default;

bool RowKeyer::renames() const {
  const bool mapped = m_options.data_mapping != nullptr || m_options.cell_mapping != nullptr ||
                      (m_options.api_mapping != nullptr && m_cross);
  return m_npu && mapped;
}

std::optional<std::string> RowKeyer::key(std::string_view row_name, std::string_view entry) {
  std::string name(row_name);
  std::string_view hint = entry;
  if (m_npu) {
    auto mapped = npu_name_for(row_name, entry, m_options, m_cross);
    if (!mapped) return std::nullopt;
    if (*mapped != row_name) hint = {};
    name = std::move(*mapped);
  }
  if (m_fuzzy) return fuzzy_key(name);
  return m_state->keys.key(name, hint);
}

void RowKeyer::begin_entry(std::string_view entry) {
  if (m_fuzzy || renames()) return;
  m_state->keys.key_view(entry, entry, m_state->key);
}

KeyHash RowKeyer::hashed(std::string_view row_name, std::string_view entry) {
  if (!m_fuzzy && !renames())  // (key() without its copies of the name)
    return hash_key(m_state->keys.key_view(row_name, entry, m_state->key));
  auto k = key(row_name, entry);
  return k ? hash_key(*k) : k_no_key;
}

namespace {
constexpr std::uint32_t k_taken = std::uint32_t{1} << 31;  // rows are fewer than 2^31
bool key_less(const KeyHash& a, const KeyHash& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }
}  // namespace

SortedKeys sort_keys(std::vector<KeyHash> bench) {
  SortedKeys s;
  std::size_t kept = 0;
  for (std::uint32_t i = 0; i < bench.size(); ++i)
    if (bench[i] != k_no_key) bench[kept++] = {bench[i].hi, (bench[i].lo & SortedKeys::k_key_bits) | i};
  bench.resize(kept);
  s.keyed = std::move(bench);
  // By key, then row (the low bits).
  std::sort(s.keyed.begin(), s.keyed.end(), [](const KeyHash& a, const KeyHash& b) { return key_less(a, b); });
  // About one key a bucket: 2^bits >= the keys.
  const int bits = std::max(1, static_cast<int>(std::bit_width(s.keyed.size())));
  s.shift = 64 - bits;
  s.bucket.assign((std::size_t{1} << bits) + 1, 0);
  std::size_t at = 0;
  for (std::size_t b = 0; b + 1 < s.bucket.size(); ++b) {
    while (at < s.keyed.size() && (s.keyed[at].hi >> s.shift) < b) ++at;
    s.bucket[b] = static_cast<std::uint32_t>(at);
  }
  s.bucket.back() = static_cast<std::uint32_t>(s.keyed.size());
  return s;
}

std::vector<std::optional<std::uint32_t>> pair_sorted(const std::vector<KeyHash>& npu, SortedKeys& bench) {
  // A key of one bench row pairs it with every NPU row of the key (several may, under a data
  // mapping); a key of several pairs them in order, past the taken ones.
  constexpr std::uint64_t k_bits = SortedKeys::k_key_bits;
  const auto key_of = [](const KeyHash& k) { return KeyHash{k.hi, k.lo & k_bits}; };
  const auto row_of = [](const KeyHash& k) { return static_cast<std::uint32_t>(k.lo) & ~k_taken; };
  std::vector<std::optional<std::uint32_t>> out(npu.size());
  const auto end = bench.keyed.end();
  for (std::size_t i = 0; i < npu.size(); ++i) {
    if (npu[i] == k_no_key) continue;
    const KeyHash k = key_of(npu[i]);
    const auto b = k.hi >> bench.shift;
    auto it = std::lower_bound(bench.keyed.begin() + bench.bucket[b], bench.keyed.begin() + bench.bucket[b + 1], k,
                               [&](const KeyHash& a, const KeyHash& key) { return key_less(key_of(a), key); });
    if (it == end || key_of(*it) != k) continue;
    const bool alone = it + 1 == end || key_of(it[1]) != k;
    if (alone) {
      out[i] = row_of(*it);
      continue;
    }
    while (it != end && key_of(*it) == k && (it->lo & k_taken) != 0) ++it;
    if (it == end || key_of(*it) != k) continue;  // more NPU rows than bench rows
    out[i] = row_of(*it);
    it->lo |= k_taken;
  }
  return out;
}

std::vector<std::optional<std::uint32_t>> pair_hashed(const std::vector<KeyHash>& npu, const std::vector<KeyHash>& bench,
                                                      bool fuzzy) {
  if (!fuzzy) {
    auto sorted = sort_keys(bench);
    return pair_sorted(npu, sorted);
  }
  std::unordered_map<KeyHash, std::uint32_t, KeyHashHasher> ids;
  auto id_of = [&](const KeyHash& h) {
    if (h == k_no_key) return k_never;
    return ids.emplace(h, static_cast<std::uint32_t>(ids.size())).first->second;
  };
  std::vector<std::uint32_t> n(npu.size()), b(bench.size());
  for (std::size_t i = 0; i < npu.size(); ++i) n[i] = id_of(npu[i]);
  for (std::size_t i = 0; i < bench.size(); ++i) b[i] = id_of(bench[i]);
  return queue_pairs(n, b, ids.size());
}

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

bool cross_framework(std::string_view npu_framework, std::string_view bench_framework) {
  return (npu_framework == "mindspore" || npu_framework == "mindtorch") && bench_framework == "pytorch";
}

bool cross_framework(const DumpRows& npu, const DumpRows& bench) { return cross_framework(npu.framework, bench.framework); }

MatchResult match_rows(const DumpRows& npu, const DumpRows& bench, const MatchOptions& options) {
  const bool cross = cross_framework(npu, bench);
  MatchResult out;
  RowKeyer npu_keys(true, options, cross), bench_keys(false, options, cross);
  const auto keyed = [](const DumpRows& side, RowKeyer& keyer) {
    std::vector<KeyHash> keys(side.rows.size());
    std::size_t next_entry = 0;
    for (std::size_t i = 0; i < side.rows.size(); ++i) {
      // Entries up to this row's, rowless ones included, counted in file order.
      for (; next_entry <= side.rows[i].entry && next_entry < side.entries.size(); ++next_entry)
        keyer.begin_entry(side.entries[next_entry]);
      keys[i] = keyer.hashed(side.rows[i].name, entry_of(side, side.rows[i]));
    }
    return keys;
  };
  const std::vector<KeyHash> n = keyed(npu, npu_keys), b = keyed(bench, bench_keys);
  out.bench_of = pair_hashed(n, b, fuzzy_pairing(options));
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
