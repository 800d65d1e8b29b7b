#include "compare/cell.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("Cell::str is Python's str()") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(Cell::floating(1.0).str() == "1.0");
    CHECK(Cell::floating(-0.0).str() == "-0.0");
    CHECK(Cell::floating(2.6616761684417725).str() == "2.6616761684417725");
    CHECK(Cell::floating(1e-05).str() == "1e-05");
    CHECK(Cell::floating(1e16).str() == "1e+16");
    CHECK(Cell::floating(inf).str() == "inf");
    CHECK(Cell::floating(-inf).str() == "-inf");
    CHECK(Cell::floating(std::nan("")).str() == "nan");
    CHECK(Cell::integer(15).str() == "15");
    CHECK(Cell::integer(std::numeric_limits<std::int64_t>::min()).str() == "-9223372036854775808");
    CHECK(Cell::big_integer("123456789012345678901234567890").str() == "123456789012345678901234567890");
    CHECK(Cell::boolean(true).str() == "True");
    CHECK(Cell::boolean(false).str() == "False");
    CHECK(Cell::text("N/A").str() == "N/A");
    CHECK(Cell().str().empty());
    std::string out = "x=";
    Cell::floating(0.5).append_str(out);
    CHECK(out == "x=0.5");
  }
  TEST_CASE("kept floats hold their str(); views borrow the text they show") {
    const double inf = std::numeric_limits<double>::infinity();
    for (double v : {1.0, -0.0, 2.6616761684417725, 1e-05, 1e16, inf, -inf, std::nan("")}) {
      const Cell kept = Cell::floating_kept(v);
      CHECK(kept.str() == Cell::floating(v).str());
      CHECK(kept == Cell::floating(v));
      CHECK(kept.kept_str() == (std::isfinite(v) ? Cell::floating(v).str() : std::string()));
      CHECK(Cell::view_of(kept).str() == kept.str());
    }
    CHECK(Cell::integer(15).kept_str().empty());
    CHECK(Cell::boolean(true).kept_str().empty());
    CHECK(Cell::big_integer("123456789012345678901234567890").kept_str() == "123456789012345678901234567890");
    std::string shown = "abc";
    const Cell view = Cell::view(shown);
    CHECK(view.is_text());
    CHECK(view.as_text().data() == shown.data());  // borrowed, not copied
    CHECK(view == Cell::text("abc"));
    const Cell owned = Cell::text("a text longer than the small-string buffer");
    CHECK(Cell::view_of(owned).as_text().data() == owned.as_text().data());
    CHECK(Cell::view_of(Cell::integer(7)) == Cell::integer(7));
  }
  TEST_CASE("a cell set in place is the cell made anew, whatever it held before") {
    const double inf = std::numeric_limits<double>::infinity();
    std::string shown = "viewed";
    for (const Cell& before : {Cell::text("a text longer than the small-string buffer"), Cell::plain_text("12.5%"),
                               Cell::view(shown), Cell::integer(-3), Cell::big_integer("123456789012345678901234567890"),
                               Cell::floating_kept(0.25), Cell::boolean(true)}) {
      for (double v : {1.0, -0.0, 2.6616761684417725, inf, std::nan("")}) {
        Cell c = before;
        c.set_floating_kept(v);
        CHECK(c == Cell::floating_kept(v));
        CHECK(c.kept_str() == Cell::floating_kept(v).kept_str());
        CHECK(!c.is_plain_text());
        CHECK(!c.is_big_integer());
      }
      for (std::string_view text : {"0", "N/A", "12.5%", "a text longer than the thirty-two bytes held inline"}) {
        Cell c = before;
        c.set_plain_text(text);
        CHECK(c == Cell::plain_text(text));
        CHECK(c.as_text() == text);
        CHECK(c.is_plain_text());
        CHECK(c.text_inline() == (text.size() <= Cell::k_inline_bytes));
      }
      Cell c = before;
      c.clear();
      CHECK(c == Cell());
      CHECK(c.as_text().empty());
      CHECK(!c.is_plain_text());
    }
  }
  TEST_CASE("a cell's text is inline (k_inline_bytes readable) only when the cell holds it") {
    std::string shown = "viewed";
    CHECK(Cell::short_text("N/A").text_inline());
    CHECK(Cell::floating_kept(2.6616761684417725).text_inline());
    CHECK(Cell::floating_kept(2.6616761684417725).as_text() == "2.6616761684417725");
    CHECK_FALSE(Cell::floating_kept(std::nan("")).text_inline());  // no str() kept
    CHECK_FALSE(Cell::view(shown).text_inline());
    CHECK_FALSE(Cell::view_of(Cell::short_text("N/A")).text_inline());
    CHECK_FALSE(Cell::text(std::string(40, 'x')).text_inline());
    CHECK_FALSE(Cell::integer(3).text_inline());
    CHECK_FALSE(Cell().text_inline());
  }
  TEST_CASE("Cell::to_double") {
    CHECK(Cell::integer(-3).to_double() == -3.0);
    CHECK(Cell::floating(0.25).to_double() == 0.25);
    CHECK(Cell::big_integer("18446744073709551617").to_double() == 18446744073709551616.0);
    CHECK(Cell::boolean(true).to_double() == 1.0);
    CHECK(std::isnan(Cell::text("1.0").to_double()));
  }
  TEST_CASE("Cell equality: same kind and same value") {
    CHECK(Cell::text("1") == Cell::text("1"));
    CHECK_FALSE(Cell::text("1") == Cell::integer(1));
    CHECK_FALSE(Cell::integer(1) == Cell::floating(1.0));
    CHECK_FALSE(Cell::integer(1) == Cell::boolean(true));
    CHECK(Cell::floating(std::nan("")) == Cell::floating(std::nan("")));
    CHECK_FALSE(Cell::floating(0.0) == Cell::floating(-0.0));
    CHECK(Cell::big_integer("99999999999999999999") == Cell::big_integer("99999999999999999999"));
    CHECK_FALSE(Cell::big_integer("1") == Cell::integer(1));
    CHECK(Cell::boolean(false) == Cell::boolean(false));
  }
}
