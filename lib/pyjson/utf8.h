#pragma once
// UTF-8 decoding and encoding shared by the reader and the writer (internal to pyjson).
// "Valid" means what Python's strict utf-8 codec accepts: no overlong forms, no encoded
// surrogates (U+D800-U+DFFF), nothing above U+10FFFF.

#include <cstddef>
#include <string>

namespace msdump::pyjson::utf8 {

// Decodes the multi-byte sequence at p (p < end, *p >= 0x80). Returns its length (2-4) and
// sets `cp`, or returns 0 if the bytes at p are not a valid sequence (including one cut off by
// `end`).
inline std::size_t decode(const unsigned char* p, const unsigned char* end, unsigned& cp) {
  const unsigned c = *p;
  std::size_t len;
  unsigned min;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2, cp = c & 0x1F, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, cp = c & 0x0F, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (static_cast<std::size_t>(end - p) < len) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// True if the bytes from p could still become a valid sequence when more bytes follow `end`
// (used to tell a cut-off file from a corrupt one).
inline bool is_valid_prefix(const unsigned char* p, const unsigned char* end) {
  const unsigned c = *p;
  std::size_t len;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
  } else {
    return false;
  }
  const auto avail = static_cast<std::size_t>(end - p);
  if (avail >= len) return false;
  for (std::size_t i = 1; i < avail; ++i) {
    if ((p[i] & 0xC0) != 0x80) return false;
  }
  return true;
}

// Appends code point `cp` (not a surrogate, <= U+10FFFF) as UTF-8.
inline void encode(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    const char b[2] = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    out.append(b, 2);
  } else if (cp < 0x10000) {
    const char b[3] = {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                       static_cast<char>(0x80 | (cp & 0x3F))};
    out.append(b, 3);
  } else {
    const char b[4] = {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                       static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    out.append(b, 4);
  }
}

}  // namespace msdump::pyjson::utf8
