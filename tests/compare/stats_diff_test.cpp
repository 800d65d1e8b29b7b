#include "compare/stats_diff.h"

#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "compare/formula_risk.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();

Cell t(const char* s) { return Cell::text(s); }
Cell f(double v) { return Cell::floating(v); }
Cell i(std::int64_t v) { return Cell::integer(v); }
Cell b(bool v) { return Cell::boolean(v); }

// "diff | rel" of one statistic pair.
std::string diff(const Cell& npu, const Cell& bench) {
  const auto [d, r] = stat_diff(npu, bench);
  REQUIRE(d.is_text());
  REQUIRE(r.is_text());
  return std::string(d.as_text()) + " | " + std::string(r.as_text());
}

std::string cls(const Cell& c) {
  double v = 0.0;
  return std::string(to_string(classify_stat(c, v)));
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("stats diff: cells equal as Python str give the text 0") {
    CHECK(diff(f(1.5), f(1.5)) == "0 | 0");
    CHECK(diff(t("Nan"), t("Nan")) == "0 | 0");
    CHECK(diff(t("None"), t("None")) == "0 | 0");
    CHECK(diff(f(k_inf), f(k_inf)) == "0 | 0");
    CHECK(diff(f(k_inf), t("inf")) == "0 | 0");  // str(float inf) is "inf"
    CHECK(diff(i(3), i(3)) == "0 | 0");
    CHECK(diff(b(true), b(true)) == "0 | 0");
    CHECK(diff(b(false), t("False")) == "0 | 0");
    CHECK(diff(t("N/A"), t("N/A")) == "0 | 0");
  }

  TEST_CASE("stats diff: equality is textual, so 1.0 vs 1 and -0.0 vs 0.0 are computed") {
    CHECK(diff(f(1.0), i(1)) == "0.0 | 0.0%");
    CHECK(diff(f(-0.0), f(0.0)) == "-0.0 | inf");
  }

  TEST_CASE("stats diff: two numbers give npu - bench and |diff / bench * 100| %") {
    CHECK(diff(i(5), i(0)) == "5.0 | inf");
    CHECK(diff(i(3), i(5)) == "-2.0 | 40.0%");
    CHECK(diff(f(0.5), f(1.0)) == "-0.5 | 50.0%");
    CHECK(diff(t("5"), i(3)) == "2.0 | 66.66666666666666%");  // a text that reads as a number
    CHECK(diff(f(2.0), f(-0.0)) == "2.0 | inf");
    // Small and large results are written as Python writes them.
    CHECK(diff(f(1e-05), f(2e-05)) == "-1e-05 | 50.0%");
    CHECK(diff(f(3e16), f(1e16)) == "2e+16 | 200.0%");
  }

  TEST_CASE("stats diff: the numbers are the cells' texts read back as pandas reads them") {
    // Values from a real table (conv2d, relu in bf16 against fp32): Python's exact reading of
    // 1.0508697032928467 would give -0.00399470329284668 and 0.38013307266633345%.
    CHECK(diff(f(1.046875), f(1.0508697032928467)) == "-0.003994703292846902 | 0.38013307266635454%");
    CHECK(diff(f(-0.10546875), f(-0.10559054464101791)) == "0.00012179464101789994 | 0.1153461623216094%");
  }

  TEST_CASE("stats diff: pandas_parse_float keeps 17 digits, leading zeros included") {
    CHECK(pandas_parse_float("1.0508697032928467") == 1.050869703292847);
    CHECK(pandas_parse_float("0.00019311904907248767") == 0.0001931190490724);
    CHECK(pandas_parse_float("1e-05") == 1e-05);
    CHECK(pandas_parse_float("-2.9103830456733704e-11") == -2.9103830456733704e-11);
    CHECK(pandas_parse_float("123456789012345678901") == 1.2345678901234568e+20);
    CHECK(pandas_parse_float("  2.5 ") == 2.5);
    CHECK(pandas_parse_float("5e-324") == 5e-324);
    CHECK(pandas_parse_float("1.7976931348623157e+308") == 1.7976931348623157e+308);
    CHECK(pandas_parse_float("+inf") == k_inf);
    CHECK(pandas_parse_float("-Infinity") == -k_inf);
    CHECK_FALSE(pandas_parse_float(" inf").has_value());  // the infinity words take no spaces
    CHECK_FALSE(pandas_parse_float("1e400").has_value());
    CHECK_FALSE(pandas_parse_float("1e").has_value());
    CHECK_FALSE(pandas_parse_float("1e+").has_value());
    CHECK_FALSE(pandas_parse_float("").has_value());
    CHECK_FALSE(pandas_parse_float(".").has_value());
    CHECK_FALSE(pandas_parse_float("nan").has_value());
    CHECK_FALSE(pandas_parse_float("1.5x").has_value());
    CHECK_FALSE(pandas_parse_float("[0, 1]").has_value());
  }

  TEST_CASE("stats diff: pandas_parse_float's mantissa is xstrtod's double sum, digit by digit") {
    // xstrtod's loop as pandas writes it: number = number * 10.0 + digit for the first 17
    // digits (leading zeros included), the rest only moving the exponent.
    const auto reference = [](const std::string& text) {
      double number = 0.0;
      int digits = 0;
      long exponent = 0;
      std::size_t p = text[0] == '-' ? 1 : 0;
      for (; p < text.size() && std::isdigit(static_cast<unsigned char>(text[p])); ++p) {
        if (digits < 17) {
          number = number * 10.0 + (text[p] - '0');
          ++digits;
        } else {
          ++exponent;
        }
      }
      if (p < text.size() && text[p] == '.') {
        for (++p; p < text.size() && std::isdigit(static_cast<unsigned char>(text[p])); ++p) {
          if (digits < 17) {
            number = number * 10.0 + (text[p] - '0');
            ++digits;
            --exponent;
          }
        }
      }
      if (p < text.size()) exponent += std::stol(text.substr(p + 1));
      const double scale = std::stod("1e" + std::to_string(exponent < 0 ? -exponent : exponent));
      number = exponent < 0 ? number / scale : number * scale;
      return text[0] == '-' ? -number : number;
    };
    std::mt19937_64 rng(23);
    int rounded = 0;  // texts whose mantissa passes 2^53, where the double sum can round
    for (int k = 0; k < 50000; ++k) {
      std::string text = rng() % 2 ? "-" : "";
      const auto run = [&](std::size_t n) {
        for (std::size_t d = 0; d < n; ++d) text += static_cast<char>('0' + rng() % 10);
      };
      run(1 + rng() % 20);
      if (rng() % 4 != 0) {
        text += '.';
        run(1 + rng() % 22);
      }
      if (rng() % 3 == 0) text += "e" + std::to_string(static_cast<int>(rng() % 40) - 20);
      const auto got = pandas_parse_float(text);
      REQUIRE_MESSAGE(got.has_value(), text);
      CHECK_MESSAGE(*got == reference(text), text);
      std::uint64_t first17 = 0;
      int taken = 0;
      for (std::size_t p = 0; p < text.size() && text[p] != 'e' && taken < 17; ++p) {
        if (std::isdigit(static_cast<unsigned char>(text[p]))) {
          first17 = first17 * 10 + static_cast<unsigned>(text[p] - '0');
          ++taken;
        }
      }
      if (first17 > (std::uint64_t{1} << 53)) ++rounded;
    }
    CHECK(rounded > 1000);
  }

  TEST_CASE("stats diff: parse_python_float reads what Python's float() reads") {
    CHECK(parse_python_float("0.38013307266635454") == 0.38013307266635454);
    CHECK(parse_python_float(" -1.5e3 ") == -1500.0);
    CHECK(parse_python_float("inf") == k_inf);
    CHECK(parse_python_float("-Infinity") == -k_inf);
    CHECK(std::isnan(*parse_python_float("Nan")));
    CHECK(parse_python_float("1e400") == k_inf);
    CHECK_FALSE(parse_python_float("N/A").has_value());
    CHECK_FALSE(parse_python_float("--1").has_value());
    CHECK_FALSE(parse_python_float("").has_value());
  }

  TEST_CASE("stats diff: classification of cells") {
    CHECK(cls(f(1.5)) == "NUM");
    CHECK(cls(i(-7)) == "NUM");
    CHECK(cls(Cell::big_integer("123456789012345678901234")) == "NUM");
    CHECK(cls(t("2.5")) == "NUM");
    CHECK(cls(t("Infinity")) == "NUM");  // read as a number, not spelled "inf"
    CHECK(cls(f(std::nan(""))) == "NAN");
    CHECK(cls(t("Nan")) == "NAN");
    CHECK(cls(t("NAN")) == "NAN");
    CHECK(cls(f(k_inf)) == "INF");
    CHECK(cls(t("Inf")) == "INF");
    CHECK(cls(f(-k_inf)) == "NEG_INF");
    CHECK(cls(t("-inf")) == "NEG_INF");
    CHECK(cls(t("N/A")) == "NA");
    CHECK(cls(t("cpu")) == "DEVICE");
    CHECK(cls(t("NPU:0")) == "DEVICE");
    CHECK(cls(t("cuda:1")) == "DEVICE");
    CHECK(cls(b(true)) == "OTHER");
    CHECK(cls(t("True")) == "OTHER");
    CHECK(cls(t("false")) == "OTHER");
    CHECK(cls(t("None")) == "OTHER");
    CHECK(cls(t("<class 'int'>")) == "OTHER");
    CHECK(cls(t("")) == "OTHER");
    CHECK(cls(t("[0, 1]")) == "OTHER");
  }

  TEST_CASE("stats diff: the table of results for cells that are not both numbers") {
    // NUM against the others.
    CHECK(diff(f(1.5), t("Nan")) == "Nan | Nan");
    CHECK(diff(f(1.5), f(k_inf)) == "-inf | -inf");
    CHECK(diff(f(1.5), f(-k_inf)) == "inf | inf");
    CHECK(diff(f(1.5), t("N/A")) == "N/A | N/A");
    CHECK(diff(f(1.5), t("cpu")) == "Diff | Diff");
    CHECK(diff(f(1.5), t("None")) == "Diff | Diff");
    // NAN row.
    CHECK(diff(t("Nan"), f(2.0)) == "Nan | Nan");
    CHECK(diff(f(std::nan("")), t("Nan")) == "Nan | Nan");  // "nan" and "Nan" differ as text
    CHECK(diff(t("Nan"), f(k_inf)) == "Nan | Nan");
    CHECK(diff(t("Nan"), f(-k_inf)) == "Nan | Nan");
    CHECK(diff(t("Nan"), t("N/A")) == "N/A | N/A");
    CHECK(diff(t("Nan"), t("npu:0")) == "Diff | Diff");
    CHECK(diff(t("Nan"), t("None")) == "Diff | Diff");
    // INF row.
    CHECK(diff(f(k_inf), f(2.0)) == "inf | inf");
    CHECK(diff(f(k_inf), t("Nan")) == "Nan | Nan");
    CHECK(diff(t("Inf"), f(k_inf)) == "N/A | N/A");  // same value spelled otherwise: no rule
    CHECK(diff(f(k_inf), f(-k_inf)) == "inf | inf");
    CHECK(diff(f(k_inf), t("N/A")) == "N/A | N/A");
    CHECK(diff(f(k_inf), t("cpu")) == "Diff | Diff");
    CHECK(diff(f(k_inf), b(false)) == "Diff | Diff");
    // NEG_INF row.
    CHECK(diff(f(-k_inf), f(2.0)) == "-inf | -inf");
    CHECK(diff(f(-k_inf), t("Nan")) == "Nan | Nan");
    CHECK(diff(f(-k_inf), f(k_inf)) == "-inf | -inf");
    CHECK(diff(t("-INF"), f(-k_inf)) == "N/A | N/A");
    CHECK(diff(f(-k_inf), t("N/A")) == "N/A | N/A");
    CHECK(diff(f(-k_inf), t("cuda")) == "Diff | Diff");
    CHECK(diff(f(-k_inf), t("None")) == "Diff | Diff");
    // NA row: always N/A.
    for (const Cell& other : {f(1.0), t("Nan"), f(k_inf), f(-k_inf), t("cpu"), t("None"), b(true)}) {
      CHECK(diff(t("N/A"), other) == "N/A | N/A");
    }
    // DEVICE row.
    CHECK(diff(t("cpu"), f(1.0)) == "Diff | Diff");
    CHECK(diff(t("cpu"), t("Nan")) == "Diff | Diff");
    CHECK(diff(t("cpu"), f(k_inf)) == "Diff | Diff");
    CHECK(diff(t("cpu"), f(-k_inf)) == "Diff | Diff");
    CHECK(diff(t("cpu"), t("N/A")) == "N/A | N/A");
    CHECK(diff(t("cpu"), t("npu:0")) == "N/A | N/A");
    CHECK(diff(t("cpu"), t("None")) == "Diff | Diff");
    // OTHER row.
    CHECK(diff(b(true), b(false)) == "Diff | Diff");
    CHECK(diff(b(true), i(1)) == "Diff | Diff");
    CHECK(diff(t("None"), f(1.0)) == "Diff | Diff");
    CHECK(diff(t("None"), t("Nan")) == "Diff | Diff");
    CHECK(diff(t("None"), f(k_inf)) == "Diff | Diff");
    CHECK(diff(t("None"), f(-k_inf)) == "Diff | Diff");
    CHECK(diff(t("None"), t("N/A")) == "N/A | N/A");
    CHECK(diff(t("None"), t("cpu")) == "Diff | Diff");
    CHECK(diff(t("torch.float32"), t("torch.float16")) == "Diff | Diff");
  }

  TEST_CASE("stats diff: the eight cells of a row, in table order") {
    Row npu;
    npu.stats = {f(3.0), i(-1), t("Nan"), f(k_inf)};
    Row bench;
    bench.stats = {f(2.0), i(-1), f(0.5), f(4.0)};
    const auto cells = stats_diff(npu, &bench);
    std::string joined;
    for (const Cell& c : cells) {
      REQUIRE(c.is_text());
      joined += std::string(c.as_text()) + ";";
    }
    CHECK(joined == "1.0;0;Nan;inf;50.0%;0;Nan;inf;");
  }

  TEST_CASE("stats diff: every cell is a plain text, which a CSV writer may copy as it is") {
    // What Cell::plain_text promises: nothing a CSV field quotes, no ';', no formula-like start.
    std::vector<Cell> cells = {t("N/A"), t("None"), t("cpu"), t("Nan"), t("inf"), t("-inf"), t("-Infinity"), t("True"), b(true),
                               i(0), i(-3), i(1234567), f(0.0), f(-0.0), f(k_inf), f(-k_inf), f(std::nan(""))};
    std::mt19937_64 rng(20261203);
    for (int k = 0; k < 400; ++k) {
      const double v = std::ldexp(static_cast<double>(rng() % 1000000) - 500000.0, static_cast<int>(rng() % 200) - 100);
      cells.push_back(k % 2 ? f(v) : Cell::floating_kept(v));
    }
    int checked = 0;
    for (const Cell& n : cells)
      for (const Cell& bc : cells)
        for (const Cell& c : {stat_diff(n, bc).first, stat_diff(n, bc).second}) {
          const std::string_view s = c.as_text();
          if (!c.is_plain_text() || s.find_first_of(",\"\n\r;") != std::string_view::npos || formula_risk(s))
            FAIL_CHECK(s << " (from " << n.str() << " and " << bc.str() << ")");
          ++checked;
        }
    for (const Cell& c : stats_diff(Row{}, nullptr)) CHECK(c.is_plain_text());
    CHECK(checked > 300000);
  }

  TEST_CASE("stats diff: cells made in place, over cells that held anything, equal fresh ones") {
    // fill_metrics reuses a table row's cells row after row: whatever a cell held (a long text,
    // a borrowed one, a number, a kept float) must not show through.
    std::vector<Cell> values = {f(3.0), i(-1), t("Nan"), f(k_inf), f(0.0), t("N/A"), f(-2.5e-7), i(0), t("cpu")};
    const std::vector<Cell> dirty = {Cell::text(std::string(100, 'x')), Cell::view("borrowed"), i(7), Cell::floating_kept(1.5),
                                     b(true), Cell::big_integer("123456789012345678901234567890"), Cell::plain_text("0")};
    std::mt19937 rng(8);
    for (int k = 0; k < 2000; ++k) {
      Row npu, bench;
      for (std::size_t s = 0; s < 4; ++s) {
        npu.stats[s] = values[rng() % values.size()];
        bench.stats[s] = values[rng() % values.size()];
      }
      std::array<Cell, 8> reused;
      for (Cell& c : reused) c = dirty[rng() % dirty.size()];
      const bool partner = k % 5 != 0;
      stats_diff(npu, partner ? &bench : nullptr, reused);
      const auto fresh = stats_diff(npu, partner ? &bench : nullptr);
      for (std::size_t c = 0; c < 8; ++c) {
        CHECK(reused[c] == fresh[c]);
        CHECK(reused[c].as_text() == fresh[c].as_text());
        CHECK(reused[c].is_plain_text());
      }
    }
  }

  TEST_CASE("stats diff: a row without bench partner gets N/A in all eight cells") {
    Row npu;
    npu.stats = {f(3.0), f(1.0), f(2.0), f(5.0)};
    for (const Cell& c : stats_diff(npu, nullptr)) CHECK(c == Cell::text("N/A"));
  }
}
