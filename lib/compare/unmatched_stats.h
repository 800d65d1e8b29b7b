#pragma once
// How msprobe's table shows the NPU statistics of rows without a bench partner (docs/compare.md
// "Statistics of rows without a partner"). msprobe fills the missing cells of those rows as a
// pandas frame of their own and writes it back into the table: each statistic column of that
// frame is converted to a number column when all its cells are numbers (ints and floats, no
// bools, no texts such as "None" or "Nan"), and written back with NaN in the other rows' places.
// So such a column's ints become floats (`3` -> `3.0`) when it holds a float, or when the table
// has a row with a partner at all; one text or bool among those cells keeps every int an int.
//
//   stat_kinds          a row's four statistic cell types, packed (pass 1 keeps one byte a row)
//   unmatched_int_rule  per column, whether the rule turns the ints of rows without a partner
//                       into floats
//   apply_unmatched_int_rule  does that to one row's cells

#include <array>
#include <cstdint>
#include <vector>

#include "compare/dump_rows.h"

namespace msdump::compare {

// Two bits per statistic (Max, Min, Mean, Norm, lowest first): 0 another cell type (a text, a
// bool), 1 an int, 2 a float.
inline constexpr std::uint8_t k_stat_other = 0, k_stat_int = 1, k_stat_float = 2;
std::uint8_t stat_kinds(const Row& row);

using IntsAsFloats = std::array<bool, 4>;  // Max, Min, Mean, Norm

// `kinds` per NPU row; `paired` per NPU row, whether it has a bench partner.
IntsAsFloats unmatched_int_rule(const std::vector<std::uint8_t>& kinds, const std::vector<bool>& paired);

// Turns the int statistic cells of `row` (a row without a partner) into floats where `rule` says.
void apply_unmatched_int_rule(Row& row, const IntsAsFloats& rule);

}  // namespace msdump::compare
