#pragma once
// The verdict of every compare row (docs/compare.md "Result and Err_message"): msprobe's fixed
// checkers, run per API on the finished table. A row starts at `pass` with no messages; each
// checker may raise its level (pass < warning < error, never lowered) and add one message.
//
// Rows are grouped by the NPU row's entry; within a group a row is an output row when its NPU
// name contains ".output.", any other row is an input row. The second dotted part of the group's
// first input row names the API; a few APIs are left out entirely (creation and copy ops: all
// rows pass) or have their inputs left out (communication ops whose inputs are buffers).
//
// msprobe keeps only its checkers' messages. Unless `msprobe_messages_only`, run_checkers adds
// after them `info:` messages for what those leave unsaid (no bench partner, tensor metrics that
// could not be computed and why); they never change the level.

#include <cstdint>
#include <optional>
#include <string_view>

#include "compare/cell.h"
#include "compare/table.h"

namespace msdump::compare {

struct CheckerOptions {
  bool msprobe_messages_only = false;  // true: Err_message exactly as msprobe writes it
};

// Fills result and messages of every row of `table` (its mode chooses the checkers).
void run_checkers(Table& table, const CheckerOptions& options = {});

// A MindSpore dtype name in PyTorch's spelling (Float32 -> torch.float32, BFloat16 ->
// torch.bfloat16); any other text as it is. The dtype checker of a cross-framework pair
// (MindSpore / mindtorch against PyTorch) compares dtypes in this spelling, so only real dtype
// differences are errors.
std::string torch_dtype_spelling(std::string_view dtype);

// msprobe's messages.
inline constexpr std::string_view k_msg_inf_nan = "error: There is nan/inf/-inf in the maximum or minimum value of NPU.";
inline constexpr std::string_view k_msg_norm_rel_err = "error: The NormRelativeErr of output is greater than 0.5.";
inline constexpr std::string_view k_msg_requires_grad = "error: The Required_Grad of NPU and Bench are inconsistent";
inline constexpr std::string_view k_msg_scalar_params = "error: The scalar parameters of NPU and Bench are inconsistent.";
inline constexpr std::string_view k_msg_dtype = "error: The dtype of NPU and Bench are inconsistent.";
inline constexpr std::string_view k_msg_shape = "error: The shape of NPU and Bench are inconsistent.";
inline constexpr std::string_view k_msg_norm_rel_warn = "warning: The norm relative error of output is 10 times that of input.";
// The text says 0.6 while the threshold applied is 0.1; both are msprobe's.
inline constexpr std::string_view k_msg_one_thousandth =
    "error: The input/parameters of One Thousandth Err Ratio > 0.9 while the output < 0.6.";
inline constexpr std::string_view k_msg_cosine =
    "warning: The input/parameters of Cosine > 0.9, and input/parameters - output > 0.1";
inline constexpr std::string_view k_msg_crc_differs = "error: The CRC-32 value of NPU differs from that of the bench.";
inline constexpr std::string_view k_msg_crc_unmatched = "warning: The parameter of NPU does not match the bench.";

// Our own messages (never in msprobe's tables).
inline constexpr std::string_view k_info_no_bench = "info: No bench data matched.";
inline constexpr std::string_view k_info_shape_unmatched =
    "info: No tensor metrics: the NPU and bench shapes differ after size-1 dimensions are removed.";
inline constexpr std::string_view k_info_inf_nan_positions =
    "info: No tensor metrics: NaN/inf positions differ between the NPU and bench tensors.";
inline constexpr std::string_view k_info_not_tensor = "info: No tensor metrics: the value is not a tensor.";
inline constexpr std::string_view k_info_empty_tensor = "info: No tensor metrics: the NPU tensor is empty.";
inline constexpr std::string_view k_info_tensor_unread =
    "info: No tensor metrics: a tensor file is missing or could not be read.";
inline constexpr std::string_view k_info_zero_dim =
    "info: 0-d tensor: only MaxAbsErr and MaxRelativeErr apply.";

// The higher of two levels (error > warning > pass).
constexpr Level max_level(Level a, Level b) { return a < b ? b : a; }

// Which rows of an API the checkers look at, from its name's second dotted part.
enum class IgnoreKind : std::uint8_t { none, inputs, all };
IgnoreKind ignore_kind(std::string_view first_input_row_name);

// msprobe's "convert" of one relative-error cell: the text without `%`, as a float, / 100;
// a text that does not parse (or a non-text cell) gives 0.
double convert_percent(const Cell& c);

// A metric cell as the min/max over rows use it: numbers as they are, `x%` as x / 100;
// nullopt for anything to skip (None, Nan, N/A, other texts).
std::optional<double> usable_metric(const Cell& c);

// A float that is inf or NaN, or a text reading inf, -inf or nan (any case, spaces ignored).
bool is_inf_or_nan_cell(const Cell& c);

}  // namespace msdump::compare
