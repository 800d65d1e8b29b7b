#include "verify/finding_sink.h"

#include <algorithm>

namespace msdump::verify {

void FindingSink::add(Finding f) {
  if (f.severity == Severity::error &&
      std::find(m_warn_only.begin(), m_warn_only.end(), f.kind) != m_warn_only.end())
    f.severity = Severity::warning;
  if (f.file.empty()) f.file = m_file;
  if (f.line == 0) f.line = m_line;
  if (f.severity == Severity::error) ++m_errors;
  else if (f.severity == Severity::warning) ++m_warnings;
  ++m_by_kind[std::string(to_string(f.kind))];
  if (m_max != 0 && m_findings.size() >= m_max) {
    ++m_dropped;
    return;
  }
  m_findings.push_back(std::move(f));
}

void FindingSink::add(FindingKind kind, std::string entry, std::string pointer, std::string message,
                      std::string expected, std::string actual, Severity severity) {
  Finding f;
  f.severity = severity;
  f.kind = kind;
  f.entry = std::move(entry);
  f.pointer = std::move(pointer);
  f.message = std::move(message);
  f.expected = std::move(expected);
  f.actual = std::move(actual);
  add(std::move(f));
}

}  // namespace msdump::verify
