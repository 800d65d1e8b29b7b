#include "compare/formula_risk.h"

#include <doctest/doctest.h>

using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("formula_risk: the leading characters and ';' followed by one") {
    for (const char* s : {"+x", "-x", "=SUM(A1)", "%y", "@cmd", "\uff0bx", "\uff0dx", "\uff1dx", "\uff05x", "\uff20x",
                          "a;-b", "a;=1", "a;\uff20b", "-", "1;-x", "-1;x"}) {
      CAPTURE(s);
      CHECK(formula_risk(s));
    }
  }
  TEST_CASE("formula_risk: plain texts and numbers are safe") {
    for (const char* s : {"", "N/A", "a-b", "x=1", "a;b", "50%", "['-1', '-1']", "[\"error: x\"]", "-inf", "-1.5e-05",
                          "nan", "+NaN", "-Infinity", " -1 ", "-1;-2", "1;-2.5", "-1_000", "\uff0ex", "\uff0c"}) {
      CAPTURE(s);
      CHECK_FALSE(formula_risk(s));
    }
  }
  TEST_CASE("parses_as_python_float follows float()") {
    for (const char* s : {"-inf", "-1.5e-05", "nan", "+NaN", " -1 ", "1_000.5", ".5", "5.", "1e5", "infinity",
                          "-Infinity", "\t2\n"}) {
      CAPTURE(s);
      CHECK(parses_as_python_float(s));
    }
    for (const char* s : {"1__0", "_1", "1_", "-.", "-x", "", " ", "1e", "1e+_5", "infi", "0x10", "1.2.3", "--1",
                          "1e5_", "1 2"}) {
      CAPTURE(s);
      CHECK_FALSE(parses_as_python_float(s));
    }
  }
}
