#include "dump/leaf_walk.h"

#include <cstdint>
#include <cstring>

namespace msdump::dump {

namespace {

// Whether `token` holds no '~' and no '/' (RFC 6901's two escaped bytes), 8 bytes at a time.
bool plain_token(std::string_view token) {
  constexpr std::uint64_t k_ones = 0x0101010101010101ull, k_highs = 0x8080808080808080ull;
  auto holds = [](std::uint64_t w) {
    const std::uint64_t tilde = w ^ (k_ones * '~'), slash = w ^ (k_ones * '/');
    return ((((tilde - k_ones) & ~tilde) | ((slash - k_ones) & ~slash)) & k_highs) != 0;  // a zero byte in either
  };
  const std::size_t n = token.size();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, token.data() + i, 8);
    if (holds(w)) return false;
  }
  if (i == n) return true;
  // The rest: as the last 8 bytes (some checked twice), or two overlapping 4-byte halves, or
  // up to 3 bytes padded with spaces.
  const char* t = token.data();
  std::uint64_t w = k_ones * ' ';
  if (n >= 8) {
    std::memcpy(&w, t + n - 8, 8);
  } else if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, t, 4);
    std::memcpy(&hi, t + n - 4, 4);
    w = lo | (std::uint64_t{hi} << 32);
  } else {
    for (std::size_t k = 0; k < n; ++k) w = (w << 8) | static_cast<unsigned char>(t[k]);
  }
  return !holds(w);
}

}  // namespace

void append_pointer_token(std::string& pointer, std::string_view token) {
  pointer += '/';
  if (plain_token(token)) {  // the usual token: one append
    pointer.append(token);
    return;
  }
  for (char c : token) {
    if (c == '~') pointer += "~0";
    else if (c == '/') pointer += "~1";
    else pointer += c;
  }
}

std::string leaf_pointer(const std::string& prefix, const std::string& section, const std::vector<std::string>& path) {
  std::string p = prefix;
  append_pointer_token(p, section);
  for (const auto& c : path) append_pointer_token(p, c);
  return p;
}

}  // namespace msdump::dump
