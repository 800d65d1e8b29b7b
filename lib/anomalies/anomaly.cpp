#include "anomalies/anomaly.h"

namespace msdump::anomalies {

std::string_view to_string(Role r) {
  switch (r) {
    case Role::origin: return "origin";
    case Role::propagated: return "propagated";
    case Role::argument: return "argument";
    case Role::stat_overflow: return "stat-overflow";
    case Role::overflow_risk: return "overflow-risk";
  }
  return "origin";
}

Severity severity_of(Role r) {
  if (r == Role::origin) return Severity::error;
  if (r == Role::argument) return Severity::info;
  return Severity::warning;
}

std::string_view to_string(Severity s) {
  return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "info";
}

}  // namespace msdump::anomalies
