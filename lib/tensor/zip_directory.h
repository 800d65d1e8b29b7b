#pragma once
// Reading the directory of a ZIP archive (torch.save >= 1.6 writes an uncompressed ZIP64
// archive, docs/tensor-formats.md §1). Only what a torch.save reader needs: the end-of-central-
// directory records (classic and ZIP64), the central directory entries and the local headers
// that give each record's data offset. Sizes and offsets always come from the central directory
// (torch's local headers carry zeros). Every offset is checked against the source size with
// overflow-safe arithmetic; nothing outside the source is ever read.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/result.h"

namespace msdump::tensor {

// One central-directory entry, with the ZIP64 extra field already applied.
struct ZipEntry {
  std::string name;
  std::uint16_t flags = 0;
  std::uint16_t method = 0;  // 0 = stored, 8 = deflate
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t uncompressed_size = 0;
  std::uint64_t local_header_offset = 0;
};

struct ZipDirectory {
  std::vector<ZipEntry> entries;  // in central-directory order
  std::uint64_t central_directory_offset = 0;

  // The entry named exactly `name`, or nullptr.
  const ZipEntry* find(std::string_view name) const;
};

// Where a stored record's bytes are in the source.
struct ZipRecord {
  std::uint64_t data_offset = 0;
  std::uint64_t size = 0;
};

// Finds the end-of-central-directory record (scanning back at most 64 KiB + 22 bytes), follows
// the ZIP64 locator when present, and walks the central directory.
// Fails (invalid_input) when there is no EOCD, the ZIP64 records or the central directory lie
// outside the source, or an entry is truncated or has a bad signature; (unsupported) for
// multi-disk archives.
Result<ZipDirectory> read_zip_directory(const ByteSource& src);

// Reads the local header of `entry` and returns where its data starts (30 + name_len +
// extra_len after the header) and its size. Fails (unsupported) for compressed or encrypted
// records, (invalid_input) for a bad local header or data beyond the source or overlapping the
// central directory.
Result<ZipRecord> locate_zip_record(const ByteSource& src, const ZipDirectory& dir, const ZipEntry& entry);

// locate_zip_record, then reads the record's bytes (for small records such as data.pkl).
Result<std::vector<std::byte>> read_zip_record(const ByteSource& src, const ZipDirectory& dir,
                                               const ZipEntry& entry);

}  // namespace msdump::tensor
