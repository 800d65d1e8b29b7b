#include "core/contained_file.h"

#include <filesystem>
#include <fmt/format.h>

namespace msdump {
namespace {

namespace fs = std::filesystem;

// `real` (what `path` resolves to) must lie inside `dir` once its links are resolved too.
Result<void> real_path_inside(const fs::path& real, const std::string& path, const std::string& dir) {
  std::error_code ec;
  const auto real_dir = fs::canonical(dir, ec);
  if (ec) return io_error(fmt::format("cannot resolve '{}': {}", dir, ec.message()));
  const auto rel = real.lexically_relative(real_dir);
  if (rel.empty() || *rel.begin() == "..")
    return invalid_input(fmt::format("'{}' resolves to '{}', outside '{}'", path, real.string(), dir));
  return {};
}

}  // namespace

Result<void> check_resolved_inside(const std::string& path, const std::string& dir) {
  std::error_code ec;
  const auto real = fs::canonical(path, ec);
  if (ec) return io_error(fmt::format("cannot open '{}': {}", path, ec.message()));
  return real_path_inside(real, path, dir);
}

Result<void> check_opened_inside(int fd, const std::string& path, const std::string& dir) {
  std::error_code ec;
  const auto real = fs::read_symlink("/proc/self/fd/" + std::to_string(fd), ec);
  if (ec) return {};  // no /proc: the check by name before the open is all there is
  return real_path_inside(real, path, dir);
}

Result<std::unique_ptr<FileSource>> open_file_inside(const std::string& path, const std::string& dir) {
  if (auto inside = check_resolved_inside(path, dir); !inside) return inside.error();
  auto file = FileSource::open(path);
  if (!file) return file.error();
  if (auto inside = check_opened_inside((*file)->fd(), path, dir); !inside) return inside.error();
  return file;
}

}  // namespace msdump
