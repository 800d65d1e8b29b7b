#pragma once
// stack.json and construct.json against dump.json (dump-format.md §8, §15 "Cross-file"):
//   stack.json      grouped (or legacy) format; only forward entries have stacks;
//   construct.json  every forward module entry (and, at level mix, every API entry) of
//                   dump.json is a key; parents are keys, null, "optimizer"/"clip_grad", or
//                   [parent, micro_step] with "megatron_micro_step_number"; level L1: {}.
// Backward module nodes are not required: msprobe records none with torch < 2 (samples/README.md).

#include <string>
#include <unordered_set>
#include <vector>

#include "core/profile.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

struct DumpNames {
  std::unordered_set<std::string> all;   // every entry name of dump.json
  std::vector<std::string> in_order;     // the same, in file order (deterministic reports)
  Level level = Level::mix;
  bool level_known = false;
  // Some forward entry has input_args: data_mode kept forward inputs, so every forward stack
  // must have its entry (msprobe takes stacks at forward input collection).
  bool forward_inputs = false;
};

void check_stack_json(const std::string& path, const DumpNames& names, FindingSink& sink);
void check_construct_json(const std::string& path, const DumpNames& names, FindingSink& sink);

}  // namespace msdump::verify
