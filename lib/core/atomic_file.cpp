#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

namespace msdump {
namespace {

constexpr std::size_t k_buffer_size = 1 << 20;
// Pieces at least this large go to write(2) straight from the caller's memory.
constexpr std::size_t k_direct_bytes = 64 << 10;
// Writeback of a large file is started every this many bytes, so that the fsync in commit()
// finds most of the file already on its way to disk instead of all of it at the end of the
// run (docs/performance.md "Writeback while writing").
constexpr std::uint64_t k_writeback_step = std::uint64_t{16} << 20;
constexpr std::string_view k_tmp_marker = ".msdump-tmp-";

std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}{}{}-{}", path, k_tmp_marker, ::getpid(), counter++);
}

}  // namespace

AtomicFile::AtomicFile(int fd, std::string path, std::string tmp_path, Overwrite overwrite)
    : m_fd(fd), m_path(std::move(path)), m_tmp_path(std::move(tmp_path)), m_overwrite(overwrite) {
  m_buffer.reserve(k_buffer_size);
}

AtomicFile::~AtomicFile() {
  if (m_fd >= 0) ::close(m_fd);
  if (!m_committed && !m_direct) ::unlink(m_tmp_path.c_str());
}

Result<std::unique_ptr<AtomicFile>> AtomicFile::create(const std::string& path, Overwrite overwrite) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return io_error(fmt::format("'{}' is a directory", path));
  if (exists && !S_ISREG(st.st_mode) && overwrite == Overwrite::yes) {
    // A device or FIFO: write straight to it (there is nothing to replace atomically).
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return io_error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
    std::unique_ptr<AtomicFile> f(new AtomicFile(fd, path, std::string(), overwrite));
    f->m_direct = true;
    return f;
  }
  if (overwrite == Overwrite::no && ::lstat(path.c_str(), &st) == 0)
    return Error{ErrorCode::exists, fmt::format("'{}' exists (use --force to replace it)", path)};
  std::string tmp = temporary_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(fmt::format("cannot create '{}': {}", tmp, std::strerror(errno)));
  return std::unique_ptr<AtomicFile>(new AtomicFile(fd, path, std::move(tmp), overwrite));
}

void AtomicFile::flush_buffer() {
  write_through(m_buffer);
  m_buffer.clear();
}

void AtomicFile::write_through(std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size() && m_errno == 0) {
    const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      m_errno = errno;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  m_flushed += done;
  if (!m_direct && m_errno == 0 && m_flushed - m_writeback_from >= k_writeback_step) {
    // Only starts the writeback (no waiting); commit()'s fsync still makes it durable.
    ::sync_file_range(m_fd, static_cast<off_t>(m_writeback_from), static_cast<off_t>(m_flushed - m_writeback_from),
                      SYNC_FILE_RANGE_WRITE);
    m_writeback_from = m_flushed;
  }
}

void AtomicFile::write(std::string_view bytes) {
  m_written += bytes.size();
  if (bytes.size() >= k_direct_bytes) {  // large pieces (a JSON writer's chunks) are not copied
    flush_buffer();
    write_through(bytes);
    return;
  }
  if (m_buffer.size() + bytes.size() > k_buffer_size) flush_buffer();
  m_buffer.append(bytes);
}

void AtomicFile::write(std::span<const std::byte> bytes) {
  write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<void> AtomicFile::commit() {
  flush_buffer();
  if (m_direct) {
    if (::close(m_fd) != 0 && m_errno == 0) m_errno = errno;
    m_fd = -1;
    m_committed = true;
    if (m_errno != 0) return io_error(fmt::format("writing '{}': {}", m_path, std::strerror(m_errno)));
    return {};
  }
  if (m_errno == 0 && ::fsync(m_fd) != 0) m_errno = errno;
  if (::close(m_fd) != 0 && m_errno == 0) m_errno = errno;
  m_fd = -1;
  if (m_errno != 0) return io_error(fmt::format("writing '{}': {}", m_path, std::strerror(m_errno)));
  if (m_overwrite == Overwrite::no) {
    // link() fails if the target appeared meanwhile, so a concurrent writer is never clobbered.
    if (::link(m_tmp_path.c_str(), m_path.c_str()) != 0)
      return Error{errno == EEXIST ? ErrorCode::exists : ErrorCode::io,
                   fmt::format("cannot create '{}': {}", m_path, std::strerror(errno))};
    ::unlink(m_tmp_path.c_str());
  } else if (::rename(m_tmp_path.c_str(), m_path.c_str()) != 0) {
    return io_error(fmt::format("cannot rename '{}' to '{}': {}", m_tmp_path, m_path, std::strerror(errno)));
  }
  m_committed = true;
  return {};
}

Result<void> write_file_atomic(const std::string& path, std::string_view bytes, Overwrite overwrite) {
  auto f = AtomicFile::create(path, overwrite);
  if (!f) return f.error();
  (*f)->write(bytes);
  return (*f)->commit();
}

Result<void> prepare_output_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return io_error(fmt::format("'{}' is a directory", path));
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  fs::create_directories(dir, ec);
  if (ec) return io_error(fmt::format("cannot create directory '{}' for '{}': {}", dir.string(), path, ec.message()));
  if (!fs::is_directory(dir, ec)) return io_error(fmt::format("'{}' (for '{}') is not a directory", dir.string(), path));
  if (::access(dir.c_str(), W_OK) != 0)
    return io_error(fmt::format("cannot write to directory '{}': {}", dir.string(), std::strerror(errno)));
  return {};
}

void remove_stale_temporaries(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(k_tmp_marker) != std::string::npos) std::filesystem::remove(e.path(), ec);
  }
}

}  // namespace msdump
