#include "compare/stats_diff.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "pyjson/eight_digits.h"
#include "pyjson/pyfloat.h"

namespace msdump::compare {

namespace {

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_lower(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (ascii_lower(text[i]) != lower[i]) return false;
  }
  return true;
}

bool contains_lower(std::string_view text, std::string_view lower) {
  if (lower.size() > text.size()) return false;
  for (std::size_t i = 0; i + lower.size() <= text.size(); ++i) {
    if (equals_lower(text.substr(i, lower.size()), lower)) return true;
  }
  return false;
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The digits part of a float text (no sign, no whitespace): decimal or exponent notation.
std::optional<double> parse_decimal(std::string_view s) {
  if (s.empty() || !((s[0] >= '0' && s[0] <= '9') || s[0] == '.')) return std::nullopt;
  double v = 0.0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (r.ptr != s.data() + s.size()) return std::nullopt;
  if (r.ec == std::errc::result_out_of_range) {
    // Python gives inf (or 0.0) where from_chars reports the range: strtod agrees with it.
    const std::string copy(s);
    return std::strtod(copy.c_str(), nullptr);
  }
  if (r.ec != std::errc()) return std::nullopt;
  return v;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Powers of ten 1e0 ... 1e308, each the double nearest to it.
const std::array<double, 309>& powers_of_ten() {
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    for (std::size_t k = 0; k < t.size(); ++k) {
      const std::string text = "1e" + std::to_string(k);
      std::from_chars(text.data(), text.data() + text.size(), t[k]);
    }
    return t;
  }();
  return table;
}

// The infinity spellings pandas accepts when the digits parse fails.
std::optional<double> pandas_infinity(std::string_view s) {
  double sign = 1.0;
  if (s.size() == 4 || s.size() == 9) {
    if (s[0] != '+' && s[0] != '-') return std::nullopt;
    sign = s[0] == '-' ? -1.0 : 1.0;
    s.remove_prefix(1);
  }
  if (equals_lower(s, "inf") || equals_lower(s, "infinity")) return sign * std::numeric_limits<double>::infinity();
  return std::nullopt;
}

// The decimal exponent part after the 'e'/'E' at `p` (at most 17 digits read); `p` moves past
// what is used.
long exponent_part(const char*& p, const char* end) {
  const char* q = p + 1;
  bool negative = false;
  if (q != end && (*q == '+' || *q == '-')) negative = *q++ == '-';
  long n = 0;
  int digits = 0;
  for (; digits < 17 && q != end && is_digit(*q); ++q, ++digits) n = n * 10 + (*q - '0');
  if (digits == 0) return 0;  // the 'e' is not used: the text does not end there
  p = q;
  return negative ? -n : n;
}

// xstrtod's mantissa: number = number * 10.0 + digit over the first 17 digits. The first 15
// are summed in an integer, eight at a time where they come in a run: below 10^15 < 2^53
// every step of the double sum is exact, so the two agree. The 16th and 17th go through the
// double sum, where its rounding can begin.
class PandasMantissa {
 public:
  int digits() const { return m_digits; }
  // Takes the digits at p while there is room for them; returns where it stopped.
  const char* take(const char* p, const char* end) {
    while (m_digits <= k_exact_digits - 8 && end - p >= 8 && pyjson::eight_digits(p, m_exact)) {
      p += 8;
      m_digits += 8;
    }
    for (; m_digits < k_max_digits && p != end && is_digit(*p); ++p) add(*p - '0');
    return p;
  }
  double value() const { return m_digits <= k_exact_digits ? static_cast<double>(m_exact) : m_number; }

 private:
  static constexpr int k_max_digits = 17;
  static constexpr int k_exact_digits = 15;
  void add(int d) {
    if (m_digits < k_exact_digits) {
      m_exact = m_exact * 10 + static_cast<unsigned>(d);
    } else {
      m_number = (m_digits == k_exact_digits ? static_cast<double>(m_exact) : m_number) * 10.0 + d;
    }
    ++m_digits;
  }
  std::uint64_t m_exact = 0;
  double m_number = 0.0;
  int m_digits = 0;
};

std::optional<double> pandas_digits(std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p != end && is_space(*p)) ++p;
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  PandasMantissa mantissa;
  long exponent = 0;
  for (p = mantissa.take(p, end); p != end && is_digit(*p); ++p) ++exponent;  // past the 17th
  if (p != end && *p == '.') {
    const int before = mantissa.digits();
    p = mantissa.take(p + 1, end);
    exponent -= mantissa.digits() - before;
    while (p != end && is_digit(*p)) ++p;
  }
  if (mantissa.digits() == 0) return std::nullopt;
  double number = mantissa.value();
  if (negative) number = -number;
  if (p != end && (*p == 'e' || *p == 'E')) exponent += exponent_part(p, end);
  while (p != end && is_space(*p)) ++p;
  if (p != end || exponent > 308) return std::nullopt;
  const auto& e = powers_of_ten();
  if (exponent > 0) {
    number *= e[static_cast<std::size_t>(exponent)];
  } else if (exponent < -616) {
    number = 0.0;
  } else if (exponent < -308) {
    number /= e[static_cast<std::size_t>(-308 - exponent)];
    number /= e[308];
  } else {
    number /= e[static_cast<std::size_t>(-exponent)];
  }
  if (std::isinf(number)) return std::nullopt;
  return number;
}

enum class Rule : std::uint8_t { compute, nan, inf, neg_inf, na, diff };

// msprobe's table of results for two values that are not equal as text.
Rule rule_for(StatClass n, StatClass b) {
  using C = StatClass;
  if (n == C::na || b == C::na) return Rule::na;
  if (n == C::device && b == C::device) return Rule::na;
  if (n == C::device || b == C::device || n == C::other || b == C::other) return Rule::diff;
  // Both are num, nan, inf or neg_inf from here on.
  if (n == C::nan || b == C::nan) return Rule::nan;
  if (n == C::num && b == C::num) return Rule::compute;
  if (n == C::inf && (b == C::num || b == C::neg_inf)) return Rule::inf;
  if (n == C::neg_inf && (b == C::num || b == C::inf)) return Rule::neg_inf;
  if (n == C::num) return b == C::inf ? Rule::neg_inf : Rule::inf;
  return Rule::na;  // inf vs inf (or -inf vs -inf) spelled differently: msprobe has no rule
}

// `cell` becomes str(x) followed by `suffix`, as a plain text. (Every text stats_diff gives is a
// plain one: "0", "N/A", "Diff", "nan", "inf", "-inf", a float's str() with or without '%'.)
void set_float_text(Cell& cell, double x, std::string_view suffix = {}) {
  char buf[pyjson::k_max_python_float_chars + 8];
  char* end = std::copy(suffix.begin(), suffix.end(), format_float_str(buf, x));
  cell.set_plain_text({buf, static_cast<std::size_t>(end - buf)});
}

}  // namespace

std::string_view to_string(StatClass c) {
  switch (c) {
    case StatClass::num: return "NUM";
    case StatClass::nan: return "NAN";
    case StatClass::inf: return "INF";
    case StatClass::neg_inf: return "NEG_INF";
    case StatClass::na: return "NA";
    case StatClass::device: return "DEVICE";
    case StatClass::other: return "OTHER";
  }
  return "OTHER";
}

std::optional<double> parse_python_float(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  std::optional<double> v;
  if (equals_lower(text, "inf") || equals_lower(text, "infinity")) {
    v = std::numeric_limits<double>::infinity();
  } else if (equals_lower(text, "nan")) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else {
    v = parse_decimal(text);
  }
  if (v && negative) *v = -*v;
  return v;
}

std::optional<double> pandas_parse_float(std::string_view text) {
  if (auto v = pandas_digits(text)) return v;
  return pandas_infinity(text);
}

namespace {

// Python's str() of `c`: a text cell's own text, else formatted into `buf`.
std::string_view str_of(const Cell& c, std::string& buf) {
  if (c.is_text() || !c.kept_str().empty()) return c.as_text();
  buf.clear();
  c.append_str(buf);
  return buf;
}

// classify_stat with the cell's str() already made.
StatClass classify(const Cell& c, std::string_view str, double& number) {
  // A number cell is a number whatever its text; its value is its text read back by pandas, NaN
  // when pandas cannot read it (a value near the double range that its scaling overflows).
  const double unreadable = std::numeric_limits<double>::quiet_NaN();
  number = 0.0;
  if (c.kind() == Cell::Kind::floating) {
    const double v = c.as_float();
    if (std::isnan(v)) return StatClass::nan;
    if (std::isinf(v)) return v > 0 ? StatClass::inf : StatClass::neg_inf;
    number = pandas_parse_float(str).value_or(unreadable);
    return StatClass::num;
  }
  if (c.kind() == Cell::Kind::integer) {
    number = pandas_parse_float(str).value_or(unreadable);
    return StatClass::num;
  }
  if (c.kind() == Cell::Kind::boolean) return StatClass::other;
  const std::string_view s = str;
  if (equals_lower(s, "nan")) return StatClass::nan;
  if (equals_lower(s, "inf")) return StatClass::inf;
  if (equals_lower(s, "-inf")) return StatClass::neg_inf;
  if (!equals_lower(s, "true") && !equals_lower(s, "false")) {
    if (const auto v = pandas_parse_float(s)) {
      number = *v;
      return StatClass::num;
    }
  }
  if (contains_lower(s, "npu") || contains_lower(s, "cpu") || contains_lower(s, "cuda")) return StatClass::device;
  if (s == k_na) return StatClass::na;
  return StatClass::other;
}

}  // namespace

StatClass classify_stat(const Cell& c, double& number) {
  std::string buf;
  return classify(c, str_of(c, buf), number);
}

void stat_diff(const Cell& npu, const Cell& bench, Cell& diff, Cell& rel) {
  std::string npu_buf, bench_buf;
  const std::string_view npu_str = str_of(npu, npu_buf);
  const std::string_view bench_str = str_of(bench, bench_buf);
  auto both = [&](std::string_view text) {
    diff.set_plain_text(text);
    rel.set_plain_text(text);
  };
  if (npu_str == bench_str) return both("0");
  double n = 0.0;
  double b = 0.0;
  const StatClass nc = classify(npu, npu_str, n);
  const StatClass bc = classify(bench, bench_str, b);
  switch (rule_for(nc, bc)) {
    case Rule::compute: {
      const double d = n - b;
      set_float_text(diff, d);
      if (b == 0.0) rel.set_plain_text("inf");
      else set_float_text(rel, std::fabs(d / b * 100.0), "%");
      return;
    }
    case Rule::nan: return both(k_nan);
    case Rule::inf: return both("inf");
    case Rule::neg_inf: return both("-inf");
    case Rule::diff: return both("Diff");
    case Rule::na: break;
  }
  both(k_na);
}

std::pair<Cell, Cell> stat_diff(const Cell& npu, const Cell& bench) {
  std::pair<Cell, Cell> out;
  stat_diff(npu, bench, out.first, out.second);
  return out;
}

void stats_diff(const Row& npu, const Row* bench, std::span<Cell, 8> out) {
  for (std::size_t s = 0; s < 4; ++s) {
    if (bench == nullptr) {
      out[s].set_plain_text(k_na);
      out[4 + s].set_plain_text(k_na);
    } else {
      stat_diff(npu.stats[s], bench->stats[s], out[s], out[4 + s]);
    }
  }
}

std::array<Cell, 8> stats_diff(const Row& npu, const Row* bench) {
  std::array<Cell, 8> out;
  stats_diff(npu, bench, out);
  return out;
}

}  // namespace msdump::compare
