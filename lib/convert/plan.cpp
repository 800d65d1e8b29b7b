#include "convert/plan.h"

#include <filesystem>
#include <fmt/format.h>

#include "dump/dump_paths.h"
#include "dump/entry_name.h"

namespace msdump::convert {

namespace fs = std::filesystem;

namespace {

bool level_narrows(Level input, Level wanted) { return input == wanted || input == Level::mix; }

// msprobe applies risk_level to PyTorch API hooks only, and not at all when scope or list is
// configured. A capture that records every call (header risk_level) gets the default FOCUS.
Result<std::optional<RiskLevel>> risk_filter(const ConvertOptions& o, Framework framework, Level level,
                                             std::optional<RiskLevel> recorded) {
  if (framework != Framework::pytorch || level == Level::L0 || !o.list.empty() || !o.scope.empty())
    return std::optional<RiskLevel>{};
  if (!recorded) return o.risk_level;
  const RiskLevel wanted = o.risk_level.value_or(RiskLevel::focus);
  if (!risk_narrows(*recorded, wanted))
    return invalid_input(fmt::format("cannot convert a capture recorded at risk level {} to risk level {}: "
                                     "those calls were not recorded",
                                     to_string(*recorded), to_string(wanted)));
  return wanted == *recorded ? std::optional<RiskLevel>{} : std::optional<RiskLevel>{wanted};
}

}  // namespace


// msprobe's "list" (BaseScope.check_api_list, MixRangeScope): a name is kept when a list item
// is a substring of it; at level mix a module that matches also keeps everything executed
// inside it (its construct.json descendants).
bool kept_by_list(std::string_view name, const Plan& plan, const dump::ConstructModel& construct) {
  if (plan.list.empty()) return true;
  for (const auto& item : plan.list)
    if (name.find(item) != std::string::npos) return true;
  if (plan.level != Level::mix) return false;
  std::string cur(name);
  for (std::size_t hops = 0; hops <= construct.size(); ++hops) {
    auto parent = construct.parent_of(cur);
    if (!parent) return false;
    for (const auto& item : plan.list)
      if (parent->find(item) != std::string::npos && dump::parse_entry_name(*parent).is_module()) return true;
    cur = std::move(*parent);
  }
  return false;
}

bool is_input_section(std::string_view key) { return key == "input_args" || key == "input_kwargs"; }

bool kept_by_level(const std::string& name, Level level) {
  return dump::level_includes(level, dump::parse_entry_name(name));
}

// construct.json keeps at L0 only module/cell nodes (docs/format.md §8.2); L1 records nothing.
bool construct_key_kept(const std::string& key, Level level) {
  if (level == Level::L1) return false;
  if (key == dump::k_megatron_key || level == Level::mix) return true;
  return dump::parse_entry_name(key).is_module();
}

std::string join_path(const std::string& a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string s = a;
  if (s.back() != '/') s += '/';
  s += b;
  return s;
}

// dump_data_dir as msprobe writes it (docs/format.md §2): <dump_path>/dump_tensor_data, the
// dump_path as given for PyTorch, made absolute (os.path.abspath) first by the MindSpore side,
// which writes MindSpore and MSAdapter (mindtorch) dumps.
std::string dump_data_dir_for(Framework framework, const std::string& dump_path) {
  std::string base = dump_path;
  if (framework != Framework::pytorch) {
    std::error_code ec;
    const auto abs = fs::absolute(dump_path, ec).lexically_normal().string();
    if (!ec) base = abs.size() > 1 && abs.back() == '/' ? abs.substr(0, abs.size() - 1) : abs;
  }
  return join_path(base, dump::k_tensor_dir);
}

Result<Plan> make_plan(const ConvertOptions& o, InputKind kind, Framework framework, Level input_level,
                       Task input_task, SummaryMode input_mode, Profile detected_profile,
                       std::optional<RiskLevel> recorded_risk) {
  Plan p;
  p.input_kind = kind;
  p.framework = framework;
  p.input_level = input_level;
  p.level = o.level.value_or(input_level);
  if (!level_narrows(input_level, p.level))
    return invalid_input(fmt::format("cannot convert a level {} input to level {}: those entries were not recorded",
                                     to_string(input_level), to_string(p.level)));
  p.task = o.task.value_or(input_task);
  if (p.task == Task::structure) return unsupported("task structure is not produced by convert");
  p.summary_mode = o.summary_mode.value_or(input_mode);
  if (p.summary_mode == SummaryMode::xor_checksum && framework != Framework::pytorch)
    return invalid_input("summary mode xor exists only for PyTorch dumps");
  p.profile = o.profile.value_or(detected_profile);
  auto dm = DataMode::parse(o.data_mode);
  if (!dm) return dm.error();
  p.data_mode = *dm;
  p.list = o.list;
  auto scope = ScopeFilter::create(o.scope, p.level);
  if (!scope) return scope.error();
  p.scope = std::move(*scope);
  auto risk = risk_filter(o, framework, p.level, recorded_risk);
  if (!risk) return risk.error();
  p.risk = *risk;
  if (kind == InputKind::msprobe_dump && p.scope.active() && p.level != Level::L1)
    return invalid_input(
        "scope on an msprobe dump works at level L1 only (API names): a dump does not record when modules "
        "begin and end; convert the capture, or use --level L1");
  return p;
}

LeafContext leaf_context(const Plan& plan, const ConvertOptions& o, const std::string& out, std::string source_dir,
                         std::string input_file) {
  LeafContext c;
  static_cast<LeafForm&>(c) = plan;
  c.precision = o.precision;
  c.source_dir = std::move(source_dir);
  c.tensor_out = join_path(out, dump::k_tensor_dir);
  c.input_file = std::move(input_file);
  c.overwrite = o.overwrite;
  c.threads = o.threads;
  return c;
}

dump::DumpHeader dump_header(const Plan& plan) {
  return dump::DumpHeader{std::string(to_string(plan.task)), std::string(to_string(plan.level)),
                          std::string(to_string(plan.framework)),
                          plan.task == Task::tensor ? plan.dump_data_dir : std::nullopt};
}

}  // namespace msdump::convert
