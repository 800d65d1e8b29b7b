#pragma once
// What a dump.json's own content says about the msprobe build that wrote it
// (docs/format.md §16): which format profile (legacy: released builds up to 8.x;
// current: msprobe master), and which summary mode.
//
// A profile signal is a form only one generation writes. Signals are collected per entry
// (a bit set) and gathered over the whole file in a ProfileEvidence; the verdict is the
// profile whose signals were seen, none when no entry carried one, and a conflict when both
// profiles' signals are in one file.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/profile.h"
#include "dump/entry_name.h"
#include "pyjson/json_value.h"

namespace msdump::dump {

// One bit per kind of evidence (a ProfileSignal is one of these bits).
using ProfileSignal = std::uint32_t;
inline constexpr ProfileSignal signal_is_recompute = 1u << 0;      // legacy: a PyTorch forward entry carries is_recompute
inline constexpr ProfileSignal signal_unnumbered_grad = 1u << 1;   // legacy (8.x): "...parameters_grad" without its counter
inline constexpr ProfileSignal signal_float_int_stats = 1u << 2;   // legacy: PyTorch integer/float64 tensor with Mean/Norm (float32 path)
inline constexpr ProfileSignal signal_float8_stats = 1u << 3;      // legacy: PyTorch float8 tensor with statistics
inline constexpr ProfileSignal signal_native_int_stats = 1u << 4;  // current: PyTorch integer/float64 tensor, null Mean/Norm
inline constexpr ProfileSignal signal_no_is_recompute = 1u << 5;   // a PyTorch forward entry without is_recompute (no profile alone)
inline constexpr ProfileSignal signal_numbered_grad = 1u << 6;     // "...parameters_grad.<k>" (no profile alone)
inline constexpr std::size_t k_signal_count = 7;
inline constexpr std::uint32_t k_legacy_signals =
    signal_is_recompute | signal_unnumbered_grad | signal_float_int_stats | signal_float8_stats;
inline constexpr std::uint32_t k_current_signals = signal_native_int_stats;

// "is_recompute in a forward entry", ... (for messages).
std::string_view describe(ProfileSignal s);

// The signals of an entry's name and section keys (not of its leaves).
std::uint32_t entry_signals(const EntryName& name, const pyjson::Value& entry, Framework framework);

// The signal of the statistics of a non-empty, non-0-dim PyTorch integer (`integer_dtype`) or
// float64 tensor: legacy computed all four in float32, current writes Max/Min in the native
// dtype and null Mean/Norm. An integer tensor's Max token tells (a float: legacy, an integer:
// current); float64's (and a null Max's) Mean does (a number: legacy, null with a Max: current).
// 0 when all are null (fake and meta tensors). A leaf that fits neither form is held to, and
// signals, the profile nearest to it by this rule.
std::uint32_t int_stats_signal(const pyjson::Value* max, const pyjson::Value* mean, bool integer_dtype);

// The signals of one tensor leaf, its dtype and shape classified here (for readers that do not
// run verify's leaf rules, which compute the same signals on their way).
std::uint32_t leaf_signals(const pyjson::Value& leaf, Framework framework);

// The summary mode a tensor leaf was written in: md5 (a "md5" and statistics), xor (a "md5"
// without statistics) or statistics (statistics, no "md5"); nullopt when it has neither
// (nan_check leaves, non-tensor leaves).
std::optional<SummaryMode> summary_mode_of_leaf(const pyjson::Value& leaf);

class ProfileEvidence {
 public:
  struct Seen {
    std::uint64_t entries = 0;  // entries carrying the signal
    std::string first;          // the first of them
    std::uint64_t line = 0;     // where its name stands
  };

  // Adds the signals of one entry (in file order).
  void note(std::uint32_t signals, std::string_view entry, std::uint64_t line);
  const Seen& seen(ProfileSignal s) const;
  bool any(std::uint32_t mask) const { return (m_all & mask) != 0; }

  // The profile the signals point to; when both profiles' were seen, the one carried by more
  // entries (legacy on a tie), and conflict() is true. Without any: current when PyTorch
  // forward entries lack is_recompute (and none has it), else nullopt (undetermined: e.g. no
  // forward entry, or a MindSpore dump without parameters_grad).
  std::optional<Profile> verdict() const;
  bool conflict() const { return any(k_legacy_signals) && any(k_current_signals); }
  // "is_recompute in a forward entry (12 entries, first Functional.relu.0.forward, line 7); ..."
  // for the signals of `mask` that were seen.
  std::string summary(std::uint32_t mask) const;

 private:
  std::array<Seen, k_signal_count> m_seen;
  std::uint32_t m_all = 0;
  std::uint64_t m_legacy_entries = 0, m_current_entries = 0;
};

}  // namespace msdump::dump
