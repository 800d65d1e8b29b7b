#pragma once
// SourceWindow: a sliding window of bytes over a ByteSource, for the streaming readers
// (dump_json_stream.h). Files are read with pread into one reused buffer, not mapped: the
// readers touch each byte once, and a fresh mapping's page faults cost more than the copy
// (docs/performance.md "mmap vs read"); a source that is already in memory is used in place,
// without a copy.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "core/byte_source.h"
#include "core/result.h"

namespace msdump::pyjson {

class SourceWindow {
 public:
  // 1 MiB stays in a core's L2 while the parser reads what pread copied in, and a fresh
  // buffer's pages are each faulted in once: 8 MiB cost 2,048 faults per stream, ~30 ms where
  // a fault costs 15 us (docs/performance.md "Reader window size").
  static constexpr std::size_t k_default_buffer_bytes = std::size_t{1} << 20;
  // For a stream that reads the header members only (they come before "data").
  static constexpr std::size_t k_header_buffer_bytes = std::size_t{64} << 10;

  // Nothing is read until the first advance(). `buffer_bytes` is the initial buffer size; it
  // grows when one unit of parsing (an entry, a line) does not fit.
  explicit SourceWindow(const ByteSource& source, std::size_t buffer_bytes = k_default_buffer_bytes);

  // The bytes currently available, starting at absolute offset offset().
  std::string_view text() const { return {m_data, m_size}; }
  std::uint64_t offset() const { return m_offset; }
  // True when text() reaches the end of the source (no advance() can add bytes).
  bool at_eof() const { return m_offset + m_size == m_source.size(); }
  // Capacity of the reusable buffer (0 for in-memory sources).
  std::size_t buffer_bytes() const { return m_capacity; }

  // Drops text()[0, keep) and appends as many following bytes as fit, doubling the buffer
  // first when the kept bytes would fill more than half of it. text() then starts at the old index `keep`.
  // Fails if the read fails (the error names the source). Requires !at_eof().
  Result<void> advance(std::size_t keep);

 private:
  const ByteSource& m_source;
  std::unique_ptr<char[]> m_buffer;
  std::size_t m_capacity = 0;
  const char* m_data = nullptr;
  std::size_t m_size = 0;
  std::uint64_t m_offset = 0;
};

}  // namespace msdump::pyjson
