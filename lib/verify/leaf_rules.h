#pragma once
// Self-consistency of one tensor leaf (dump-format.md §5, §6, §15 "consistency"): the dtype
// string belongs to the framework, and the statistics fit dtype, shape and the profile's rules
// (empty: null; bool: booleans and null Mean/Norm; 0-dim: four equal values; current PyTorch
// integers and float64: null Mean/Norm; Min <= Mean <= Max and Norm >= 0 where finite;
// half-precision values representable in their dtype; ...).

#include <string>

#include "core/profile.h"
#include "pyjson/json_value.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

struct LeafRules {
  Framework framework = Framework::pytorch;
  Profile profile = Profile::current;
};

// Checks the leaf at `pointer` of entry `entry`; `ndarray` for numpy.ndarray leaves (numpy's
// rules: no dtype-family or profile checks, only order and emptiness).
void check_tensor_leaf(const pyjson::Value& leaf, bool ndarray, const LeafRules& rules, const std::string& entry,
                       const std::string& pointer, FindingSink& sink);

// A number as a double: ints and floats; nullopt for anything else.
std::optional<double> number_of(const pyjson::Value* v);

// The JSON text of a value for expected/actual fields ("null", "2.0", "\"x\"").
std::string json_text(const pyjson::Value* v);

}  // namespace msdump::verify
