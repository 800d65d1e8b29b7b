#pragma once
// ExactSum: an exact (Kulisch-style fixed-point) accumulator of doubles. Adding is exact and
// therefore associative, so partial sums computed by different threads or in a different order
// merge to bit-identical results; value() rounds the exact total once to the nearest double.
// The statistics kernels add one rounded partial per block of elements, so its cost is
// negligible; it removes the error growth of a long running double sum.

#include <array>
#include <cstdint>

namespace msdump::stats {

class ExactSum {
 public:
  // Adds v exactly. Non-finite values are kept apart and follow IEEE rules (inf + -inf = NaN).
  void add(double v);
  // Adds another accumulator's total exactly.
  void merge(const ExactSum& other);
  // The total rounded to nearest (ties to even). Non-finite if any non-finite value was added;
  // +-inf if the finite total is beyond the double range. Totals in the subnormal range may be
  // off by one subnormal ULP (rounded twice).
  double value() const;
  // value() of an accumulator that was given `v` alone (without building one): v, except
  // that a zero (of either sign) is +0.0.
  static double of_one(double v) { return v == 0.0 ? 0.0 : v; }

 private:
  // 32-bit digits stored in int64 (carry-save): digit i weighs 2^(32 i + k_base_exponent).
  static constexpr int k_limbs = 68;
  static constexpr int k_base_exponent = -1088;
  void normalize();

  std::array<std::int64_t, k_limbs> m_limbs{};
  std::uint32_t m_pending = 0;  // adds since the last normalize (each adds < 2^32 per digit)
  // Non-zero finite values added (capped at 2, merges count as 2) and the first one: a total of
  // a single value is that value exactly (most small tensors are one block, one add).
  std::uint32_t m_nonzero = 0;
  double m_first = 0.0;
  double m_special = 0.0;       // sum of the non-finite values
  bool m_has_special = false;
};

}  // namespace msdump::stats
