// libFuzzer target: a .npy file in memory, read as the CLI reads any tensor file
// (read_tensor_info detects the format, then load_tensor gathers the elements).

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/byte_source.h"
#include "core/dtype.h"
#include "tensor/tensor_reader.h"

namespace {

void read_and_load(const msdump::ByteSource& src, const msdump::tensor::ReadOptions& options) {
  auto info = msdump::tensor::read_tensor_info(src, options);
  if (!info) return;
  auto tensor = msdump::tensor::load_tensor(src, *info);
  (void)tensor;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const msdump::MemorySource src(std::as_bytes(std::span(data, size)), "fuzz.npy");
  read_and_load(src, {});
  // The bfloat16 hint turns "<V2" void arrays into tensors (convert passes the leaf's dtype).
  read_and_load(src, msdump::tensor::ReadOptions{msdump::DType::bfloat16});
  return 0;
}
