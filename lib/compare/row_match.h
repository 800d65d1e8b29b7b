#pragma once
// Pairing NPU rows with bench rows (docs/compare.md "Matching rows"). Every mode gives each NPU row at
// most one bench row; the table keeps NPU order and shows bench rows only through their partner.
//   exact (default)  key = the row name with its entry replaced by the entry's match key
//                    (dump::MatchKeys: backward counters become backward order), on both sides;
//                    an NPU row takes the bench row with its key (several NPU rows may take one,
//                    as a data mapping of several names to one does). Where several bench rows
//                    share a key (msprobe names the items of a parameters_grad list alike), the
//                    k-th NPU row of the key takes the k-th and NPU rows beyond them stay
//                    unpaired; msprobe joins them all against all.
//   fuzzy            counter-blind keys (a row's text before its first `forward`/`backward`
//                    loses its last dotted component: `Tensor.__mul__.3.forward.input.0` ->
//                    `Tensor.__mul__.forward.input.0`) paired by msprobe's sequential queue
//                    algorithm, in every table mode (msprobe pairs this way in tensor mode only;
//                    its statistics and md5 fuzzy tables are broken). No backward renumbering.
//   mappings         NPU row names are first renamed: by the data mapping (exact row names),
//                    else the API mapping (cross-framework dumps only) and the cell mapping;
//                    then both sides get the same backward renumbering and are paired as in
//                    exact mode (msprobe renumbers the bench side only, mis-pairing backward
//                    rows). A row a mapping makes unmatchable stays unpaired. A data or cell
//                    mapping takes precedence over fuzzy.
// Then the dtype gate: a pair with different Dtype texts becomes unpaired unless both are in
// {torch.float16, torch.float32, torch.bfloat16} or both in {Float16, Float32, BFloat16}; when
// the NPU dump is MindSpore/mindtorch and the bench PyTorch, dtypes are compared by family (int,
// float, bool, complex). A data mapping turns the gate off.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/api_mapping.h"
#include "compare/dump_rows.h"
#include "compare/name_mapping.h"

namespace msdump::compare {

struct MatchOptions {
  bool fuzzy = false;
  const DataMapping* data_mapping = nullptr;
  const CellMapping* cell_mapping = nullptr;
  const ApiMapping* api_mapping = nullptr;  // used for a MindSpore/mindtorch NPU against PyTorch
};

// --fuzzy pairs by msprobe's queue algorithm, unless a data or cell mapping is given: mapped
// names pair exactly.
inline bool fuzzy_pairing(const MatchOptions& o) { return o.fuzzy && o.data_mapping == nullptr && o.cell_mapping == nullptr; }

struct MatchResult {
  std::vector<std::optional<std::uint32_t>> bench_of;  // per NPU row: its bench row after the dtype gate
  std::vector<std::uint32_t> bench_only;               // bench rows no NPU row took, in bench order
};

MatchResult match_rows(const DumpRows& npu, const DumpRows& bench, const MatchOptions& options);

// The pieces match_rows is made of, for a caller that streams a dump instead of holding its rows
// (compare_pair.cpp): each side's keys derived row by row in file order, kept as 128-bit hashes,
// then paired.
struct KeyHash {
  std::uint64_t hi = 0, lo = 0;
  bool operator==(const KeyHash&) const = default;
};
inline constexpr KeyHash k_no_key{};  // a row that pairs with nothing
struct KeyHashHasher {
  std::size_t operator()(const KeyHash& h) const { return static_cast<std::size_t>(h.hi); }
};
KeyHash hash_key(std::string_view key);
// A 64-bit hash of `bytes` under `seed` (one half of hash_key).
std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed);

class RowKeyer {
 public:
  // `npu_side`: the mappings of `options` apply; `cross`: a cross-framework pair.
  RowKeyer(bool npu_side, const MatchOptions& options, bool cross);
  ~RowKeyer();
  RowKeyer(RowKeyer&&) noexcept;
  // The key of the row named `row_name` of entry `entry` (rows fed in file order: backward
  // call counters are renumbered by order of appearance); nullopt: a mapping makes it
  // unmatchable.
  std::optional<std::string> key(std::string_view row_name, std::string_view entry);
  KeyHash hashed(std::string_view row_name, std::string_view entry);
  // Counts entry `entry` in the backward order before its rows are keyed, also when it has no
  // rows (msprobe counts every entry with a direction). On the NPU side under a mapping nothing
  // is counted here: mapped names are counted as they come.
  void begin_entry(std::string_view entry);

 private:
  bool renames() const;  // the NPU side under a mapping: rows pair by mapped names
  struct State;
  bool m_npu;
  MatchOptions m_options;
  bool m_cross;
  bool m_fuzzy;
  std::unique_ptr<State> m_state;
};

// Pairs by hashed keys: exact, as above (a key's bench row, or its k-th of several); fuzzy,
// msprobe's queue algorithm. No dtype gate.
std::vector<std::optional<std::uint32_t>> pair_hashed(const std::vector<KeyHash>& npu, const std::vector<KeyHash>& bench,
                                                      bool fuzzy);

// Exact pairing in two steps, so the first can run on the thread that indexed the bench side:
// the bench keys sorted with their rows, and a bucket table on the top bits of the hashes (keys
// are hashes, so buckets fill evenly: a lookup reads one bucket, not a binary search's ~log2(n)
// cache lines); then the NPU keys looked up in order. pair_sorted marks the bench rows it
// takes in `bench`, so it runs once per SortedKeys.
struct SortedKeys {
  // Each bench row's key with its row in the low 32 bits (bit 31: taken by a key's earlier NPU
  // row, when several bench rows have the key): 16 bytes a row, made in place in the keys' own
  // vector. Keys compare on their other 96 bits (k_key_bits), which for hashes of at most 2^31
  // rows is as good as all 128.
  std::vector<KeyHash> keyed;
  std::vector<std::uint32_t> bucket;  // bucket[b]: the first of `keyed` whose hi >> shift >= b
  int shift = 63;
  static constexpr std::uint64_t k_key_bits = ~std::uint64_t{0xffffffff};  // of KeyHash::lo
};
SortedKeys sort_keys(std::vector<KeyHash> bench);
std::vector<std::optional<std::uint32_t>> pair_sorted(const std::vector<KeyHash>& npu, SortedKeys& bench);

// The fuzzy key of a row name (see above); names without `forward`/`backward` are kept.
std::string fuzzy_key(std::string_view row_name);

// Whether NPU dtype text `npu` may pair with bench dtype text `bench` (the dtype gate);
// `cross_framework`: compared by family.
bool dtypes_pair(std::string_view npu, std::string_view bench, bool cross_framework);

// Whether a pair of dumps is a cross-framework one (NPU MindSpore/mindtorch, bench PyTorch).
bool cross_framework(const DumpRows& npu, const DumpRows& bench);
bool cross_framework(std::string_view npu_framework, std::string_view bench_framework);

}  // namespace msdump::compare
