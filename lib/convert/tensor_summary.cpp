#include "convert/tensor_summary.h"

#include "core/byte_source.h"
#include "stats/leaf_stats.h"
#include "tensor/tensor_reader.h"

namespace msdump::convert {

Result<pyjson::Value> summarize_tensor_file(const std::string& path, const TensorSummaryOptions& options) {
  using pyjson::Value;
  auto src = FileSource::open(path);
  if (!src) return src.error();
  auto info = tensor::read_tensor_info(**src);
  if (!info) return info.error();
  stats::StatsOptions so;
  so.framework = options.framework;
  so.profile = options.profile;
  so.summary_mode = options.summary_mode;
  so.precision = options.precision;
  so.threads = options.threads;
  auto st = stats::compute_leaf_stats(**src, *info, so);
  if (!st) return st.error().with_context(path);

  const bool pytorch = options.framework == Framework::pytorch;
  const auto& dt = dtype_info(info->dtype);
  Value leaf = Value::object();
  leaf.add("file", Value::string(path));
  leaf.add("type", Value::string(pytorch ? "torch.Tensor" : "mindspore.Tensor"));
  leaf.add("dtype", Value::string(std::string(pytorch ? dt.torch_name : dt.mindspore_name)));
  Value shape = Value::array();
  for (auto d : info->shape) shape.push_back(Value::integer(d));
  leaf.add("shape", std::move(shape));
  if (st->has_value_stats) {
    leaf.add("Max", Value::from_scalar(st->max));
    leaf.add("Min", Value::from_scalar(st->min));
    leaf.add("Mean", Value::from_scalar(st->mean));
    leaf.add("Norm", Value::from_scalar(st->norm));
  }
  if (st->md5) leaf.add("md5", Value::from_scalar(*st->md5));
  return leaf;
}

}  // namespace msdump::convert
