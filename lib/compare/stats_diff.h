#pragma once
// Statistics-mode metrics of one compare row (docs/compare.md "Statistics mode"): for each of
// Max, Min, Mean, L2norm a difference `npu - bench` and a relative error `|diff / bench * 100|`
// with a `%`. msprobe computes them on the cells as its table holds them, so the rules are
// textual first (equal texts give `0`) and then by the class of each value; every result cell
// is a text (they are written without the " inf" substitution float cells get). Two numbers
// are computed in float64 from their texts as pandas reads them (pandas_parse_float), which is
// what makes msprobe's last digits.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "compare/cell.h"
#include "compare/dump_rows.h"

namespace msdump::compare {

// What a statistic cell counts as, tested in this order: NaN (a float NaN or the text "nan" in
// any case), inf, -inf (float or text), a number (an int or float, or a text pandas_parse_float
// reads; never a bool or the text "true"/"false"), a device (text containing npu/cpu/cuda in any case),
// the text N/A, anything else.
enum class StatClass : std::uint8_t { num, nan, inf, neg_inf, na, device, other };
std::string_view to_string(StatClass c);

// The class of `c`; for `num`, its value as msprobe computes with it: the cell's str() read by
// pandas_parse_float.
StatClass classify_stat(const Cell& c, double& number);

// A text parsed the way Python's float() reads it: surrounding whitespace, a sign, decimal or
// exponent notation, "inf"/"infinity"/"nan" in any case. nullopt when it does not parse.
std::optional<double> parse_python_float(std::string_view text);

// A text read as number the way msprobe's statistics columns are (pandas 1.5 `to_numeric` of the
// cells' str()): leading/trailing ASCII whitespace, a sign, then at most 17 significant digits
// (leading zeros count as digits; later digits only move the decimal exponent) accumulated in a
// double and scaled by one division or multiplication by a power of ten. This is NOT correctly
// rounded: "1.0508697032928467" reads as 1.050869703292847, one unit in the last place above
// the value Python reads, and msprobe's diffs carry that error. Also "inf", "+inf", "-inf",
// "infinity", "+infinity", "-infinity" in any case (nothing around them). nullopt for anything
// else, and for decimal exponents beyond 308 or results that overflow.
std::optional<double> pandas_parse_float(std::string_view text);

// The diff and relative-error cells of one statistic, made in `diff` and `rel` (cells reused row
// after row keep their buffers), or returned.
void stat_diff(const Cell& npu, const Cell& bench, Cell& diff, Cell& rel);
std::pair<Cell, Cell> stat_diff(const Cell& npu, const Cell& bench);

// The eight metric cells of a statistics-mode row, in table order: Max diff, Min diff,
// Mean diff, L2norm diff, MaxRelativeErr, MinRelativeErr, MeanRelativeErr, NormRelativeErr.
// `bench` nullptr (no partner): all eight "N/A". Made in `out` (8 cells), or returned.
void stats_diff(const Row& npu, const Row* bench, std::span<Cell, 8> out);
std::array<Cell, 8> stats_diff(const Row& npu, const Row* bench);

}  // namespace msdump::compare
