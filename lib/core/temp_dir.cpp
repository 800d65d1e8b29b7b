#include "core/temp_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace msdump {

namespace fs = std::filesystem;

Result<TempDir> TempDir::create(const std::string& prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec) return io_error(fmt::format("no temporary directory: {}", ec.message()));
  std::string tmpl = (base / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr)
    return io_error(fmt::format("cannot create a temporary directory in '{}': {}", base.string(), std::strerror(errno)));
  return TempDir(fs::path(tmpl));
}

TempDir::TempDir(TempDir&& other) noexcept : m_path(std::move(other.m_path)) { other.m_path.clear(); }

TempDir::~TempDir() {
  if (m_path.empty()) return;
  std::error_code ec;
  fs::remove_all(m_path, ec);
}

}  // namespace msdump
