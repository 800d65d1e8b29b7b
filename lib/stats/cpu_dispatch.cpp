#include "stats/cpu_dispatch.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <string>

namespace msdump::stats {
namespace {

constexpr std::array<SimdTier, 4> k_tiers = {SimdTier::sse2, SimdTier::sse4_2, SimdTier::avx2, SimdTier::avx512};

SimdTier detect() {
#if defined(MSDUMP_X86_TIERS)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("x86-64-v2") || !__builtin_cpu_supports("pclmul")) return SimdTier::sse2;
  if (!__builtin_cpu_supports("x86-64-v3")) return SimdTier::sse4_2;
  if (!__builtin_cpu_supports("x86-64-v4")) return SimdTier::avx2;
  return SimdTier::avx512;
#else
  return SimdTier::sse2;  // other architectures: the portable kernels only
#endif
}

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
