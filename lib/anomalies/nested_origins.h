#pragma once
// At mix level a module's forward entry comes before the entries run inside it (msprobe adds
// it when the module is entered), so a module whose output turns non-finite because of an API
// call inside it would look like the first origin. The innermost entry is the origin: a module
// entry that is an origin while an origin or argument lies inside it (its module chain, from
// construct.json) is folded into that one's downstream. At L0 there is nothing inside a leaf
// module, and the module itself stays the origin.

#include "anomalies/origin_tracker.h"

namespace msdump::anomalies {

// Needs each anomaly's module and module_chain (module_tree.h) filled.
void fold_enclosing_origins(DumpAnalysis& analysis);

}  // namespace msdump::anomalies
