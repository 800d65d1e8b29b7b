#pragma once
// The formula-injection pattern of msprobe's table check (docs/compare.md "Output files"): a
// text a spreadsheet could take for a formula. msprobe aborts the whole compare on such a cell;
// the writers neutralise it instead (csv_writer.h).

#include <string_view>

namespace msdump::compare {

// True when `text` starts with one of + - = % @ (ASCII or their full-width forms U+FF0B,
// U+FF0D, U+FF1D, U+FF05, U+FF20) or contains ';' followed by one of them, unless every
// ';'-separated part of it is a number to Python's float() ("-1.5e-05", "-inf", "+nan;-2").
bool formula_risk(std::string_view text);

// Whether Python's float(text) accepts `text`: surrounding whitespace, a sign, then "inf",
// "infinity" or "nan" (any case), or a decimal literal (digits with single '_' between digits,
// an optional fraction and exponent). Differences from Python: only ASCII whitespace and ASCII
// digits count (Python also takes other Unicode spaces and decimal digits).
bool parses_as_python_float(std::string_view text);

}  // namespace msdump::compare
