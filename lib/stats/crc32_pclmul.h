#pragma once
// Internal to lib/stats: the PCLMULQDQ part of crc32_update (crc32.cpp), in its own file because
// it is compiled with the sse4.2 tier's flags and only called when cpu_dispatch.h allows.

#include <cstddef>
#include <cstdint>

namespace msdump::stats::detail {

// Folds n bytes (n >= 64, n % 16 == 0) into the pre-inverted CRC register value c.
std::uint32_t crc32_pclmul_fold(std::uint32_t c, const unsigned char* p, std::size_t n);

}  // namespace msdump::stats::detail
