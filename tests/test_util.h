#pragma once
// Helpers shared by the unit tests: a fresh temporary directory per test (kept, with its path
// printed, when MSDUMP_KEEP_TEST_DIRS is set) and paths into the source tree.

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace msdump::testing {

inline std::filesystem::path source_dir() { return MSDUMP_SOURCE_DIR; }
inline std::filesystem::path testdata(const std::string& rel) { return source_dir() / "testdata" / rel; }
// Real msprobe dumps (testdata/msprobe/README.md): current/<case>/stepN/..., legacy/stepN/...
inline std::filesystem::path samples_dir() { return testdata("msprobe"); }

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "msdump-test-XXXXXX").string();
    m_path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    if (::getenv("MSDUMP_KEEP_TEST_DIRS") != nullptr) {
      MESSAGE("kept test directory " << m_path.string());
      return;
    }
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& rel) const { return m_path / rel; }

 private:
  std::filesystem::path m_path;
};

}  // namespace msdump::testing
