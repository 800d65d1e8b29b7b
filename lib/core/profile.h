#pragma once
// The knobs that change what msprobe writes: framework, format profile (docs/format.md §0),
// summary mode and precision. Each enum has one name table used for flags, JSON and reports.

#include <optional>
#include <string_view>

namespace msdump {

enum class Framework { pytorch, mindspore, mindtorch };
// current = msprobe master (2026-08); legacy = released builds up to ~May 2026.
enum class Profile { current, legacy };
enum class SummaryMode { statistics, md5, xor_checksum };
enum class Precision { low, high };
// Which hooks produced the entries: L0 modules/cells, L1 APIs, mix both (docs/format.md §3.6).
enum class Level { L0, L1, mix };
enum class Task { statistics, tensor, structure };
// msprobe's PyTorch risk_level (api_risk_level.py): CORE keeps the core API set, FOCUS (msprobe's
// default) drops the low-risk APIs, ALL keeps every API. Each level keeps a subset of the next.
enum class RiskLevel { core, focus, all };

std::string_view to_string(Framework f);  // "pytorch" | "mindspore" | "mindtorch"
std::string_view to_string(Profile p);    // "current" | "legacy"
std::string_view to_string(SummaryMode m);  // "statistics" | "md5" | "xor"
std::string_view to_string(Precision p);  // "low" | "high"
std::string_view to_string(Level l);      // "L0" | "L1" | "mix"
std::string_view to_string(Task t);       // "statistics" | "tensor" | "structure"
std::string_view to_string(RiskLevel r);  // "CORE" | "FOCUS" | "ALL"

std::optional<Framework> framework_from_string(std::string_view s);
std::optional<Profile> profile_from_string(std::string_view s);
std::optional<SummaryMode> summary_mode_from_string(std::string_view s);
std::optional<Precision> precision_from_string(std::string_view s);
std::optional<Level> level_from_string(std::string_view s);
std::optional<Task> task_from_string(std::string_view s);
std::optional<RiskLevel> risk_level_from_string(std::string_view s);

}  // namespace msdump
