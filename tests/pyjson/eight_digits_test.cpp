#include "pyjson/eight_digits.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>

using msdump::pyjson::eight_digits;

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("eight_digits folds 8 ASCII digits into the value before them, and nothing else") {
    if constexpr (std::endian::native != std::endian::little) {
      std::uint64_t acc = 7;
      CHECK_FALSE(eight_digits("12345678", acc));  // (other byte orders: one digit at a time)
      CHECK(acc == 7);
      return;
    }
    std::uint64_t acc = 0;
    REQUIRE(eight_digits("12345678", acc));
    CHECK(acc == 12345678);
    REQUIRE(eight_digits("00000009", acc));
    CHECK(acc == 1234567800000009ull);
    acc = 0;
    REQUIRE(eight_digits("99999999", acc));
    CHECK(acc == 99999999);
    // Any byte that is not a digit, at any of the 8 places, leaves the value as it was: the
    // bytes on either side of '0'-'9' and some far from them.
    for (const char bad : {'/', ':', '.', 'e', '-', ' ', '\0', '\x80', '\xb0', '\xff', 'P', '`'}) {
      for (int at = 0; at < 8; ++at) {
        std::string text = "31415926";
        text[static_cast<std::size_t>(at)] = bad;
        std::uint64_t unchanged = 5;
        CAPTURE(at);
        CAPTURE(static_cast<int>(static_cast<unsigned char>(bad)));
        CHECK_FALSE(eight_digits(text.data(), unchanged));
        CHECK(unchanged == 5);
      }
    }
  }
}
