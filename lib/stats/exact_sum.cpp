#include "stats/exact_sum.h"

#include <bit>
#include <cmath>

namespace msdump::stats {
namespace {
__extension__ typedef unsigned __int128 uint128;
}  // namespace

void ExactSum::add(double v) {
  if (!std::isfinite(v)) {
    m_special += v;
    m_has_special = true;
    return;
  }
  if (v == 0.0) return;
  if (m_nonzero < 2) {
    if (m_nonzero == 0) m_first = v;
    ++m_nonzero;
  }
  const auto bits = std::bit_cast<std::uint64_t>(v);
  const auto exponent_field = static_cast<int>((bits >> 52) & 0x7ffu);
  std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  int exponent = -1074;
  if (exponent_field != 0) {
    mantissa |= std::uint64_t{1} << 52;
    exponent = exponent_field - 1075;
  }
  // v = +-mantissa * 2^exponent; place the mantissa into (at most) three 32-bit digits.
  const int position = exponent - k_base_exponent;
  const int index = position / 32;
  const auto shifted = static_cast<uint128>(mantissa) << (position % 32);
  const auto d0 = static_cast<std::int64_t>(shifted & 0xffffffffu);
  const auto d1 = static_cast<std::int64_t>((shifted >> 32) & 0xffffffffu);
  const auto d2 = static_cast<std::int64_t>(shifted >> 64);
  if (std::signbit(v)) {
    m_limbs[index] -= d0;
    m_limbs[index + 1] -= d1;
    m_limbs[index + 2] -= d2;
  } else {
    m_limbs[index] += d0;
    m_limbs[index + 1] += d1;
    m_limbs[index + 2] += d2;
  }
  // each add changes a digit by < 2^32; normalize long before an int64 digit could overflow
  if (++m_pending == (1u << 29)) normalize();
}

void ExactSum::normalize() {
  for (int i = 0; i + 1 < k_limbs; ++i) {
    const std::int64_t carry = m_limbs[i] >> 32;  // floor division (arithmetic shift)
    m_limbs[i] -= carry * (std::int64_t{1} << 32);
    m_limbs[i + 1] += carry;
  }
  m_pending = 0;
}

void ExactSum::merge(const ExactSum& other) {
  ExactSum rhs = other;
  rhs.normalize();
  normalize();
  for (int i = 0; i < k_limbs; ++i) m_limbs[i] += rhs.m_limbs[i];
  m_pending = 2;
  m_nonzero = 2;
  if (other.m_has_special) {
    m_special += other.m_special;
    m_has_special = true;
  }
}

double ExactSum::value() const {
  if (m_has_special) return m_special;
  // One finite value: the exact total is that double (what the general path below returns).
  if (m_nonzero == 0) return 0.0;
  if (m_nonzero == 1) return m_first;
  ExactSum s = *this;
  s.normalize();
  const bool negative = s.m_limbs[k_limbs - 1] < 0;
  if (negative) {
    for (auto& limb : s.m_limbs) limb = -limb;
    s.normalize();
  }
  int top = k_limbs - 1;
  while (top >= 0 && s.m_limbs[top] == 0) --top;
  if (top < 0) return 0.0;
  // Take the top three digits (>= 65 significant bits when there are lower digits) and fold
  // every lower non-zero digit into a sticky bit, then let the 128-bit -> double conversion
  // round once to nearest even.
  auto digit = [&](int i) { return i >= 0 ? static_cast<uint128>(s.m_limbs[i]) : 0; };
  uint128 head = (digit(top) << 64) | (digit(top - 1) << 32) | digit(top - 2);
  bool sticky = false;
  for (int i = top - 3; i >= 0 && !sticky; --i) sticky = s.m_limbs[i] != 0;
  if (sticky) head |= 1;
  const double magnitude = std::ldexp(static_cast<double>(head), 32 * (top - 2) + k_base_exponent);
  return negative ? -magnitude : magnitude;
}

}  // namespace msdump::stats
