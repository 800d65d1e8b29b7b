#include "convert/data_mode.h"

#include <fmt/format.h>

namespace msdump::convert {

Result<DataMode> DataMode::parse(const std::vector<std::string>& values) {
  DataMode m;
  if (values.empty()) return m;
  bool fwd = false, bwd = false, in = false, out = false, all = false;
  for (const auto& v : values) {
    if (v == "all") all = true;
    else if (v == "forward") fwd = true;
    else if (v == "backward") bwd = true;
    else if (v == "input") in = true;
    else if (v == "output") out = true;
    else return invalid_input(fmt::format("data_mode: unknown value \"{}\" (expected all, forward, backward, input, output)", v));
  }
  if (all) {
    if (values.size() != 1) return invalid_input("data_mode: \"all\" must be given alone");
    return m;
  }
  // Neither direction given -> both; neither io kind given -> both.
  m.m_forward = fwd || !bwd;
  m.m_backward = bwd || !fwd;
  m.m_input = in || !out;
  m.m_output = out || !in;
  m.m_forward_given_without_backward = fwd && !bwd;
  return m;
}

bool DataMode::keeps_section(dump::EntryKind kind, std::string_view section) const {
  using dump::EntryKind;
  switch (kind) {
    case EntryKind::parameters_grad: return true;
    case EntryKind::api_forward:
    case EntryKind::module_forward:
      if (!m_forward) return false;
      if (section == "input_args" || section == "input_kwargs") return m_input;
      if (section == "output" || section == "parameters") return m_output;
      return true;
    case EntryKind::api_backward:
    case EntryKind::module_backward:
      if (!m_backward) return false;
      if (section == "input") return m_input;
      if (section == "output") return m_output;
      return true;
    case EntryKind::debug:
    case EntryKind::unknown: return true;
  }
  return true;
}

}  // namespace msdump::convert
