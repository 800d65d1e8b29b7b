#include "pyjson/size_hints.h"

#include <doctest/doctest.h>

using namespace msdump::pyjson;

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("size hints: the largest container closed at each depth, capped, never lowered") {
    SizeHints hints(11);
    CHECK(hints.guess(0) == 0);
    CHECK(hints.guess(3) == 0);
    hints.note(3, 9);
    CHECK(hints.guess(3) == 9);
    CHECK(hints.guess(2) == 0);  // depths are separate
    CHECK(hints.guess(4) == 0);
    hints.note(3, 2);  // a smaller one does not lower the guess
    CHECK(hints.guess(3) == 9);
    hints.note(3, 10);
    CHECK(hints.guess(3) == 10);
    hints.note(3, 500);  // capped
    CHECK(hints.guess(3) == 11);
    hints.note(0, 1);
    CHECK(hints.guess(0) == 1);
  }

  TEST_CASE("size hints: no guess beyond the depths kept, and caps above 255 are 255") {
    SizeHints hints(1000);
    hints.note(SizeHints::k_depths - 1, 7);
    CHECK(hints.guess(SizeHints::k_depths - 1) == 7);
    hints.note(SizeHints::k_depths, 7);
    CHECK(hints.guess(SizeHints::k_depths) == 0);
    CHECK(hints.guess(100000) == 0);
    hints.note(1, 100000);
    CHECK(hints.guess(1) == 255);
  }
}
