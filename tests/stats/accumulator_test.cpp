#include "stats/accumulator.h"

#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "stats/crc32.h"
#include "stats/xor_checksum.h"
#include "stats_test_util.h"

using namespace msdump;
using namespace msdump::stats;
using namespace msdump::stats::testing;

namespace {

const AccumulatorOptions k_all{.values = true, .crc32 = true, .xor_checksum = true};

// Counts, extremes and checksums exactly; sums within rounding of the summation order.
void check_same(const Moments& fast, const Moments& ref) {
  CHECK(fast.dtype == ref.dtype);
  CHECK(fast.byte_count == ref.byte_count);
  check_exact_fields(fast, ref);
  CHECK(fast.xor_checksum == ref.xor_checksum);
  CHECK_MESSAGE(close(fast.sum, ref.sum, ref.sum_abs), fast.sum << " vs " << ref.sum);
  CHECK_MESSAGE(close(fast.sum_sq, ref.sum_sq, ref.sum_sq), fast.sum_sq << " vs " << ref.sum_sq);
  CHECK_MESSAGE(close(fast.sum_abs, ref.sum_abs, ref.sum_abs), fast.sum_abs << " vs " << ref.sum_abs);
}

// Every field bit for bit (same kernel, different chunking or split).
void check_identical(const Moments& a, const Moments& b) {
  check_same(a, b);
  CHECK(same_double(a.sum, b.sum));
  CHECK(same_double(a.sum_sq, b.sum_sq));
  CHECK(same_double(a.sum_abs, b.sum_abs));
}

Moments chunked(DType dtype, std::span<const std::byte> bytes, const AccumulatorOptions& o, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Accumulator acc(dtype, o);
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t n = std::min<std::size_t>(bytes.size() - at, 1 + rng() % 300);
    acc.update(bytes.subspan(at, n));
    at += n;
  }
  return acc.moments();
}

const std::size_t k_lengths[] = {0, 1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 1000, 32767, 32768, 32769, 70001};

}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("vector kernel matches the scalar reference for every dtype and length") {
    for (const auto& info : all_dtypes()) {
      for (std::size_t n : k_lengths) {
        CAPTURE(info.name);
        CAPTURE(n);
        const auto bytes = random_elements(info.id, n, 1000 + n);
        const auto ref = reference_moments(info.id, bytes, k_all);
        check_same(compute_moments(info.id, bytes, k_all), ref);
        AccumulatorOptions scalar = k_all;
        scalar.reference_kernel = true;
        check_same(compute_moments(info.id, bytes, scalar), ref);
      }
    }
  }

  TEST_CASE("NaN, infinities, signed zeros and subnormals give the reference's max and min") {
    for (const auto& info : all_dtypes()) {
      const auto specials = special_bits(info.id);
      if (specials.empty()) continue;
      for (std::size_t n : {1, 33, 100, 5000}) {
        for (std::size_t which = 0; which < specials.size(); ++which) {
          for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
            CAPTURE(info.name);
            CAPTURE(n);
            CAPTURE(which);
            CAPTURE(pos);
            auto bytes = random_elements(info.id, n, n + which);
            put_special(bytes, info.id, pos, which);
            const auto ref = reference_moments(info.id, bytes, k_all);
            check_same(compute_moments(info.id, bytes, k_all), ref);
          }
        }
        // every special at once
        auto bytes = random_elements(info.id, n, 7);
        for (std::size_t which = 0; which < specials.size() && which < n; ++which)
          put_special(bytes, info.id, (which * 37) % n, which);
        check_same(compute_moments(info.id, bytes, k_all), reference_moments(info.id, bytes, k_all));
      }
    }
  }

  TEST_CASE("max of -0.0 and +0.0 is +0.0 and min is -0.0 in any order") {
    for (const auto& zeros : {std::vector<float>{-0.0f, 0.0f}, std::vector<float>{0.0f, -0.0f}}) {
      std::vector<float> v(100, 0.0f);
      v[17] = zeros[0];
      v[80] = zeros[1];
      for (std::size_t k = 0; k < v.size(); ++k) v[k] = (k == 17 || k == 80) ? v[k] : (k % 2 ? -0.0f : 0.0f);
      const auto m = compute_moments(DType::float32, std::as_bytes(std::span(v)));
      CHECK(m.max == 0.0);
      CHECK_FALSE(std::signbit(m.max));
      CHECK(std::signbit(m.min));
    }
  }

  TEST_CASE("a NaN anywhere makes max, min and the sums NaN") {
    std::vector<float> v(1000, 1.0f);
    v[999] = std::nanf("");
    const auto m = compute_moments(DType::float32, std::as_bytes(std::span(v)));
    CHECK(m.has_nan);
    CHECK(std::isnan(m.max));
    CHECK(std::isnan(m.min));
    CHECK(std::isnan(m.sum));
    CHECK(std::isnan(m.sum_sq));
  }

  TEST_CASE("a negative NaN (x86's default NaN) anywhere in float32 is found, in SIMD groups and tails") {
    for (std::size_t n : {64, 100, 32768, 33000}) {
      for (std::size_t pos : {std::size_t{0}, std::size_t{31}, n - 1}) {
        CAPTURE(n);
        CAPTURE(pos);
        std::vector<float> v(n, -1.5f);
        v[pos] = -std::numeric_limits<float>::quiet_NaN();
        const auto m = compute_moments(DType::float32, std::as_bytes(std::span(v)));
        CHECK(m.has_nan);
        CHECK(std::isnan(m.max));
        CHECK(std::isnan(m.min));
      }
    }
  }

  TEST_CASE("float32 +inf and -inf together: the sum is NaN but max and min are the infinities") {
    std::vector<float> v(4096, 2.0f);
    v[10] = std::numeric_limits<float>::infinity();
    v[3000] = -std::numeric_limits<float>::infinity();
    const auto m = compute_moments(DType::float32, std::as_bytes(std::span(v)));
    CHECK_FALSE(m.has_nan);
    CHECK(m.max == std::numeric_limits<double>::infinity());
    CHECK(m.min == -std::numeric_limits<double>::infinity());
    CHECK(std::isnan(m.sum));
    CHECK(m.sum_sq == std::numeric_limits<double>::infinity());
  }

  TEST_CASE("float32 tensors of one repeated extreme value") {
    for (const float x : {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::max(), -0.0f}) {
      CAPTURE(x);
      std::vector<float> v(1000, x);
      const auto bytes = std::as_bytes(std::span(v));
      check_same(compute_moments(DType::float32, bytes, k_all), reference_moments(DType::float32, bytes, k_all));
    }
  }

  TEST_CASE("without abs sums every other field is unchanged and sum_abs is NaN") {
    AccumulatorOptions no_abs = k_all;
    no_abs.abs_sum = false;
    for (const auto& info : all_dtypes()) {
      for (std::size_t n : {std::size_t{0}, std::size_t{100}, std::size_t{70001}}) {
        CAPTURE(info.name);
        CAPTURE(n);
        auto bytes = random_elements(info.id, n, 99 + n);
        if (n > 0 && !special_bits(info.id).empty()) put_special(bytes, info.id, n / 3, 1);
        const auto with = compute_moments(info.id, bytes, k_all);
        const auto without = compute_moments(info.id, bytes, no_abs);
        CHECK(std::isnan(without.sum_abs));
        Moments masked = without;
        masked.sum_abs = with.sum_abs;
        check_identical(masked, with);
      }
    }
  }

  TEST_CASE("elements straddling chunk boundaries give bit-identical results") {
    for (const auto& info : all_dtypes()) {
      for (std::size_t n : {1, 65, 1000, 33000}) {
        CAPTURE(info.name);
        CAPTURE(n);
        const auto bytes = random_elements(info.id, n, 5 * n);
        const auto whole = compute_moments(info.id, bytes, k_all);
        check_identical(chunked(info.id, bytes, k_all, n), whole);
        if (n <= 1000) {
          Accumulator one_byte(info.id, k_all);
          for (std::size_t k = 0; k < bytes.size(); ++k) one_byte.update(std::span(bytes).subspan(k, 1));
          check_identical(one_byte.moments(), whole);
        }
      }
    }
  }

  TEST_CASE("parts split at block multiples merge bit-identically to one pass") {
    for (DType dtype : {DType::float32, DType::bfloat16, DType::float16, DType::float64, DType::int32,
                        DType::complex64}) {
      CAPTURE(dtype_name(dtype));
      const std::size_t n = 3 * Accumulator::k_block_elements + 1001;
      const auto bytes = random_elements(dtype, n, 99);
      const auto whole = compute_moments(dtype, bytes, k_all);
      const std::size_t split = 2 * Accumulator::k_block_elements * itemsize(dtype);
      Accumulator a(dtype, k_all), b(dtype, k_all, split);
      a.update(std::span(bytes).first(split));
      b.update(std::span(bytes).subspan(split));
      REQUIRE(a.merge(b));
      check_identical(a.moments(), whole);
    }
  }

  TEST_CASE("parts split anywhere on element boundaries merge to the reference") {
    const DType dtype = DType::bfloat16;
    const auto bytes = random_elements(dtype, 50000, 3);
    const auto ref = reference_moments(dtype, bytes, k_all);
    for (std::size_t split : {0, 2, 130, 65536, 99998, 100000}) {
      CAPTURE(split);
      Accumulator a(dtype, k_all), b(dtype, k_all, split);
      a.update(std::span(bytes).first(split));
      b.update(std::span(bytes).subspan(split));
      REQUIRE(a.merge(b));
      check_same(a.moments(), ref);
    }
  }

  TEST_CASE("merge rejects parts that are not adjacent or split inside an element") {
    const auto bytes = random_elements(DType::float32, 10, 1);
    Accumulator a(DType::float32, k_all), far(DType::float32, k_all, 100);
    a.update(std::span(bytes).first(8));
    auto r = a.merge(far);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "merging statistics accumulators: part at byte 100 does not follow the part ending at byte 8");
    Accumulator c(DType::float32, k_all), d(DType::float32, k_all, 6);
    c.update(std::span(bytes).first(6));
    d.update(std::span(bytes).subspan(6));
    r = c.merge(d);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "merging statistics accumulators: the part ending at byte 6 ends inside an element");
  }

  TEST_CASE("a trailing partial element counts as bytes but not as an element") {
    const auto bytes = random_elements(DType::float32, 3, 1);
    const auto m = compute_moments(DType::float32, std::span(bytes).first(10), k_all);
    CHECK(m.count == 2);
    CHECK(m.byte_count == 10);
    CHECK(m.crc32 == crc32(std::span(bytes).first(10)));
  }

  TEST_CASE("sums are accumulated in double: 2^24 plus a thousand ones is exact") {
    std::vector<float> v(1001, 1.0f);
    v[0] = 16777216.0f;
    const auto m = compute_moments(DType::float32, std::as_bytes(std::span(v)));
    CHECK(m.sum == 16778216.0);
    CHECK(m.sum_abs == 16778216.0);
    CHECK(m.sum_sq == 281474976710656.0 + 1000.0);
  }

  TEST_CASE("integer extremes are exact in the native type") {
    const std::int64_t v[] = {std::int64_t{1} << 62, -5, (std::int64_t{1} << 62) + 1};
    const auto m = compute_moments(DType::int64, std::as_bytes(std::span(v)));
    CHECK(m.max_int == (std::int64_t{1} << 62) + 1);
    CHECK(m.min_int == -5);
    const std::uint64_t u[] = {~std::uint64_t{0}, 3};
    const auto mu = compute_moments(DType::uint64, std::as_bytes(std::span(u)));
    CHECK(mu.max_uint == ~std::uint64_t{0});
    CHECK(mu.min_uint == 3);
  }

  TEST_CASE("float32_elements sums integers and float64 after rounding them to float32") {
    const std::int64_t v[] = {(std::int64_t{1} << 53) + 1, 0};
    AccumulatorOptions o;
    o.float32_elements = true;
    const auto m = compute_moments(DType::int64, std::as_bytes(std::span(v)), o);
    CHECK(m.sum == 9007199254740992.0);
    CHECK(m.max_int == (std::int64_t{1} << 53) + 1);
    const double d[] = {0.1, 0.2};
    const auto md = compute_moments(DType::float64, std::as_bytes(std::span(d)), o);
    CHECK(md.sum == static_cast<double>(0.1f) + static_cast<double>(0.2f));
  }

  TEST_CASE("bool any and all") {
    const std::uint8_t none[] = {0, 0, 0}, some[] = {0, 1, 0}, every[] = {1, 1, 1};
    auto m = compute_moments(DType::boolean, std::as_bytes(std::span(none)));
    CHECK_FALSE(m.any);
    CHECK_FALSE(m.all);
    m = compute_moments(DType::boolean, std::as_bytes(std::span(some)));
    CHECK(m.any);
    CHECK_FALSE(m.all);
    m = compute_moments(DType::boolean, std::as_bytes(std::span(every)));
    CHECK(m.any);
    CHECK(m.all);
  }

  TEST_CASE("complex statistics are over |z| in the component precision") {
    const float z[] = {3.0f, 4.0f, 0.0f, -1.0f, 1.0f, 1.0f};
    const auto m = compute_moments(DType::complex64, std::as_bytes(std::span(z)));
    CHECK(m.max == 5.0);
    CHECK(m.min == 1.0);
    CHECK(m.sum == 6.0 + static_cast<double>(std::sqrt(2.0f)));
    const float inf_nan[] = {std::numeric_limits<float>::infinity(), std::nanf("")};
    CHECK(compute_moments(DType::complex64, std::as_bytes(std::span(inf_nan))).max ==
          std::numeric_limits<double>::infinity());
  }

  TEST_CASE("checksums only: values can be skipped") {
    const auto bytes = random_elements(DType::float16, 777, 4);
    const AccumulatorOptions o{.values = false, .crc32 = true, .xor_checksum = true};
    const auto m = compute_moments(DType::float16, bytes, o);
    CHECK(m.count == 777);
    CHECK(m.crc32 == crc32(bytes));
    CHECK(m.xor_checksum == xor_checksum(bytes));
  }

  TEST_CASE("one-shot moments of less than a block (the fast path) equal the accumulator's, bit for bit") {
    const AccumulatorOptions variants[] = {
        k_all,
        {.values = true, .abs_sum = false},
        {.values = true, .float32_elements = true},
        {.values = true, .crc32 = true, .reference_kernel = true},
        {.values = false, .crc32 = true, .xor_checksum = true},
    };
    for (const auto& info : all_dtypes()) {
      for (std::size_t n : {0, 1, 3, 31, 32, 63, 64, 65, 200, 4097, 32767}) {
        for (std::size_t v = 0; v < std::size(variants); ++v) {
          CAPTURE(info.name);
          CAPTURE(n);
          CAPTURE(v);
          auto bytes = random_elements(info.id, n, 7 * n + v);
          // special values (NaN, infinities, signed zeros, extremes) at a few places
          const auto specials = special_bits(info.id).size();
          for (std::size_t k = 0; n > 0 && k < specials && v % 2 == 0; ++k) put_special(bytes, info.id, (k * 37) % n, k);
          if (v == 4) bytes.push_back(std::byte{7});  // a trailing partial element (checksums only)
          Accumulator acc(info.id, variants[v]);
          acc.update(bytes);
          check_identical(compute_moments(info.id, bytes, variants[v]), acc.take_moments());
        }
      }
    }
  }
}
