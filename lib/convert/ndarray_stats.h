#pragma once
// Statistics of a numpy.ndarray passed through an API (docs/format.md §5.3, docs/tensor-formats.md
// §4.5): np.max / np.min / np.mean / np.linalg.norm converted with .item(). Float arrays keep
// their dtype (float32 results are float32 values), integer and bool arrays get float64
// Mean/Norm; empty arrays are all null.

#include "core/byte_source.h"
#include "core/result.h"
#include "stats/leaf_stats.h"
#include "tensor/tensor.h"

namespace msdump::convert {

Result<stats::LeafStats> compute_ndarray_stats(const ByteSource& source, const tensor::TensorInfo& info);

}  // namespace msdump::convert
