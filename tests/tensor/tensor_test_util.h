#pragma once
// Helpers for the tensor tests: CRC-32 of element bytes, the fixture manifest written by
// testdata/gen/gen_tensor_fixtures.py, and fixture bytes wrapped in a MemorySource.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/byte_source.h"

namespace msdump::testing {

// zlib's CRC-32 as "%08x".
std::string crc32_hex(std::span<const std::byte> bytes);

struct ManifestEntry {
  std::string format;
  std::string dtype;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  std::int64_t storage_offset = 0;
  bool requires_grad = false;
  std::string location;
  bool big_endian = false;
  std::int64_t numel = 0;
  std::string crc32;
};

// testdata/good/tensors/manifest.json, keyed by the path relative to good/tensors/.
const std::map<std::string, ManifestEntry>& tensor_manifest();

// A fixture's bytes kept alive with a MemorySource named after the file's basename.
struct FixtureBytes {
  std::shared_ptr<const std::string> bytes;
  std::unique_ptr<MemorySource> source;
};
FixtureBytes fixture(const std::string& rel);  // rel: "good/tensors/f32.pt"

}  // namespace msdump::testing
