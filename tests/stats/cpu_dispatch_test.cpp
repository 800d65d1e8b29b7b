#include "stats/cpu_dispatch.h"

#include <doctest/doctest.h>

#include <bit>
#include <random>
#include <string>
#include <vector>

#include "stats/accumulator.h"
#include "stats/crc32.h"
#include "stats_test_util.h"

using namespace msdump;
using namespace msdump::stats;

namespace {



void check_identical(const Moments& a, const Moments& b, bool abs_sum) {
  testing::check_exact_fields(a, b);
  CHECK(testing::same_double(a.sum, b.sum));
  CHECK(testing::same_double(a.sum_sq, b.sum_sq));
  if (abs_sum) CHECK(testing::same_double(a.sum_abs, b.sum_abs));
}

// The moments of `bytes` one-shot and through an Accumulator fed in uneven chunks.
std::vector<Moments> moments_both_ways(DType dtype, const std::vector<std::byte>& bytes, const AccumulatorOptions& o) {
  Accumulator acc(dtype, o);
  std::span<const std::byte> rest(bytes);
  for (std::size_t chunk = 1000; !rest.empty(); chunk = chunk * 3 + 7) {
    const auto piece = rest.first(std::min(chunk, rest.size()));
    acc.update(piece);
    rest = rest.subspan(piece.size());
  }
  return {compute_moments(dtype, bytes, o), acc.take_moments()};
}

// Sets the tier for the duration of a scope, then goes back to the one the process chose.
struct TierScope {
  explicit TierScope(SimdTier t) { REQUIRE(use_simd_tier(t).ok()); }
  ~TierScope() { (void)use_simd_tier(simd_tier_before); }
  SimdTier simd_tier_before = simd_tier();
};

}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("SIMD tier names parse back, and MSDUMP_SIMD picks a tier no higher than the CPU's") {
    for (SimdTier t : {SimdTier::sse2, SimdTier::sse4_2, SimdTier::avx2, SimdTier::avx512})
      CHECK(parse_simd_tier(simd_tier_name(t)) == t);
    CHECK_FALSE(parse_simd_tier("avx"));
    CHECK(*choose_simd_tier(nullptr, SimdTier::avx2) == SimdTier::avx2);
    CHECK(*choose_simd_tier("", SimdTier::avx2) == SimdTier::avx2);
    CHECK(*choose_simd_tier("sse2", SimdTier::avx2) == SimdTier::sse2);
    CHECK(*choose_simd_tier("avx2", SimdTier::avx2) == SimdTier::avx2);
    const auto unknown = choose_simd_tier("avx-512", SimdTier::avx512);
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message == "MSDUMP_SIMD='avx-512': expected one of sse2, sse4.2, avx2, avx512");
    const auto too_high = choose_simd_tier("avx512", SimdTier::sse4_2);
    REQUIRE_FALSE(too_high.ok());
    CHECK(too_high.error().message == "MSDUMP_SIMD=avx512: this CPU runs at most sse4.2");
    CHECK(runnable_simd_tiers().front() == SimdTier::sse2);
    CHECK(runnable_simd_tiers().back() == detected_simd_tier());
    CHECK_FALSE(use_simd_tier(static_cast<SimdTier>(static_cast<int>(detected_simd_tier()) + 1)).ok());
  }

  TEST_CASE("every SIMD tier this CPU runs gives bit-identical statistics and CRC-32") {
    INFO("tiers on this CPU up to ", std::string(simd_tier_name(detected_simd_tier())));
    // lengths around a group (64), a block (32768 elements) and odd ones
    const std::vector<std::size_t> lengths = {1, 63, 64, 65, 129, 1003, 32768 + 65, 70001};
    std::uint64_t seed = 1;
    for (const auto& info : all_dtypes()) {
      for (std::size_t n : lengths) {
        for (int special = 0; special < 3; ++special) {  // none, +-inf, NaN
          auto bytes = testing::random_elements(info.id, n, ++seed);
          const auto specials = testing::special_bits(info.id);
          std::mt19937_64 rng(seed);
          if (special > 0 && info.kind != DTypeKind::signed_int && info.kind != DTypeKind::unsigned_int &&
              info.kind != DTypeKind::boolean) {
            for (int k = 0; k < 3; ++k) testing::put_special(bytes, info.id, rng() % n, special == 1 ? 1 + k % 2 : 0);
          }
          for (bool f32 : {false, true}) {
            for (bool abs_sum : {true, false}) {
              const AccumulatorOptions o{.crc32 = true, .float32_elements = f32, .abs_sum = abs_sum};
              CAPTURE(info.name);
              CAPTURE(n);
              CAPTURE(special);
              CAPTURE(f32);
              CAPTURE(abs_sum);
              std::vector<Moments> base;
              for (SimdTier t : runnable_simd_tiers()) {
                TierScope scope(t);
                const auto m = moments_both_ways(info.id, bytes, o);
                if (base.empty()) {
                  base = m;
                  continue;
                }
                INFO("tier ", std::string(simd_tier_name(t)), " vs sse2");
                check_identical(m[0], base[0], abs_sum);
                check_identical(m[1], base[1], abs_sum);
              }
            }
          }
        }
      }
    }
  }

  TEST_CASE("every SIMD tier this CPU runs gives the same CRC-32 at every length and offset") {
    std::mt19937_64 rng(7);
    std::vector<std::byte> bytes(100003);
    for (auto& b : bytes) b = static_cast<std::byte>(rng());
    for (std::size_t n : {0, 1, 15, 16, 63, 64, 65, 127, 128, 1000, 4097, 100003}) {
      for (std::size_t off : {0, 1, 7}) {
        if (off + n > bytes.size()) continue;
        const std::span<const std::byte> part(bytes.data() + off, n);
        const std::uint32_t table = crc32_update_table(0, part);
        for (SimdTier t : runnable_simd_tiers()) {
          TierScope scope(t);
          CAPTURE(n);
          CAPTURE(off);
          CHECK(crc32(part) == table);
        }
      }
    }
  }
}
