#pragma once
// msprobe's "xor" summary checksum (docs/format.md §6.6): the tensor's bytes, zero-padded to a
// multiple of 8, read as little-endian 64-bit words and XORed together. Incremental and
// mergeable: every byte is XORed into the lane given by its offset from the start of the
// tensor modulo 8, so parts may start anywhere as long as each knows its start offset.

#include <cstddef>
#include <cstdint>
#include <span>

namespace msdump::stats {

class XorChecksum {
 public:
  // `start_offset`: offset of the first byte this instance will see, from the tensor's start.
  explicit XorChecksum(std::uint64_t start_offset = 0) : m_offset(start_offset) {}

  // Folds in the next bytes of the tensor.
  void update(std::span<const std::byte> bytes);
  // Folds in the checksum of another part of the same tensor (any part, any order).
  void merge(const XorChecksum& other) { m_word ^= other.m_word; }
  // The XOR of all words so far, as an unsigned 64-bit value (format it "0x%016x").
  std::uint64_t value() const { return m_word; }

 private:
  std::uint64_t m_offset;     // tensor offset of the next byte
  std::uint64_t m_word = 0;  // XOR of the words, in tensor byte phase
};

// The checksum of a whole buffer that starts at tensor offset 0.
std::uint64_t xor_checksum(std::span<const std::byte> bytes);

}  // namespace msdump::stats
