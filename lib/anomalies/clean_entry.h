#pragma once
// Whether an entry's text alone shows that scanning it (entry_scan.h) would find nothing, so
// that the parallel pass can skip building its tree: most entries of a dump hold no NaN or Inf,
// and checking their text costs far less than parsing it (docs/performance.md "Anomalies:
// entries with nothing to report, told from their text, in blocks").
//
// An entry is clean when its text is valid JSON in the plain form (pyjson/plain_scanner.h; what
// parse_json accepts) and holds
//   - no NaN, Infinity or -Infinity,
//   - no number whose magnitude could reach 1e308 (one that would read as an infinity), nor an
//     integer of more than 18 digits,
//   - no number under a "Max" or "Min" key whose magnitude reaches the smallest overflow-risk
//     threshold (float16's largest value times --overflow-fraction).
// Everything scan_entry reports without tensor files follows from one of these (a non-finite
// Max/Min/Mean/Norm or value, or a Max/Min at the limit), so for a clean entry it reports
// nothing. The rule errs one way only: an entry that is not clean is scanned in full, which
// decides. With tensor files the scan reads them, so no entry is clean.

#include <cstdint>
#include <string_view>
#include <vector>

#include "pyjson/plain_scanner.h"  // (NumberText)

namespace msdump::anomalies {

class CleanEntryRule {
 public:
  // `overflow_fraction` as in ScanOptions: the limit is float16's largest value times it (the
  // smallest magnitude an overflow risk can have; bfloat16's limit is larger).
  explicit CleanEntryRule(double overflow_fraction);
  bool clean(std::string_view entry_text) const;
  // The same for the value at p (whitespace before it skipped) in text that may go on after
  // it: past its end when it is clean, else nullptr (also when it does not end before `end`).
  const char* clean_value(const char* p, const char* end) const;

  // A number token of a clean value: [begin, end) offsets from the value's start, and whether
  // it stands under a "Max" or "Min" key (the last key before it).
  struct Token {
    std::uint32_t begin = 0, end = 0;
    bool stat = false;
  };
  // clean_value, also giving the value's number tokens (`tokens` cleared first; complete only
  // when the value is clean).
  const char* clean_value(const char* p, const char* end, std::vector<Token>& tokens) const;
  // Whether number token `n` leaves a value clean, standing under a "Max" or "Min" key or not.
  bool clean_number(const pyjson::NumberText& n, bool stat) const;

 private:
  double m_limit;
  int m_limit_decades;  // the smallest B with 10^B > m_limit
};

}  // namespace msdump::anomalies
