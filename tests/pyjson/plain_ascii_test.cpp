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
  TEST_CASE("plain json text: no backslash, DEL, non-ASCII or control byte but tab, newline, return") {
    const auto allowed = [](int c) {
      return c != '\\' && c != 0x7F && c < 0x80 && (c >= 0x20 || c == '\t' || c == '\n' || c == '\r');
    };
    int bad = 0;
    for (std::size_t n = 1; n <= 40 && bad < 5; ++n) {
      for (int c = 0; c < 256 && bad < 5; ++c) {
        for (std::size_t at = 0; at < n && bad < 5; ++at) {
          std::vector<char> text(n, '"');  // (quotes are plain here: they delimit, never escape)
          text[at] = static_cast<char>(c);
          if (plain_json_text(std::string_view(text.data(), n)) != allowed(c)) {
            ++bad;
            FAIL_CHECK("n=" << n << " c=" << c << " at=" << at);
          }
        }
      }
    }
    CHECK(bad == 0);
    CHECK(plain_json_text(""));
    CHECK(plain_json_text("{\n \"a\": [1, 2.5, \"x y\"]\r\n}"));
    CHECK_FALSE(plain_json_text("{\"a\": \"caf\\u00e9\"}"));
  }
}
