#pragma once
// ByteSource: random-access bytes, from memory or from a file. Parsers take a ByteSource (or a
// span) rather than a path, so tests and fuzzers run on in-memory bytes, while files are read
// with pread() in bounded windows: for readers that touch each byte once, a reused window is
// cheaper than a fresh mapping's page faults (docs/performance.md "mmap vs read"; tensor
// statistics map large tensors instead, stats/leaf_stats.h).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace msdump {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Total size in bytes.
  virtual std::uint64_t size() const = 0;
  // Name used in error messages (the file path, or "<memory>").
  virtual const std::string& name() const = 0;
  // Fills `out` with the bytes at [offset, offset + out.size()). Fails (never reads short) when
  // the range is beyond the end or the read fails.
  virtual Result<void> read_at(std::uint64_t offset, std::span<std::byte> out) const = 0;
  // If the whole source is in memory, its bytes; otherwise an empty span.
  virtual std::span<const std::byte> memory() const { return {}; }

  // Convenience: reads [offset, offset + n) into a new vector.
  Result<std::vector<std::byte>> read_vector(std::uint64_t offset, std::size_t n) const;
};

// Borrows bytes owned by someone else.
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::span<const std::byte> bytes, std::string name = "<memory>");
  std::uint64_t size() const override { return m_bytes.size(); }
  const std::string& name() const override { return m_name; }
  Result<void> read_at(std::uint64_t offset, std::span<std::byte> out) const override;
  std::span<const std::byte> memory() const override { return m_bytes; }

 private:
  std::span<const std::byte> m_bytes;
  std::string m_name;
};

// A file opened read-only; reads use pread(), so one FileSource may be shared between threads.
class FileSource final : public ByteSource {
 public:
  static Result<std::unique_ptr<FileSource>> open(const std::string& path);
  // Takes ownership of `fd` (open for reading; closed here on failure), named `path` in
  // messages. io_error when it is not a regular file.
  static Result<std::unique_ptr<FileSource>> adopt(int fd, std::string path);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::uint64_t size() const override { return m_size; }
  const std::string& name() const override { return m_path; }
  Result<void> read_at(std::uint64_t offset, std::span<std::byte> out) const override;
  int fd() const { return m_fd; }

 private:
  FileSource(int fd, std::uint64_t size, std::string path);
  int m_fd;
  std::uint64_t m_size;
  std::string m_path;
};

// Reads a whole file into memory (small files: JSON, headers). Error names the path.
Result<std::string> read_file(const std::string& path);

inline std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

}  // namespace msdump
