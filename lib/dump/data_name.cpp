#include "dump/data_name.h"

namespace msdump::dump {

std::string_view data_name_category(std::string_view section, bool is_parameters_grad) {
  if (is_parameters_grad) return "";
  if (section == "input_args" || section == "input") return "input";
  if (section == "input_kwargs") return "kwargs";
  if (section == "output") return "output";
  if (section == "parameters") return "parameters";
  return "";
}

bool is_plain_file_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

std::string_view tensor_file_extension(Framework framework) {
  return framework == Framework::pytorch ? ".pt" : ".npy";
}

std::string make_data_name(std::string_view entry, std::string_view section,
                           const std::vector<std::string>& path, bool is_parameters_grad,
                           Framework framework) {
  std::string out(entry);
  if (is_parameters_grad) {
    // analyze_params sets save_name = "<entry>.<param>": the one-element list index is not used.
    out += '.';
    out += section;
  } else {
    out += '.';
    out += data_name_category(section, false);
    for (const auto& part : path) {
      out += '.';
      out += part;
    }
  }
  out += tensor_file_extension(framework);
  return out;
}

}  // namespace msdump::dump
