#pragma once
// FindingSink: where checks put their findings. Applies --warn-only (kinds downgraded to
// warnings) and --max-findings (further findings are counted, not kept), and keeps the counts
// the summary line needs.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "verify/finding.h"

namespace msdump::verify {

class FindingSink {
 public:
  FindingSink(std::vector<FindingKind> warn_only, std::size_t max_findings)
      : m_warn_only(std::move(warn_only)), m_max(max_findings) {}

  void add(Finding f);
  // Shorthand for the common case.
  void add(FindingKind kind, std::string entry, std::string pointer, std::string message, std::string expected = {},
           std::string actual = {}, Severity severity = Severity::error);
  // File and line applied to findings added from now on that carry none.
  void set_location(std::string file, std::uint64_t line) {
    m_file = std::move(file);
    m_line = line;
  }

  // The line only (the file stays): no string copy per entry.
  void set_line(std::uint64_t line) { m_line = line; }

  std::vector<Finding>& findings() { return m_findings; }
  std::uint64_t errors() const { return m_errors; }
  std::uint64_t warnings() const { return m_warnings; }
  std::uint64_t dropped() const { return m_dropped; }
  const std::map<std::string, std::uint64_t>& by_kind() const { return m_by_kind; }

 private:
  std::vector<FindingKind> m_warn_only;
  std::size_t m_max;
  std::vector<Finding> m_findings;
  std::uint64_t m_errors = 0, m_warnings = 0, m_dropped = 0;
  std::map<std::string, std::uint64_t> m_by_kind;
  std::string m_file;
  std::uint64_t m_line = 0;
};

}  // namespace msdump::verify
