#pragma once
// The whole-file checks of a dump's format generation (docs/format.md §16), from the
// profile signals gathered entry by entry (dump/format_signals.h):
//   - signals of both profiles in one file (with --profile auto), or signals of the other
//     profile than the one given with --profile: kind profile;
//   - is_recompute in some PyTorch forward entries but not in others: kind profile;
//   - parameters_grad entries both with and without their counter: kind name.

#include <optional>

#include "core/profile.h"
#include "dump/format_signals.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

// `given`: the profile of --profile, nullopt for auto. Findings go to the sink's current file.
void check_profile_evidence(const dump::ProfileEvidence& evidence, std::optional<Profile> given, FindingSink& sink);

}  // namespace msdump::verify
