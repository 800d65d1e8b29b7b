#include "tensor/zip_writer.h"

#include <array>

#include "tensor/little_endian.h"

namespace msdump::tensor {
namespace {

constexpr std::uint64_t k_u32_max = 0xFFFFFFFFu;
constexpr std::uint64_t k_alignment = 64;

// Slicing-by-8 tables: table[0] is the classic byte table, table[k] advances k more bytes.
constexpr std::array<std::array<std::uint32_t, 256>, 8> make_crc_tables() {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (std::uint32_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
  return t;
}
constexpr auto k_crc = make_crc_tables();

// Bit 11 (UTF-8 names) always; bit 3 (sizes and CRC in a trailing data descriptor) except for
// empty records, which miniz writes with zero sizes and no descriptor.
std::uint16_t flags(std::uint64_t size) { return size == 0 ? 0x0800 : 0x0808; }

}  // namespace

std::uint32_t zip_crc32(std::span<const std::byte> bytes, std::uint32_t crc) {
  crc = ~crc;
  const std::byte* p = bytes.data();
  std::size_t n = bytes.size();
  while (n >= 8) {
    const std::uint32_t lo = le::load<std::uint32_t>(p) ^ crc;
    const std::uint32_t hi = le::load<std::uint32_t>(p + 4);
    crc = k_crc[7][lo & 0xFF] ^ k_crc[6][(lo >> 8) & 0xFF] ^ k_crc[5][(lo >> 16) & 0xFF] ^ k_crc[4][lo >> 24] ^
          k_crc[3][hi & 0xFF] ^ k_crc[2][(hi >> 8) & 0xFF] ^ k_crc[1][(hi >> 16) & 0xFF] ^ k_crc[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = k_crc[0][(crc ^ std::to_integer<std::uint32_t>(*p++)) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

TorchZipWriter::TorchZipWriter(std::string archive_name) : m_archive(std::move(archive_name)) {}

void TorchZipWriter::add_record(std::string_view name, std::span<const std::byte> data) {
  const std::string full = m_archive + "/" + std::string(name);
  const std::uint64_t offset = m_out.size();
  const std::uint64_t size = data.size();
  const bool big_size = size >= k_u32_max;
  const bool big_offset = offset >= k_u32_max;

  // Extra field: a ZIP64 field when miniz needs one, then torch's "FB" padding so that the data
  // starts on a 64-byte boundary (PyTorchStreamWriter getPadding()).
  std::string extra;
  if (big_size || big_offset) {
    le::append<std::uint16_t>(extra, 1);
    le::append<std::uint16_t>(extra, static_cast<std::uint16_t>((big_size ? 16 : 0) + (big_offset ? 8 : 0)));
    if (big_size) {
      le::append<std::uint64_t>(extra, size);
      le::append<std::uint64_t>(extra, size);
    }
    if (big_offset) le::append<std::uint64_t>(extra, offset);
  }
  const std::uint64_t start = offset + 30 + full.size() + extra.size() + 4;
  const std::uint64_t pad = (k_alignment - start % k_alignment) % k_alignment;
  extra += "FB";
  le::append<std::uint16_t>(extra, static_cast<std::uint16_t>(pad));
  extra.append(pad, 'Z');

  le::append<std::uint32_t>(m_out, 0x04034b50);
  le::append<std::uint16_t>(m_out, 0);       // version needed
  le::append<std::uint16_t>(m_out, flags(size));
  le::append<std::uint16_t>(m_out, 0);       // stored
  le::append<std::uint32_t>(m_out, 0);       // time, date
  le::append<std::uint32_t>(m_out, 0);       // crc (in the descriptor)
  le::append<std::uint32_t>(m_out, 0);       // compressed size
  le::append<std::uint32_t>(m_out, 0);       // uncompressed size
  le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(full.size()));
  le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(extra.size()));
  m_out += full;
  m_out += extra;
  m_out.append(reinterpret_cast<const char*>(data.data()), data.size());

  const std::uint32_t crc = zip_crc32(data);
  m_central.push_back({full, crc, size, offset});
  if (size == 0) return;  // miniz writes an empty record without a data descriptor
  le::append<std::uint32_t>(m_out, 0x08074b50);
  le::append<std::uint32_t>(m_out, crc);
  if (big_size || big_offset) {
    le::append<std::uint64_t>(m_out, size);
    le::append<std::uint64_t>(m_out, size);
  } else {
    le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(size));
    le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(size));
  }
}

std::string TorchZipWriter::finish() {
  const std::uint64_t cd_offset = m_out.size();
  for (const auto& c : m_central) {
    const bool big_size = c.size >= k_u32_max;
    const bool big_offset = c.offset >= k_u32_max;
    std::string extra;
    if (big_size || big_offset) {
      le::append<std::uint16_t>(extra, 1);
      le::append<std::uint16_t>(extra, static_cast<std::uint16_t>((big_size ? 16 : 0) + (big_offset ? 8 : 0)));
      if (big_size) {
        le::append<std::uint64_t>(extra, c.size);
        le::append<std::uint64_t>(extra, c.size);
      }
      if (big_offset) le::append<std::uint64_t>(extra, c.offset);
    }
    const auto size32 = static_cast<std::uint32_t>(big_size ? k_u32_max : c.size);
    le::append<std::uint32_t>(m_out, 0x02014b50);
    le::append<std::uint16_t>(m_out, 0);  // version made by
    le::append<std::uint16_t>(m_out, 0);  // version needed
    le::append<std::uint16_t>(m_out, flags(c.size));
    le::append<std::uint16_t>(m_out, 0);  // stored
    le::append<std::uint32_t>(m_out, 0);  // time, date
    le::append<std::uint32_t>(m_out, c.crc);
    le::append<std::uint32_t>(m_out, size32);
    le::append<std::uint32_t>(m_out, size32);
    le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(c.name.size()));
    le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(extra.size()));
    le::append<std::uint16_t>(m_out, 0);  // comment
    le::append<std::uint16_t>(m_out, 0);  // disk
    le::append<std::uint16_t>(m_out, 0);  // internal attributes
    le::append<std::uint32_t>(m_out, 0);  // external attributes
    le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(big_offset ? k_u32_max : c.offset));
    m_out += c.name;
    m_out += extra;
  }
  const std::uint64_t cd_size = m_out.size() - cd_offset;
  const std::uint64_t eocd64 = m_out.size();
  const std::uint64_t n = m_central.size();
  le::append<std::uint32_t>(m_out, 0x06064b50);
  le::append<std::uint64_t>(m_out, 44);  // size of the rest of the record
  le::append<std::uint16_t>(m_out, 0x031E);
  le::append<std::uint16_t>(m_out, 45);
  le::append<std::uint32_t>(m_out, 0);
  le::append<std::uint32_t>(m_out, 0);
  le::append<std::uint64_t>(m_out, n);
  le::append<std::uint64_t>(m_out, n);
  le::append<std::uint64_t>(m_out, cd_size);
  le::append<std::uint64_t>(m_out, cd_offset);
  le::append<std::uint32_t>(m_out, 0x07064b50);
  le::append<std::uint32_t>(m_out, 0);
  le::append<std::uint64_t>(m_out, eocd64);
  le::append<std::uint32_t>(m_out, 1);
  le::append<std::uint32_t>(m_out, 0x06054b50);
  le::append<std::uint16_t>(m_out, 0);
  le::append<std::uint16_t>(m_out, 0);
  le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(n));
  le::append<std::uint16_t>(m_out, static_cast<std::uint16_t>(n));
  le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(cd_size >= k_u32_max ? k_u32_max : cd_size));
  le::append<std::uint32_t>(m_out, static_cast<std::uint32_t>(cd_offset >= k_u32_max ? k_u32_max : cd_offset));
  le::append<std::uint16_t>(m_out, 0);
  return std::move(m_out);
}

}  // namespace msdump::tensor
