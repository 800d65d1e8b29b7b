#include "trace/line_reader.h"

#include <fmt/format.h>

#include <cstring>
#include <string>

#include "core/byte_source.h"

namespace msdump::trace {

Result<void> for_each_line(const ByteSource& source, const std::function<Result<void>(const Line&)>& visit,
                           std::size_t max_line_bytes) {
  constexpr std::size_t k_chunk = std::size_t{4} << 20;
  const std::uint64_t size = source.size();
  std::string buf;             // bytes read but not yet consumed start at buf[start]
  std::size_t start = 0;
  std::uint64_t start_offset = 0;  // file offset of buf[start]
  std::uint64_t next_read = 0;
  std::uint64_t line_no = 0;
  std::size_t scan_from = 0;
  while (true) {
    const char* nl = static_cast<const char*>(std::memchr(buf.data() + scan_from, '\n', buf.size() - scan_from));
    if (nl != nullptr) {
      const std::size_t end = static_cast<std::size_t>(nl - buf.data());
      Line line{++line_no, start_offset, std::string_view(buf.data() + start, end - start), true};
      if (auto r = visit(line); !r) return r;
      start_offset += end - start + 1;
      start = end + 1;
      scan_from = start;
      continue;
    }
    if (next_read >= size) break;
    if (buf.size() - start > max_line_bytes)
      return invalid_input(fmt::format("line {}: longer than {} bytes", line_no + 1, max_line_bytes));
    buf.erase(0, start);  // keep only the unfinished line: one move per chunk
    start = 0;
    scan_from = buf.size();
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(k_chunk, size - next_read));
    const std::size_t old = buf.size();
    buf.resize(old + n);
    if (auto r = source.read_at(next_read, {reinterpret_cast<std::byte*>(buf.data() + old), n}); !r) return r;
    next_read += n;
  }
  if (start < buf.size()) {
    Line line{++line_no, start_offset, std::string_view(buf.data() + start, buf.size() - start), false};
    if (auto r = visit(line); !r) return r;
  }
  return {};
}

Result<void> read_line_at(const ByteSource& source, std::uint64_t offset, std::uint32_t length, std::string& out) {
  out.resize(length);
  return source.read_at(offset, {reinterpret_cast<std::byte*>(out.data()), out.size()});
}

}  // namespace msdump::trace
