#include "tensor/zip_directory.h"

#include <fmt/format.h>

#include <algorithm>

#include "tensor/little_endian.h"

namespace msdump::tensor {
namespace {

constexpr std::uint32_t k_eocd_sig = 0x06054b50;
constexpr std::uint32_t k_eocd64_sig = 0x06064b50;
constexpr std::uint32_t k_locator_sig = 0x07064b50;
constexpr std::uint32_t k_central_sig = 0x02014b50;
constexpr std::uint32_t k_local_sig = 0x04034b50;
constexpr std::size_t k_eocd_size = 22;
constexpr std::size_t k_locator_size = 20;
constexpr std::size_t k_eocd64_size = 56;
constexpr std::size_t k_central_size = 46;
constexpr std::size_t k_local_size = 30;
constexpr std::uint32_t k_u32_max = 0xFFFFFFFFu;

// True when [offset, offset + n) lies inside a source of `size` bytes (no overflow possible).
bool in_bounds(std::uint64_t offset, std::uint64_t n, std::uint64_t size) {
  return offset <= size && n <= size - offset;
}

struct EndRecord {
  std::uint64_t entries = 0;
  std::uint64_t cd_size = 0;
  std::uint64_t cd_offset = 0;
};

// Scans back from the end for "PK\5\6" whose comment fits the file.
Result<std::uint64_t> find_eocd(const ByteSource& src) {
  const std::uint64_t size = src.size();
  const std::string missing = "no end of central directory record found (truncated file or not a zip archive)";
  if (size < k_eocd_size) return invalid_input(missing);
  // Fast path: torch writes no archive comment, so the EOCD is the last 22 bytes.
  std::byte last[k_eocd_size];
  MSDUMP_TRY(src.read_at(size - k_eocd_size, last));
  if (le::load<std::uint32_t>(last) == k_eocd_sig && le::load<std::uint16_t>(last + 20) == 0) return size - k_eocd_size;
  const std::uint64_t window = std::min<std::uint64_t>(size, 0xFFFF + k_eocd_size);
  auto tail = src.read_vector(size - window, static_cast<std::size_t>(window));
  if (!tail) return tail.error();
  const std::span<const std::byte> t = *tail;
  for (std::size_t pos = t.size() - k_eocd_size + 1; pos-- > 0;) {
    if (le::load<std::uint32_t>(t, pos) != k_eocd_sig) continue;
    const std::size_t comment = le::load<std::uint16_t>(t, pos + 20);
    if (pos + k_eocd_size + comment <= t.size()) return size - window + pos;
  }
  return invalid_input(missing);
}

Result<EndRecord> read_end_records(const ByteSource& src, std::uint64_t eocd_pos) {
  std::byte eocd[k_eocd_size];
  MSDUMP_TRY(src.read_at(eocd_pos, eocd));
  const std::span<const std::byte> e(eocd);
  if (le::load<std::uint16_t>(e, 4) != 0 || le::load<std::uint16_t>(e, 6) != 0)
    return unsupported("multi-disk zip archives are not supported");
  EndRecord end{le::load<std::uint16_t>(e, 10), le::load<std::uint32_t>(e, 12), le::load<std::uint32_t>(e, 16)};
  if (eocd_pos < k_locator_size) return end;
  std::byte loc[k_locator_size];
  MSDUMP_TRY(src.read_at(eocd_pos - k_locator_size, loc));
  if (le::load<std::uint32_t>(loc) != k_locator_sig) return end;
  const std::uint64_t eocd64_pos = le::load<std::uint64_t>(loc + 8);
  if (!in_bounds(eocd64_pos, k_eocd64_size, src.size()))
    return invalid_input(fmt::format(
        "ZIP64 end of central directory locator points to offset {} beyond the end of the file ({} bytes)",
        eocd64_pos, src.size()));
  std::byte rec[k_eocd64_size];
  MSDUMP_TRY(src.read_at(eocd64_pos, rec));
  const std::span<const std::byte> r(rec);
  if (le::load<std::uint32_t>(r, 0) != k_eocd64_sig)
    return invalid_input(
        fmt::format("ZIP64 end of central directory record at offset {} has a bad signature", eocd64_pos));
  if (le::load<std::uint32_t>(r, 16) != 0 || le::load<std::uint32_t>(r, 20) != 0)
    return unsupported("multi-disk zip archives are not supported");
  return EndRecord{le::load<std::uint64_t>(r, 32), le::load<std::uint64_t>(r, 40), le::load<std::uint64_t>(r, 48)};
}

// Applies the ZIP64 extra field (id 1): it holds, in this order, only the values whose 32-bit
// slot is 0xFFFFFFFF.
Result<void> apply_zip64_extra(ZipEntry& entry, std::span<const std::byte> extra, bool need_usize, bool need_csize,
                               bool need_offset) {
  std::size_t pos = 0;
  while (pos + 4 <= extra.size()) {
    const auto id = le::load<std::uint16_t>(extra, pos);
    const std::size_t len = le::load<std::uint16_t>(extra, pos + 2);
    if (pos + 4 + len > extra.size()) break;
    if (id == 1) {
      const auto field = extra.subspan(pos + 4, len);
      std::size_t at = 0;
      auto take = [&](std::uint64_t& out) -> bool {
        if (at + 8 > field.size()) return false;
        out = le::load<std::uint64_t>(field, at);
        at += 8;
        return true;
      };
      if ((need_usize && !take(entry.uncompressed_size)) || (need_csize && !take(entry.compressed_size)) ||
          (need_offset && !take(entry.local_header_offset)))
        break;
      return {};
    }
    pos += 4 + len;
  }
  return invalid_input(
      fmt::format("central directory entry '{}' lacks the ZIP64 extra field its sizes need", entry.name));
}

}  // namespace

const ZipEntry* ZipDirectory::find(std::string_view name) const {
  for (const auto& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

Result<ZipDirectory> read_zip_directory(const ByteSource& src) {
  auto eocd_pos = find_eocd(src);
  if (!eocd_pos) return eocd_pos.error();
  auto end = read_end_records(src, *eocd_pos);
  if (!end) return end.error();
  if (!in_bounds(end->cd_offset, end->cd_size, src.size()))
    return invalid_input(fmt::format("central directory (offset {}, size {}) extends beyond the end of the file ({} bytes)",
                                     end->cd_offset, end->cd_size, src.size()));
  auto cd = src.read_vector(end->cd_offset, static_cast<std::size_t>(end->cd_size));
  if (!cd) return cd.error();
  const std::span<const std::byte> c = *cd;

  ZipDirectory dir;
  dir.central_directory_offset = end->cd_offset;
  dir.entries.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(end->entries, c.size() / k_central_size)));
  std::size_t pos = 0;
  for (std::uint64_t n = 0; n < end->entries; ++n) {
    if (pos + k_central_size > c.size())
      return invalid_input(fmt::format("central directory declares {} entries but entry {} at offset {} is truncated",
                                       end->entries, n, end->cd_offset + pos));
    if (le::load<std::uint32_t>(c, pos) != k_central_sig)
      return invalid_input(fmt::format("central directory entry {} at offset {} has a bad signature", n,
                                       end->cd_offset + pos));
    const std::size_t name_len = le::load<std::uint16_t>(c, pos + 28);
    const std::size_t extra_len = le::load<std::uint16_t>(c, pos + 30);
    const std::size_t comment_len = le::load<std::uint16_t>(c, pos + 32);
    const std::size_t total = k_central_size + name_len + extra_len + comment_len;
    if (pos + total > c.size())
      return invalid_input(fmt::format("central directory entry {} at offset {} is truncated", n, end->cd_offset + pos));
    ZipEntry entry;
    entry.flags = le::load<std::uint16_t>(c, pos + 8);
    entry.method = le::load<std::uint16_t>(c, pos + 10);
    entry.crc32 = le::load<std::uint32_t>(c, pos + 16);
    entry.compressed_size = le::load<std::uint32_t>(c, pos + 20);
    entry.uncompressed_size = le::load<std::uint32_t>(c, pos + 24);
    entry.local_header_offset = le::load<std::uint32_t>(c, pos + 42);
    entry.name.assign(reinterpret_cast<const char*>(c.data() + pos + k_central_size), name_len);
    const bool need_usize = entry.uncompressed_size == k_u32_max;
    const bool need_csize = entry.compressed_size == k_u32_max;
    const bool need_offset = entry.local_header_offset == k_u32_max;
    if (need_usize || need_csize || need_offset)
      MSDUMP_TRY(apply_zip64_extra(entry, c.subspan(pos + k_central_size + name_len, extra_len), need_usize,
                                   need_csize, need_offset));
    dir.entries.push_back(std::move(entry));
    pos += total;
  }
  return dir;
}

Result<ZipRecord> locate_zip_record(const ByteSource& src, const ZipDirectory& dir, const ZipEntry& entry) {
  if ((entry.flags & 1) != 0) return unsupported(fmt::format("encrypted record '{}' is not supported", entry.name));
  if (entry.method != 0)
    return unsupported(fmt::format("compressed record '{}' (method {}{}): re-zipped file not supported "
                                   "(torch.save stores records uncompressed)",
                                   entry.name, entry.method, entry.method == 8 ? ", deflate" : ""));
  if (entry.compressed_size != entry.uncompressed_size)
    return invalid_input(fmt::format("stored record '{}' has compressed size {} but uncompressed size {}", entry.name,
                                     entry.compressed_size, entry.uncompressed_size));
  const std::uint64_t off = entry.local_header_offset;
  if (!in_bounds(off, k_local_size, src.size()))
    return invalid_input(fmt::format("local header of '{}' at offset {} is beyond the end of the file ({} bytes)",
                                     entry.name, off, src.size()));
  std::byte h[k_local_size];
  MSDUMP_TRY(src.read_at(off, h));
  if (le::load<std::uint32_t>(h) != k_local_sig)
    return invalid_input(fmt::format("local header of '{}' at offset {} has a bad signature", entry.name, off));
  const std::uint64_t data = off + k_local_size + le::load<std::uint16_t>(h + 26) + le::load<std::uint16_t>(h + 28);
  if (!in_bounds(data, entry.compressed_size, src.size()))
    return invalid_input(fmt::format("record '{}' ({} bytes at offset {}) extends beyond the end of the file ({} bytes)",
                                     entry.name, entry.compressed_size, data, src.size()));
  if (data + entry.compressed_size > dir.central_directory_offset)
    return invalid_input(fmt::format("record '{}' ({} bytes at offset {}) overlaps the central directory at offset {}",
                                     entry.name, entry.compressed_size, data, dir.central_directory_offset));
  return ZipRecord{data, entry.compressed_size};
}

Result<std::vector<std::byte>> read_zip_record(const ByteSource& src, const ZipDirectory& dir, const ZipEntry& entry) {
  auto rec = locate_zip_record(src, dir, entry);
  if (!rec) return rec.error();
  return src.read_vector(rec->data_offset, static_cast<std::size_t>(rec->size));
}

}  // namespace msdump::tensor
