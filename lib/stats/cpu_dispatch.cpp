#include "stats/cpu_dispatch.h"

#include <array>
#include <cstdint>
#include <atomic>
#include <cstdlib>
#include <string>

#if defined(MSDUMP_X86_TIERS)
#include <cpuid.h>
#endif

namespace msdump::stats {
namespace {

constexpr std::array<SimdTier, 4> k_tiers = {SimdTier::sse2, SimdTier::sse4_2, SimdTier::avx2, SimdTier::avx512};

#if defined(MSDUMP_X86_TIERS)
bool bit(unsigned reg, int n) { return ((reg >> n) & 1u) != 0; }

// Which register states the OS saves (XCR0): 0x6 = XMM + YMM, 0xe6 adds the AVX-512 state.
std::uint64_t os_saved_state() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (std::uint64_t{hi} << 32) | lo;
}

// The tiers are the x86-64 micro-architecture levels (+ PCLMULQDQ from sse4.2 up), read from
// CPUID directly: compilers differ in which names __builtin_cpu_supports knows (clang 14 has
// no "x86-64-v2", "f16c", "lzcnt" or "movbe").
SimdTier detect() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return SimdTier::sse2;
  unsigned ext_a = 0, ext_b = 0, ext_c = 0, ext_d = 0;
  __get_cpuid(0x80000001u, &ext_a, &ext_b, &ext_c, &ext_d);
  // x86-64-v2: SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT, CMPXCHG16B, LAHF/SAHF
  const bool v2 = bit(c, 0) && bit(c, 9) && bit(c, 19) && bit(c, 20) && bit(c, 23) && bit(c, 13) && bit(ext_c, 0);
  if (!v2 || !bit(c, 1)) return SimdTier::sse2;  // (c bit 1: PCLMULQDQ)
  unsigned a7 = 0, b7 = 0, c7 = 0, d7 = 0;
  if (__get_cpuid_count(7, 0, &a7, &b7, &c7, &d7) == 0) return SimdTier::sse4_2;
  const std::uint64_t xcr0 = bit(c, 27) ? os_saved_state() : 0;  // (c bit 27: OSXSAVE)
  // x86-64-v3: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE, with the YMM state saved
  const bool v3 = (xcr0 & 0x6) == 0x6 && bit(c, 28) && bit(c, 12) && bit(c, 29) && bit(c, 22) && bit(ext_c, 5) &&
                  bit(b7, 5) && bit(b7, 3) && bit(b7, 8);
  if (!v3) return SimdTier::sse4_2;
  // x86-64-v4: AVX512F, BW, CD, DQ, VL, with the ZMM state saved
  const bool v4 = (xcr0 & 0xe6) == 0xe6 && bit(b7, 16) && bit(b7, 30) && bit(b7, 28) && bit(b7, 17) && bit(b7, 31);
  return v4 ? SimdTier::avx512 : SimdTier::avx2;
}
#else
SimdTier detect() { return SimdTier::sse2; }  // other architectures: the portable kernels only
#endif

// The active tier; -1 until first use.
std::atomic<int> g_active{-1};

}  // namespace

std::string_view simd_tier_name(SimdTier tier) {
  switch (tier) {
    case SimdTier::sse2: return "sse2";
    case SimdTier::sse4_2: return "sse4.2";
    case SimdTier::avx2: return "avx2";
    case SimdTier::avx512: return "avx512";
  }
  return "sse2";
}

std::optional<SimdTier> parse_simd_tier(std::string_view name) {
  for (SimdTier t : k_tiers)
    if (simd_tier_name(t) == name) return t;
  return std::nullopt;
}

SimdTier detected_simd_tier() {
  static const SimdTier tier = detect();
  return tier;
}

Result<SimdTier> choose_simd_tier(const char* env_value, SimdTier detected) {
  if (env_value == nullptr || *env_value == '\0') return detected;
  const auto tier = parse_simd_tier(env_value);
  if (!tier) {
    return invalid_input("MSDUMP_SIMD='" + std::string(env_value) + "': expected one of sse2, sse4.2, avx2, avx512");
  }
  if (*tier > detected) {
    return invalid_input("MSDUMP_SIMD=" + std::string(env_value) + ": this CPU runs at most " +
                         std::string(simd_tier_name(detected)));
  }
  return *tier;
}

Result<SimdTier> configured_simd_tier() { return choose_simd_tier(std::getenv("MSDUMP_SIMD"), detected_simd_tier()); }

SimdTier simd_tier() {
  int t = g_active.load(std::memory_order_relaxed);
  if (t < 0) {
    const auto configured = configured_simd_tier();
    t = static_cast<int>(configured ? *configured : detected_simd_tier());
    g_active.store(t, std::memory_order_relaxed);
  }
  return static_cast<SimdTier>(t);
}

std::vector<SimdTier> runnable_simd_tiers() {
  std::vector<SimdTier> out;
  for (SimdTier t : k_tiers)
    if (t <= detected_simd_tier()) out.push_back(t);
  return out;
}

Result<void> use_simd_tier(SimdTier tier) {
  if (tier > detected_simd_tier()) {
    return invalid_input("SIMD tier " + std::string(simd_tier_name(tier)) + ": this CPU runs at most " +
                         std::string(simd_tier_name(detected_simd_tier())));
  }
  g_active.store(static_cast<int>(tier), std::memory_order_relaxed);
  return {};
}

}  // namespace msdump::stats
