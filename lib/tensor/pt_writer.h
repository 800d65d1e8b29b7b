#pragma once
// Writing torch.save files byte-identical to torch 1.13's torch.save(tensor, path) of a
// contiguous CPU tensor (verified against testdata/good/tensors/written/*.pt).

#include <string>
#include <string_view>

#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::tensor {

// torch's archive name for a path: the basename with its last extension removed
// ("dir/x.y.pt" -> "x.y", "noext" -> "noext").
std::string pt_archive_name(std::string_view path);

// The bytes of torch.save(t, "<archive_name>.pt"): records "<archive_name>/data.pkl",
// ".../data/0", ".../version" in torch's zip layout (zip_writer.h) and a protocol-2 pickle of
// _rebuild_tensor_v2 over a typed storage ("torch.FloatStorage", location "cpu"). dtypes without
// a typed storage (uint16/32/64, float8) get torch 2.x's _rebuild_tensor_v3 over
// torch.UntypedStorage with the dtype as 7th argument. Fails (invalid_input) when t.data does
// not hold numel * itemsize bytes or the archive name is empty or contains '/'.
Result<std::string> write_pt(const TensorView& t, std::string_view archive_name, bool requires_grad = false);

}  // namespace msdump::tensor
