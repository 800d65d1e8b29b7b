#pragma once
// Tensor mode's six metric cells for one pair of tensor files (docs/compare.md, tensor mode):
// Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio and Five Thousandths Err
// Ratio, computed the way msprobe computes them.
//
// Before anything else each side is read as msprobe reads it: bfloat16 and float8 elements as
// float32, every other dtype as itself, and the shape squeezed (size-1 dimensions dropped; one
// element is a 0-d tensor). Then the first of these decides:
//   the NPU side has no elements          -> every cell "unsupported";
//   the squeezed shapes differ            -> every cell "shape unmatched";
//   the NPU side is 0-d                   -> MaxAbsErr and MaxRelativeErr only (below), the
//                                            other four "unsupported";
//   NaN/inf at different positions        -> every cell "N/A" (both NaN, or both infinite of
//                                            either sign, at a position is the same position:
//                                            such positions count as 0 on both sides);
//   otherwise (dtypes may differ)         -> all six computed.
// The relative error r = |(n - b) / b| is computed in numpy's result type of (npu, bench,
// float32) with integer and bool sides taken as float64: float32 for float16/bfloat16/float32
// data, float64 as soon as a side is float64, an integer or bool. Where b == 0 that type's
// machine epsilon is added to both n and b. Everything else is float64:
//   Cosine     n.b / (|n| |b|); both norms <= 2^-52: 1.0; one of them: "Nan"; NaN: "Nan";
//              rounded to 12 decimals, and to 6 decimals when then above 0.9999;
//   EucDist    |n - b| (not rounded);
//   MaxAbsErr  max |n - b|;  MaxRelativeErr  max r;  the ratios: share of r < 0.001 / 0.005
//              (the thresholds in r's type); all four rounded to 12 decimals.
// 0-d pairs skip the NaN/inf rule: MaxAbsErr = |n - b| in numpy's type for the two scalars
// (inf - inf gives "Nan"), and r in float32 even for integer and float64 values (float64 only
// when a value is beyond float32's range); a bool NPU scalar makes both sides float64 first.
//
// Deviations: a complex tensor on either side gives "unsupported" everywhere; the sums behind
// Cosine and EucDist are added in another order than numpy's, so they may differ from msprobe's
// in the last bits (tests/compare/tensor_metrics_test.cpp holds them to 1e-12 relative).

#include <array>
#include <string>
#include <string_view>

#include "compare/cell.h"
#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::compare {

struct TensorMetrics {
  // Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio, Five Thousandths Err Ratio
  std::array<Cell, 6> cells;
};

// All six cells the same text (k_unsupported, k_na, k_shape_unmatched).
TensorMetrics uniform_metrics(std::string_view text);

// Reads the tensor file `data_name` (.pt or .npy) beneath `dir`, opened without following any
// link along the name (the name comes from a dump). Errors name the file "<dir>/<data_name>".
Result<tensor::Tensor> load_compare_tensor(const std::string& dir, const std::string& data_name);

// The six cells for an NPU tensor and its bench partner.
TensorMetrics compute_tensor_metrics(const tensor::Tensor& npu, const tensor::Tensor& bench);

}  // namespace msdump::compare
