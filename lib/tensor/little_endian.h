#pragma once
// Little-endian integer loads and stores on byte spans, shared by the zip, pickle and npy code.
// Callers bounds-check first; these helpers only assemble bytes (no alignment requirement).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace msdump::tensor::le {

// Reads an unsigned little-endian integer of sizeof(T) bytes at p[0..sizeof(T)).
template <typename T>
T load(const std::byte* p) {
  T v = 0;
  for (std::size_t k = sizeof(T); k-- > 0;) v = static_cast<T>((v << 8) | static_cast<T>(std::to_integer<std::uint8_t>(p[k])));
  return v;
}

// Reads at `offset` in `bytes`; the caller has checked offset + sizeof(T) <= bytes.size().
template <typename T>
T load(std::span<const std::byte> bytes, std::size_t offset) {
  return load<T>(bytes.data() + offset);
}

// Appends `v` as sizeof(T) little-endian bytes.
template <typename T>
void append(std::string& out, T v) {
  for (std::size_t k = 0; k < sizeof(T); ++k) out.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * k)) & 0xFF));
}

}  // namespace msdump::tensor::le
