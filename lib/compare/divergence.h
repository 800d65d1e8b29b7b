#pragma once
// The answer a compare gives for one pair of dumps (docs/compare.md "First difference and first
// divergence"):
//   first_difference  the first entry, in execution order (forward entries in dump order, then
//                     backward and parameters_grad entries in dump order), with a paired row
//                     whose values differ at all: a statistic (numerically; text when not a
//                     number), the shape, the md5, or, in tensor mode, an element;
//   first_divergence  the first entry, in the same order, with a paired non-pass row whose
//                     input rows (inputs, kwargs, parameters) all pass: where msprobe's verdict
//                     rules first see the run go wrong;
//   diff_analyze      msprobe's `-da` rule for one rank: the first API in dump order (entries
//                     named Torch.empty* / Torch.fill* / Tensor.__setitem__* skipped, the scan
//                     stopping at the first communication API) one of whose outputs has a
//                     relative statistic error above 50 % (md5 mode: a different md5).
// Rows without a bench partner are never a difference or a divergence (they are reported as
// unmatched).

#include <optional>
#include <string>
#include <vector>

#include "compare/table.h"

namespace msdump::compare {

struct Locator {
  std::string entry;   // the dump.json entry (API or module call)
  std::string row;     // its row that differs / diverges
  Level result = Level::pass;
  std::string message; // what differs, or the row's first checker message
  std::vector<std::string> module_chain;  // enclosing modules, outermost first (construct.json)
};

struct PairAnswer {
  std::optional<Locator> first_difference;
  std::optional<Locator> first_divergence;
  std::optional<std::string> diff_analyze;  // the API -da names
};

// Which answers to look for: a caller that already has one from an earlier part of the dump
// (compare's pass 2, entry by entry) skips it.
struct AnswerScope {
  bool difference = true, divergence = true, diff_analyze = true;
};

// The answers for a finished table (metrics and checkers done), those in `scope`.
PairAnswer find_answers(const Table& table, AnswerScope scope = {});

// msprobe's -da verdict for one API: false when one of its output rows has a relative statistic
// error (MaxRelativeErr ... NormRelativeErr, summary cells) above 50 %, or (md5) a different md5.
bool da_is_same(const Table& table, std::size_t first_row, std::size_t end_row);
bool is_communication_api(std::string_view name);

}  // namespace msdump::compare
