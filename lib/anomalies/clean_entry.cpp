#include "anomalies/clean_entry.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "anomalies/leaf_verdict.h"
#include "pyjson/plain_scanner.h"

namespace msdump::anomalies {
namespace {

constexpr int k_finite_decades = 308;      // 10^308 < DBL_MAX: a smaller magnitude reads as finite
constexpr std::ptrdiff_t k_int64_digits = 18;  // any integer this long fits an int64

// The smallest B with 10^B > limit: a number below 10^B' for B' < B is below the limit.
int decades_above(double limit) {
  if (std::isnan(limit)) return std::numeric_limits<int>::max();  // (nothing reaches a NaN limit)
  if (!(limit > 0)) return std::numeric_limits<int>::min();
  int b = static_cast<int>(std::floor(std::log10(limit)));
  while (std::pow(10.0, b) <= limit) ++b;     // (log10's rounding, either way)
  while (std::pow(10.0, b - 1) > limit) --b;
  return b;
}

// Sees the scan's keys and numbers; stops it at the first thing that is not clean. Lists the
// number tokens in `tokens` when given one.
class CleanWatch {
 public:
  CleanWatch(const CleanEntryRule& rule, const char* base, std::vector<CleanEntryRule::Token>* tokens)
      : m_rule(&rule), m_base(base), m_tokens(tokens) {}

  bool key(std::string_view k) {
    m_stat_key = k == "Max" || k == "Min";
    return true;
  }
  bool non_finite() { return false; }

  bool number(const pyjson::NumberText& n) {
    if (!m_rule->clean_number(n, m_stat_key)) return false;
    if (m_tokens != nullptr)
      m_tokens->push_back({static_cast<std::uint32_t>(n.begin - m_base), static_cast<std::uint32_t>(n.end - m_base), m_stat_key});
    return true;
  }

 private:
  const CleanEntryRule* m_rule;
  const char* m_base;
  std::vector<CleanEntryRule::Token>* m_tokens;
  bool m_stat_key = false;
};

}  // namespace

CleanEntryRule::CleanEntryRule(double overflow_fraction)
    : m_limit(*overflow_limit(DType::float16) * overflow_fraction), m_limit_decades(decades_above(m_limit)) {}

bool CleanEntryRule::clean_number(const pyjson::NumberText& n, bool stat) const {
  const std::ptrdiff_t int_digits = n.int_end - n.int_begin;
  // Leading zeros are not JSON: a "0" integer part means a magnitude below 1 (before the exponent).
  const long long int_decades = *n.int_begin == '0' ? 0 : int_digits;
  long long exponent = 0;
  if (n.exp_begin != nullptr) {
    const char* e = n.exp_begin;
    const bool negative = *e == '-';
    if (*e == '+' || *e == '-') ++e;
    if (n.end - e > 4) return false;  // (|exponent| >= 10^4: rare, let the full scan judge)
    for (; e != n.end; ++e) exponent = exponent * 10 + (*e - '0');
    if (negative) exponent = -exponent;
  } else if (int_digits > k_int64_digits && n.int_end == n.end) {
    return false;  // a big integer
  }
  const long long decades = int_decades + exponent;  // |value| < 10^decades
  if (decades > k_finite_decades) return false;
  if (!stat || decades < m_limit_decades) return true;
  double v = 0;
  const auto r = std::from_chars(n.begin, n.end, v);
  return r.ec == std::errc{} && r.ptr == n.end && std::fabs(v) < m_limit;
}

bool CleanEntryRule::clean(std::string_view entry_text) const {
  pyjson::PlainScanner<CleanWatch> scan(entry_text.data(), entry_text.data() + entry_text.size(),
                                        CleanWatch(*this, entry_text.data(), nullptr));
  return scan.whole_value();
}

const char* CleanEntryRule::clean_value(const char* p, const char* end) const {
  pyjson::PlainScanner<CleanWatch> scan(p, end, CleanWatch(*this, p, nullptr));
  return scan.value(0) ? scan.pos() : nullptr;
}

const char* CleanEntryRule::clean_value(const char* p, const char* end, std::vector<Token>& tokens) const {
  tokens.clear();
  pyjson::PlainScanner<CleanWatch> scan(p, end, CleanWatch(*this, p, &tokens));
  return scan.value(0) ? scan.pos() : nullptr;
}

}  // namespace msdump::anomalies
