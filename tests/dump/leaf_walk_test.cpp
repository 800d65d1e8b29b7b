#include "dump/leaf_walk.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump::dump;

namespace {

// RFC 6901, byte by byte.
std::string reference_token(std::string_view token) {
  std::string out = "/";
  for (const char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("pointer tokens: '~' and '/' escaped at every position of tokens of every length") {
    for (std::size_t n = 0; n <= 26; ++n) {
      std::string plain;
      for (std::size_t i = 0; i < n; ++i) plain += "az.0_"[i % 5];
      std::string p = "/data";
      append_pointer_token(p, plain);
      CHECK(p == "/data" + reference_token(plain));
      for (std::size_t i = 0; i < n; ++i) {
        // the two escaped bytes, and bytes one bit away from them
        for (const char c : std::string("~/.\xfe\xaf\x7f\x6e\x3f")) {
          std::string t = plain;
          t[i] = c;
          std::string q = "/x";
          append_pointer_token(q, t);
          CHECK(q == "/x" + reference_token(t));
        }
      }
    }
    std::string p;
    append_pointer_token(p, "a~b/c");
    CHECK(p == "/a~0b~1c");
  }
}
