#include "trace/line_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "core/byte_source.h"

namespace msdump::trace {

Result<void> for_each_line(const ByteSource& source, const std::function<Result<void>(const Line&)>& visit,
                           std::size_t max_line_bytes) {
  constexpr std::size_t k_chunk = std::size_t{4} << 20;
  const std::uint64_t size = source.size();
  // Bytes read but not yet consumed are buf[start, len). The buffer is not zero-filled before
  // each read (as std::string::resize would: a memset of every byte of the trace).
  std::unique_ptr<char[]> buf;
  std::size_t capacity = 0, len = 0;
  std::size_t start = 0;
  std::uint64_t start_offset = 0;  // file offset of buf[start]
  std::uint64_t next_read = 0;
  std::uint64_t line_no = 0;
  std::size_t scan_from = 0;
  while (true) {
    const char* nl =
        len > scan_from ? static_cast<const char*>(std::memchr(buf.get() + scan_from, '\n', len - scan_from)) : nullptr;
    if (nl != nullptr) {
      const std::size_t end = static_cast<std::size_t>(nl - buf.get());
      Line line{++line_no, start_offset, std::string_view(buf.get() + start, end - start), true};
      if (auto r = visit(line); !r) return r;
      start_offset += end - start + 1;
      start = end + 1;
      scan_from = start;
      continue;
    }
    if (next_read >= size) break;
    if (len - start > max_line_bytes)
      return invalid_input(fmt::format("line {}: longer than {} bytes", line_no + 1, max_line_bytes));
    // keep only the unfinished line: one move per chunk
    if (start > 0) std::memmove(buf.get(), buf.get() + start, len - start);
    len -= start;
    start = 0;
    scan_from = len;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(k_chunk, size - next_read));
    if (len + n > capacity) {
      const std::size_t grown = std::max(len + n, 2 * capacity);
      auto bigger = std::make_unique_for_overwrite<char[]>(grown);
      if (len > 0) std::memcpy(bigger.get(), buf.get(), len);
      buf = std::move(bigger);
      capacity = grown;
    }
    if (auto r = source.read_at(next_read, {reinterpret_cast<std::byte*>(buf.get() + len), n}); !r) return r;
    len += n;
    next_read += n;
  }
  if (start < len) {
    Line line{++line_no, start_offset, std::string_view(buf.get() + start, len - start), false};
    if (auto r = visit(line); !r) return r;
  }
  return {};
}

Result<void> read_line_at(const ByteSource& source, std::uint64_t offset, std::uint32_t length, std::string& out) {
  out.resize(length);
  return source.read_at(offset, {reinterpret_cast<std::byte*>(out.data()), out.size()});
}

}  // namespace msdump::trace
