#pragma once
// torch.save files (docs/tensor-formats.md §1-§2): the zip format of torch >= 1.6 and the legacy
// flat format of torch < 1.6. Only the headers are parsed (central directory, data.pkl, the
// legacy pickles); no element is read, so the caller can stream the storage bytes.

#include <cstddef>
#include <span>

#include "core/byte_source.h"
#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::tensor {

// True when `head` (the first bytes of a file) starts with a zip local header "PK\3\4".
bool is_pt_zip(std::span<const std::byte> head);
// True when `head` starts with the legacy torch.save magic: PROTO 2, LONG1 0x1950a86a20f9469cfc6c.
bool is_legacy_pt(std::span<const std::byte> head);

// Reads the metadata of the single tensor (or nn.Parameter) in a torch.save file: dtype, shape,
// strides, storage offset, where the storage record's bytes are, byte order, requires_grad and
// the storage location tag. Errors are prefixed with "'<source name>': ".
// Fails (invalid_input) on a malformed zip or pickle, a missing or short storage record, a view
// reaching outside its storage, an overflowing shape, a global outside the whitelist
// ("pickle references global 'os.system', ..."), or an object that is not one tensor
// ("contains a dict, expected a single tensor"); (unsupported) on compressed records,
// TorchScript archives, quantized/sparse/subclass tensors and dtypes msdump lacks.
Result<TensorInfo> read_pt_info(const ByteSource& src);

}  // namespace msdump::tensor
