#include "pyjson/plain_ascii.h"

#include <doctest/doctest.h>

#include <vector>

using namespace msdump::pyjson;

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("plain ascii: the run stops at the first '\"', '\\\\', control, DEL or non-ASCII byte, whatever the length") {
    int bad = 0;
    for (std::size_t n = 0; n <= 70 && bad < 5; ++n) {
      for (int c = 0; c < 256 && bad < 5; ++c) {
        for (std::size_t at = 0; at <= n && bad < 5; ++at) {
          // exact-size buffer: no slack after `end` for a read past it (ASan builds check)
          std::vector<unsigned char> text(n);
          for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<unsigned char>('a' + i % 26);
          if (at < n) text[at] = static_cast<unsigned char>(c);
          std::size_t want = 0;
          while (want < n && k_plain_ascii[text[want]]) ++want;
          const unsigned char* got = skip_plain_ascii(text.data(), text.data() + n);
          if (got != text.data() + want) {
            ++bad;
            FAIL_CHECK("n=" << n << " c=" << c << " at=" << at << ": " << (got - text.data()) << " vs " << want);
          }
        }
      }
    }
    CHECK(bad == 0);
    CHECK_FALSE(k_plain_ascii['"']);
    CHECK_FALSE(k_plain_ascii['\\']);
    CHECK_FALSE(k_plain_ascii[0x1F]);
    CHECK_FALSE(k_plain_ascii[0x7F]);
    CHECK_FALSE(k_plain_ascii[0x80]);
    CHECK(k_plain_ascii[' ']);
    CHECK(k_plain_ascii['~']);
  }
}
