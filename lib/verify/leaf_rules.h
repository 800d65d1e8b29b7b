#pragma once
// Self-consistency of one tensor leaf (docs/format.md §5, §6, §15 "consistency"): the dtype
// string belongs to the framework, and the statistics fit dtype, shape and the profile's rules
// (empty: null; bool: booleans and null Mean/Norm; 0-dim: four equal values; current PyTorch
// integers and float64: null Mean/Norm; Min <= Mean <= Max and Norm >= 0 where finite;
// half-precision values representable in their dtype; ...).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/profile.h"
#include "pyjson/json_value.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

struct LeafRules {
  Framework framework = Framework::pytorch;
  // nullopt: not known yet (verify --profile auto): a leaf whose rules depend on the profile
  // (PyTorch integer, float64 and float8 statistics) is held to the profile its own form
  // points to, and that form is reported as a signal (dump/format_signals.h).
  std::optional<Profile> profile = Profile::current;
};

// The members of a tensor leaf that the checks read, found in one pass (the last of duplicate
// keys wins, as in Value::find); find() answers other keys from the leaf itself.
class LeafView {
 public:
  explicit LeafView(const pyjson::Value& leaf);
  // A leaf given by the members check_tensor_leaf reads, with no object around them (verify's
  // checked shapes, checked_shapes.h): `shape` holds the items of its shape array (nullopt: no
  // shape array); `stats` are Max, Min, Mean and Norm (nullptr: absent). find() answers these
  // keys only, and value() must not be called.
  LeafView(const pyjson::Value* dtype, std::optional<std::span<const pyjson::Value>> shape,
           const std::array<const pyjson::Value*, 4>& stats);
  const pyjson::Value* find(std::string_view key) const;
  const pyjson::Value& value() const { return *m_leaf; }
  // The items of the shape member, when it is an array.
  std::optional<std::span<const pyjson::Value>> shape_items() const { return m_shape_items; }

 private:
  const pyjson::Value* m_leaf = nullptr;
  std::optional<std::span<const pyjson::Value>> m_shape_items;
  const pyjson::Value *m_type = nullptr, *m_dtype = nullptr, *m_shape = nullptr, *m_max = nullptr, *m_min = nullptr,
                      *m_mean = nullptr, *m_norm = nullptr, *m_data_name = nullptr, *m_md5 = nullptr;
};

// The same as check_tensor_leaf below, for a leaf already seen through a LeafView; adds the
// leaf's profile signals (dump::ProfileSignal) to *signals when not null.
void check_tensor_leaf(const LeafView& leaf, bool ndarray, const LeafRules& rules, const std::string& entry,
                       const std::string& pointer, FindingSink& sink, std::uint32_t* signals = nullptr);

// Checks the leaf at `pointer` of entry `entry`; `ndarray` for numpy.ndarray leaves (numpy's
// rules: no dtype-family or profile checks, only order and emptiness).
void check_tensor_leaf(const pyjson::Value& leaf, bool ndarray, const LeafRules& rules, const std::string& entry,
                       const std::string& pointer, FindingSink& sink);

// A number as a double: ints and floats; nullopt for anything else.
std::optional<double> number_of(const pyjson::Value* v);

// The JSON text of a value for expected/actual fields ("null", "2.0", "\"x\"").
std::string json_text(const pyjson::Value* v);

}  // namespace msdump::verify
