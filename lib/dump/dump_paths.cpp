#include "dump/dump_paths.h"

#include <fmt/format.h>

namespace msdump::dump {

namespace fs = std::filesystem;

Result<std::string> resolve_dump(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const auto p = (fs::path(path) / k_dump_json).string();
    if (!fs::exists(p, ec)) return io_error(fmt::format("'{}': no {} in this directory", path, k_dump_json));
    return p;
  }
  if (!fs::exists(path, ec)) return io_error(fmt::format("'{}': no such file or directory", path));
  return path;
}

fs::path tensor_dir(const fs::path& dump_dir, const std::optional<std::string>& given) {
  return given ? fs::path(*given) : dump_dir / k_tensor_dir;
}

}  // namespace msdump::dump
