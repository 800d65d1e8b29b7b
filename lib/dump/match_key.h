#pragma once
// The key under which an entry of one dump pairs with an entry of another, shared by verify's
// golden check (--against) and compare: forward and parameters_grad entries keep their names;
// a backward entry's call counter is replaced by its backward order, the number of earlier
// backward entries of the same op in the same dump (op = the name without counter and
// direction: `Functional.linear`, `Module.conv1.Conv2d`). So `Functional.linear.4.backward`,
// the first linear backward of its dump, has key `Functional.linear.0.backward`, and
// `Module.conv1.Conv2d.backward.3`, the second backward of that module, `...Conv2d.backward.1`.
// Recomputed forwards (activation checkpointing) run forward counters ahead of backward ones;
// these keys still pair each backward with its counterpart.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace msdump::dump {

// Assigns match keys to the entries of one dump, which must be given in file order.
class MatchKeys {
 public:
  std::string key(std::string_view entry_name);

 private:
  std::unordered_map<std::string, std::uint64_t> m_backward_seen;
};

}  // namespace msdump::dump
