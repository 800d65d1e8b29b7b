#include "core/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace msdump {

Result<std::vector<std::byte>> ByteSource::read_vector(std::uint64_t offset, std::size_t n) const {
  std::vector<std::byte> out(n);
  if (auto r = read_at(offset, out); !r) return r.error();
  return out;
}

MemorySource::MemorySource(std::span<const std::byte> bytes, std::string name)
    : m_bytes(bytes), m_name(std::move(name)) {}

Result<void> MemorySource::read_at(std::uint64_t offset, std::span<std::byte> out) const {
  if (offset > m_bytes.size() || out.size() > m_bytes.size() - offset)
    return invalid_input(fmt::format("read of {} bytes at offset {} is beyond the end ({} bytes)",
                                     out.size(), offset, m_bytes.size()));
  if (!out.empty()) std::memcpy(out.data(), m_bytes.data() + offset, out.size());
  return {};
}

FileSource::FileSource(int fd, std::uint64_t size, std::string path)
    : m_fd(fd), m_size(size), m_path(std::move(path)) {}

FileSource::~FileSource() { ::close(m_fd); }

Result<std::unique_ptr<FileSource>> FileSource::open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; it is then
  // refused below, and regular files ignore the flag.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return io_error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  return adopt(fd, path);
}

Result<std::unique_ptr<FileSource>> FileSource::adopt(int fd, std::string path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return io_error(fmt::format("'{}' is not a regular file", path));
  }
  return std::unique_ptr<FileSource>(new FileSource(fd, static_cast<std::uint64_t>(st.st_size), std::move(path)));
}

Result<void> FileSource::read_at(std::uint64_t offset, std::span<std::byte> out) const {
  if (offset > m_size || out.size() > m_size - offset)
    return invalid_input(fmt::format("'{}': read of {} bytes at offset {} is beyond the end ({} bytes)",
                                     m_path, out.size(), offset, m_size));
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(m_fd, out.data() + done, out.size() - done,
                              static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(fmt::format("reading '{}': {}", m_path, std::strerror(errno)));
    }
    if (n == 0) return io_error(fmt::format("reading '{}': file shrank while reading", m_path));
    done += static_cast<std::size_t>(n);
  }
  return {};
}

Result<std::string> read_file(const std::string& path) {
  auto src = FileSource::open(path);
  if (!src) return src.error();
  std::string out((*src)->size(), '\0');
  auto r = (*src)->read_at(0, {reinterpret_cast<std::byte*>(out.data()), out.size()});
  if (!r) return r.error();
  return out;
}

}  // namespace msdump
