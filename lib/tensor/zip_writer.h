#pragma once
// Writing a stored (uncompressed) ZIP64 archive laid out exactly like torch's
// PyTorchStreamWriter + miniz (docs/tensor-formats.md §1.3-§1.4): every record's data starts on a
// 64-byte boundary thanks to an "FB" padding extra field, local headers carry flags 0x0808 and
// zero sizes, each record is followed by a data descriptor, and the archive ends with a ZIP64
// end-of-central-directory record, its locator and the classic EOCD.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msdump::tensor {

// zlib-compatible CRC-32 of `bytes`, continuing from `crc` (0 to start).
std::uint32_t zip_crc32(std::span<const std::byte> bytes, std::uint32_t crc = 0);

class TorchZipWriter {
 public:
  // Records are stored as "<archive_name>/<record name>".
  explicit TorchZipWriter(std::string archive_name);

  // Appends one record (local header, padding, data, data descriptor).
  void add_record(std::string_view name, std::span<const std::byte> data);
  // Writes the central directory and end records and returns the whole archive.
  std::string finish();

 private:
  struct Central {
    std::string name;
    std::uint32_t crc = 0;
    std::uint64_t size = 0;
    std::uint64_t offset = 0;
  };
  std::string m_archive;
  std::string m_out;
  std::vector<Central> m_central;
};

}  // namespace msdump::tensor
