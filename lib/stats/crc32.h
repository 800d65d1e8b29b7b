#pragma once
// CRC-32 as zlib.crc32 computes it (IEEE 802.3: reflected polynomial 0xEDB88320, initial value
// and final xor 0xFFFFFFFF). msprobe's "md5" summary mode writes this CRC of a tensor's bytes
// as "%08x" (docs/format.md §6.6). Uses PCLMULQDQ folding when the SIMD tier allows it
// (cpu_dispatch.h), slice-by-8 tables otherwise; both give identical results.

#include <cstddef>
#include <cstdint>
#include <span>

namespace msdump::stats {

// Continues a CRC: crc32_update(crc32_update(0, a), b) == crc32(a ++ b). Start with 0, exactly
// like zlib.crc32(data, value).
std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::byte> bytes);

// CRC-32 of `bytes` (crc32("123456789") == 0xcbf43926).
inline std::uint32_t crc32(std::span<const std::byte> bytes) { return crc32_update(0, bytes); }

// CRC of the concatenation a ++ b from crc_a = crc32(a), crc_b = crc32(b) and b's length, like
// zlib's crc32_combine. Lets threads checksum adjacent parts of one tensor independently.
std::uint32_t crc32_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::uint64_t length_b);

// The table-driven implementation alone (for tests that hold the fast path to it).
std::uint32_t crc32_update_table(std::uint32_t crc, std::span<const std::byte> bytes);

}  // namespace msdump::stats
