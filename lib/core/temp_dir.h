#pragma once
// A fresh private directory under the system's temporary directory ($TMPDIR, else /tmp),
// removed with everything in it when the object goes out of scope, on every path: success,
// error return or exception.

#include <filesystem>
#include <string>

#include "core/result.h"

namespace msdump {

class TempDir {
 public:
  // mkdtemp("<tmp>/<prefix>-XXXXXX"): a new directory only its owner can enter.
  static Result<TempDir> create(const std::string& prefix);
  ~TempDir();
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }

 private:
  explicit TempDir(std::filesystem::path path) : m_path(std::move(path)) {}
  std::filesystem::path m_path;  // empty once moved from
};

}  // namespace msdump
