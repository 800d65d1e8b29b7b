#pragma once
// msprobe's tensor file naming (docs/format.md §7, base.py::get_save_file_path):
//   <entry>.<category>[.<path>]<ext>
// category: forward input_args -> "input", input_kwargs -> "kwargs", output -> "output",
// parameters -> "parameters"; backward input -> "input", output -> "output". <path> joins list
// indices and object keys inside the section with "."; parameters_grad files are
// "<entry>.<param>" + ext, whether the entry name has its counter or not (older msprobe:
// "Module.fc.Linear.parameters_grad.weight.pt"). ext is ".pt" for PyTorch and ".npy" for MindSpore and mindtorch.

#include <string>
#include <string_view>
#include <vector>

#include "core/profile.h"

namespace msdump::dump {

// The category word for a section key, or "" when the section holds no tensors of its own
// ("is_recompute", unknown keys).
std::string_view data_name_category(std::string_view section, bool is_parameters_grad);

std::string_view tensor_file_extension(Framework framework);  // ".pt" or ".npy"

// Whether a data_name can be used as a file name inside dump_tensor_data/: not empty, not "."
// or "..", no '/' and no NUL, so it can never leave that directory.
bool is_plain_file_name(std::string_view name);

// Builds a data_name. `path` holds the index/key components below the section. For
// parameters_grad entries `section` is the parameter name and `path` is ignored (msprobe drops
// the one-element list index).
std::string make_data_name(std::string_view entry, std::string_view section,
                           const std::vector<std::string>& path, bool is_parameters_grad,
                           Framework framework);

}  // namespace msdump::dump
