#pragma once
// Plan: everything a conversion decides before the first entry is written (what the options
// ask of this input), and the name filters and paths both kinds of input share.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convert/convert.h"
#include "convert/data_mode.h"
#include "convert/leaf_converter.h"
#include "convert/risk_level.h"
#include "convert/scope_filter.h"
#include "core/result.h"
#include "dump/construct_model.h"
#include "dump/dump_writer.h"

namespace msdump::convert {

struct Plan : LeafForm {
  Level input_level = Level::mix;
  Level level = Level::mix;
  DataMode data_mode;
  std::vector<std::string> list;
  ScopeFilter scope;
  std::optional<RiskLevel> risk;  // the risk filter to apply, if any
  std::optional<std::string> dump_data_dir;

  bool kept_by_risk(std::string_view name) const { return !risk || risk_keeps(*risk, name); }
};

// The plan for an input of these properties, or why the options cannot apply to it.
Result<Plan> make_plan(const ConvertOptions& o, InputKind kind, Framework framework, Level input_level,
                       Task input_task, SummaryMode input_mode, Profile detected_profile,
                       std::optional<RiskLevel> recorded_risk = std::nullopt);

// msprobe's "list" filter (see plan.cpp).
bool kept_by_list(std::string_view name, const Plan& plan, const dump::ConstructModel& construct);
bool kept_by_level(const std::string& name, Level level);
bool is_input_section(std::string_view key);  // input_args, input_kwargs
// Whether construct.json keeps `key` at `level`.
bool construct_key_kept(const std::string& key, Level level);

std::string join_path(const std::string& a, std::string_view b);
// dump_data_dir as msprobe writes it for a dump written to `dump_path`.
std::string dump_data_dir_for(Framework framework, const std::string& dump_path);

LeafContext leaf_context(const Plan& plan, const ConvertOptions& o, const std::string& out, std::string source_dir,
                         std::string input_file);
dump::DumpHeader dump_header(const Plan& plan);

}  // namespace msdump::convert
