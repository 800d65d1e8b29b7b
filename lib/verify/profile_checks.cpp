#include "verify/profile_checks.h"

#include <fmt/format.h>

#include "dump/leaf_walk.h"

namespace msdump::verify {
namespace {

using dump::ProfileEvidence;
using dump::ProfileSignal;

// The first entry carrying any of `mask`'s signals.
const ProfileEvidence::Seen* first_of(const ProfileEvidence& ev, std::uint32_t mask) {
  const ProfileEvidence::Seen* best = nullptr;
  for (std::uint32_t bits = mask; bits != 0; bits &= bits - 1) {
    const auto& s = ev.seen(bits & (~bits + 1));
    if (s.entries != 0 && (best == nullptr || s.line < best->line)) best = &s;
  }
  return best;
}

std::string entries(std::uint64_t n) { return fmt::format("{} {}", n, n == 1 ? "entry" : "entries"); }

void add_at(FindingSink& sink, FindingKind kind, const ProfileEvidence::Seen& at, std::string message,
            std::string expected, std::string actual) {
  std::string pointer = "/data";
  dump::append_pointer_token(pointer, at.first);
  sink.set_line(at.line);
  sink.add(kind, at.first, pointer, std::move(message), std::move(expected), std::move(actual));
  sink.set_line(0);
}

std::uint32_t signals_of(Profile p) { return p == Profile::legacy ? dump::k_legacy_signals : dump::k_current_signals; }
Profile other(Profile p) { return p == Profile::legacy ? Profile::current : Profile::legacy; }

void check_profiles(const ProfileEvidence& ev, std::optional<Profile> given, FindingSink& sink) {
  if (given) {
    const Profile o = other(*given);
    if (const auto* at = first_of(ev, signals_of(o)))
      add_at(sink, FindingKind::profile, *at,
             fmt::format("{}-profile forms in a dump verified as {} (--profile {}): {}", to_string(o),
                         to_string(*given), to_string(*given), ev.summary(signals_of(o))),
             fmt::format("{} forms only", to_string(*given)), fmt::format("{} forms", to_string(o)));
    return;
  }
  if (!ev.conflict()) return;
  const Profile chosen = *ev.verdict();
  const Profile minority = other(chosen);
  add_at(sink, FindingKind::profile, *first_of(ev, signals_of(minority)),
         fmt::format("the dump mixes forms of two format profiles; legacy: {}; current: {}",
                     ev.summary(dump::k_legacy_signals), ev.summary(dump::k_current_signals)),
         fmt::format("{} forms only (the majority)", to_string(chosen)), fmt::format("{} forms", to_string(minority)));
}

void check_is_recompute(const ProfileEvidence& ev, FindingSink& sink) {
  const auto& with = ev.seen(dump::signal_is_recompute);
  const auto& without = ev.seen(dump::signal_no_is_recompute);
  if (with.entries == 0 || without.entries == 0) return;
  // msprobe writes it into every forward entry or into none: point at the first odd one out.
  const bool most_have_it = with.entries >= without.entries;
  add_at(sink, FindingKind::profile, most_have_it ? without : with,
         fmt::format("is_recompute is in {} and missing from {} of the PyTorch forward entries (first with it: {}; "
                     "first without: {})",
                     with.entries, without.entries, with.first, without.first),
         "is_recompute in every forward entry or in none", most_have_it ? "no is_recompute" : "is_recompute");
}

void check_grad_names(const ProfileEvidence& ev, FindingSink& sink) {
  const auto& numbered = ev.seen(dump::signal_numbered_grad);
  const auto& plain = ev.seen(dump::signal_unnumbered_grad);
  if (numbered.entries == 0 || plain.entries == 0) return;
  const bool later_is_plain = plain.line > numbered.line;
  add_at(sink, FindingKind::name, later_is_plain ? plain : numbered,
         fmt::format("parameters_grad entries are named both with their counter ({}, first {}) and without it ({}, "
                     "first {}): one msprobe build writes one form",
                     entries(numbered.entries), numbered.first, entries(plain.entries), plain.first),
         later_is_plain ? "<...>.parameters_grad.<k>" : "<...>.parameters_grad", later_is_plain ? plain.first : numbered.first);
}

}  // namespace

void check_profile_evidence(const ProfileEvidence& evidence, std::optional<Profile> given, FindingSink& sink) {
  check_profiles(evidence, given, sink);
  check_is_recompute(evidence, sink);
  check_grad_names(evidence, sink);
}

}  // namespace msdump::verify
