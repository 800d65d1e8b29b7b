// libFuzzer target: a torch.save file in memory. Runs the CLI's path (read_tensor_info: zip
// directory, data.pkl through the whitelist unpickler, then load_tensor), and the unpickler
// alone on the raw bytes with every global approved, so tree shapes the whitelist would stop
// early (cycles through the memo, deep nesting) still reach describe().

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/byte_source.h"
#include "tensor/pickle_reader.h"
#include "tensor/tensor_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  const msdump::MemorySource src(bytes, "fuzz.pt");
  if (auto info = msdump::tensor::read_tensor_info(src)) {
    auto tensor = msdump::tensor::load_tensor(src, *info);
    (void)tensor;
  }

  const msdump::tensor::PickleGlobalCheck approve_all = [](std::string_view, std::string_view) {
    return msdump::Result<void>{};
  };
  if (auto pickle = msdump::tensor::read_pickle(bytes, approve_all); pickle && pickle->root != nullptr) {
    const auto what = msdump::tensor::describe(*pickle->root);
    (void)what;
  }
  return 0;
}
