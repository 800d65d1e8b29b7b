#pragma once
// msprobe's data_mode filter (docs/format.md §4.4, base.py::_get_allowed_data_mode): which
// sections of an entry are written.

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "dump/entry_name.h"

namespace msdump::convert {

class DataMode {
 public:
  // From config values ⊆ {all, forward, backward, input, output}; "all" must be alone; empty
  // means all. Fails on unknown words.
  static Result<DataMode> parse(const std::vector<std::string>& values);
  static DataMode all() { return DataMode{}; }

  // Whether `section` of an entry of kind `kind` survives. parameters_grad sections always do;
  // unknown sections follow the entry's direction.
  bool keeps_section(dump::EntryKind kind, std::string_view section) const;
  // parameters_grad hooks are not registered when forward is asked without backward.
  bool keeps_parameters_grad() const { return m_backward || !m_forward_given_without_backward; }
  bool is_all() const { return m_forward && m_backward && m_input && m_output; }

 private:
  bool m_forward = true, m_backward = true, m_input = true, m_output = true;
  bool m_forward_given_without_backward = false;
};

}  // namespace msdump::convert
