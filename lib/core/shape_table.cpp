#include "core/shape_table.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace msdump {

// XXH3 (SSE2 stripes on long input): a mix 8 bytes a step took 1.6x its instructions on compare's
// shapes of a few hundred bytes.
std::size_t shape_hash(std::string_view s) noexcept { return static_cast<std::size_t>(XXH3_64bits(s.data(), s.size())); }

}  // namespace msdump
