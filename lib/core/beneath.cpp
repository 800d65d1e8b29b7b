#include "core/beneath.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <utility>
#include <vector>

namespace msdump {
namespace {

constexpr int k_file_flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
constexpr int k_dir_flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// Whether openat2 answers: 0 not tried yet, 1 it has opened a file, -1 the kernel (or a seccomp
// filter) refused it: every later open walks.
std::atomic<int> g_openat2{0};

class Fd {
 public:
  explicit Fd(int fd = -1) : m_fd(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  void reset(int fd = -1) {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = fd;
  }
  int get() const { return m_fd; }
  int release() { return std::exchange(m_fd, -1); }

 private:
  int m_fd;
};

using Parts = std::vector<std::string_view>;

// The components of `name` ("." and empty ones skipped), or why it names nothing inside `dir`.
Result<Parts> components(const std::string& dir, std::string_view name) {
  if (name.empty()) return invalid_input(fmt::format("an empty name is no file inside '{}'", dir));
  if (name.find('\0') != std::string_view::npos)
    return invalid_input(fmt::format("'{}' holds a NUL byte: no file inside '{}' is named so", name, dir));
  if (name.front() == '/')
    return invalid_input(fmt::format("'{}' is an absolute path: a file inside '{}' is named relative to it", name, dir));
  Parts parts;
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto end = std::min(name.find('/', start), name.size());
    const auto part = name.substr(start, end - start);
    if (part == "..")
      return invalid_input(fmt::format("'{}' has a '..' component: a file inside '{}' may not name what is outside it",
                                       name, dir));
    if (!part.empty() && part != ".") parts.push_back(part);
    start = end + 1;
  }
  if (parts.empty()) return invalid_input(fmt::format("'{}' names no file inside '{}'", name, dir));
  return parts;
}

// The first `n` components, joined by '/'.
std::string joined(const Parts& parts, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out.append(i ? "/" : "").append(parts[i]);
  return out;
}

// The first component (as a count of components) that is a symbolic link now; for messages only.
std::optional<std::size_t> find_link(int dirfd, const Parts& parts) {
  for (std::size_t n = 1; n <= parts.size(); ++n) {
    struct stat st {};
    if (::fstatat(dirfd, joined(parts, n).c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
    if (S_ISLNK(st.st_mode)) return n;
  }
  return std::nullopt;
}

// The error for an open of `name` beneath `dirfd` that failed with `err`.
Error open_failed(const std::string& dir, std::string_view name, const Parts& parts, int dirfd, int err) {
  const auto path = beneath_path(dir, name);
  const auto why = fmt::format("files inside '{}' are opened without following links", dir);
  if (err == ELOOP || err == ENOTDIR) {
    if (const auto n = find_link(dirfd, parts)) {
      if (*n == parts.size()) return invalid_input(fmt::format("'{}' is a symbolic link: {}", path, why));
      return invalid_input(
          fmt::format("'{}': '{}' is a symbolic link: {}", path, beneath_path(dir, joined(parts, *n)), why));
    }
    if (err == ELOOP) return invalid_input(fmt::format("'{}': a symbolic link along it: {}", path, why));
  }
  if (err == EXDEV) return invalid_input(fmt::format("'{}' leads outside '{}'", path, dir));
  return io_error(fmt::format("cannot open '{}': {}", path, std::strerror(err)));
}

// One openat2 call; -1 with errno set on failure.
int open_with_openat2(int dirfd, const std::string& rel) {
  struct open_how how {};
  how.flags = static_cast<std::uint64_t>(k_file_flags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, dirfd, rel.c_str(), &how, sizeof how));
}

// Whether an openat2 failure says the call itself is unavailable (not that the file is).
bool openat2_refused(int err) {
  return err == ENOSYS || err == EINVAL || (err == EPERM && g_openat2.load() != 1);
}

// Directory by directory, never following a link; the opened file's descriptor.
Result<int> open_by_walk(const std::string& dir, std::string_view name, const Parts& parts, int dirfd,
                         const BeneathOptions& options) {
  Fd held;
  int at = dirfd;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const int fd = ::openat(at, std::string(parts[i]).c_str(), k_dir_flags);
    if (fd < 0) return open_failed(dir, name, parts, dirfd, errno);
    held.reset(fd);
    at = fd;
    if (options.after_directory) options.after_directory(joined(parts, i + 1));
  }
  const int fd = ::openat(at, std::string(parts.back()).c_str(), k_file_flags);
  if (fd < 0) return open_failed(dir, name, parts, dirfd, errno);
  return fd;
}

}  // namespace

bool beneath_uses_openat2() { return g_openat2.load() == 1; }

std::string beneath_path(const std::string& dir, std::string_view name) {
  if (dir == ".") return std::string(name);
  std::string out = dir;
  if (!out.empty() && out.back() != '/') out += '/';
  return out.append(name);
}

Result<std::unique_ptr<FileSource>> open_beneath(const std::string& dir, std::string_view name,
                                                 const BeneathOptions& options) {
  auto parts = components(dir, name);
  if (!parts) return parts.error();
  Fd base(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (base.get() < 0) return io_error(fmt::format("cannot open the directory '{}': {}", dir, std::strerror(errno)));

  int refused = 0;  // the errno of an openat2 the kernel refused
  if (options.use_openat2 && g_openat2.load() >= 0) {
    const int fd = open_with_openat2(base.get(), joined(*parts, parts->size()));
    const int err = errno;
    if (fd >= 0) {
      g_openat2.store(1);
      return FileSource::adopt(fd, beneath_path(dir, name));
    }
    if (!openat2_refused(err)) return open_failed(dir, name, *parts, base.get(), err);
    refused = err;
    if (err != EPERM) g_openat2.store(-1);
  }
  auto fd = open_by_walk(dir, name, *parts, base.get(), options);
  if (!fd) return fd.error();
  // The walk opened what openat2 would not: a seccomp filter refuses the call, not the file.
  if (refused == EPERM) g_openat2.store(-1);
  return FileSource::adopt(*fd, beneath_path(dir, name));
}

}  // namespace msdump
