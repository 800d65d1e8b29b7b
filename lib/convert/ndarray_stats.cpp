#include "convert/ndarray_stats.h"

#include <cmath>

#include "stats/accumulator.h"
#include "stats/float_convert.h"
#include "tensor/tensor_reader.h"

namespace msdump::convert {

namespace {

// numpy reduces integer and bool arrays in float64: Mean and Norm are the unrounded moments.
void exact_moments(stats::LeafStats& out, const stats::Moments& m) {
  out.mean = Scalar::floating(m.sum / static_cast<double>(m.count));
  out.norm = Scalar::floating(std::sqrt(m.sum_sq));
}

}  // namespace

Result<stats::LeafStats> compute_ndarray_stats(const ByteSource& source, const tensor::TensorInfo& info) {
  stats::LeafStats out;
  if (info.numel() == 0) return out;  // np.max of an empty array raises; msprobe writes nulls
  auto t = tensor::load_tensor(source, info);
  if (!t) return t.error();
  const stats::Moments m = stats::compute_moments(t->dtype, t->data);
  const double n = static_cast<double>(m.count);
  switch (dtype_info(t->dtype).kind) {
    case DTypeKind::floating: {
      // numpy reduces float16/float32 arrays to results of the same dtype.
      const DType rd = t->dtype == DType::float64 ? DType::float64 : t->dtype;
      out.max = Scalar::floating(m.max);
      out.min = Scalar::floating(m.min);
      out.mean = Scalar::floating(stats::round_to_dtype(m.sum / n, rd));
      out.norm = Scalar::floating(stats::round_to_dtype(std::sqrt(m.sum_sq), rd));
      break;
    }
    case DTypeKind::signed_int:
      out.max = Scalar::integer(m.max_int);
      out.min = Scalar::integer(m.min_int);
      exact_moments(out, m);
      break;
    case DTypeKind::unsigned_int:
      out.max = Scalar::unsigned_integer(m.max_uint);
      out.min = Scalar::unsigned_integer(m.min_uint);
      exact_moments(out, m);
      break;
    case DTypeKind::boolean:
      out.max = Scalar::boolean(m.any);
      out.min = Scalar::boolean(m.all);
      exact_moments(out, m);
      break;
    case DTypeKind::complex:
    case DTypeKind::float8:
      break;  // numpy has no float8; complex maxima are complex numbers json cannot write
  }
  return out;
}

}  // namespace msdump::convert
