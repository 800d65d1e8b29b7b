#pragma once
// Writing .npy files byte-identical to numpy 1.24's np.save of a C-contiguous array.

#include <string>

#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::tensor {

// The bytes np.save writes for `t`: a version 1.0 header (2.0 when it exceeds 65535 bytes)
// "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", numpy's 21-minus-digits spare
// spaces, space padding so the data starts on a 64-byte boundary, "\n", then the elements in
// little-endian C order. Fails (unsupported) for dtypes numpy lacks (bfloat16, float8), and
// (invalid_input) when t.data does not hold numel * itemsize bytes.
Result<std::string> write_npy(const TensorView& t);

}  // namespace msdump::tensor
