#pragma once
// AtomicFile: write to "<path>.msdump-tmp-<pid>-<n>" in the same directory, fsync, then
// rename() over the target on commit(). An AtomicFile destroyed without commit() removes its
// temporary file, so a failed or interrupted run never leaves a half-written output.
// A target that exists and is not a regular file (/dev/null, a FIFO, a terminal) is written
// directly: renaming over it would replace the device with a file.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"

namespace msdump {

enum class Overwrite { no, yes };

class AtomicFile {
 public:
  // Creates the temporary file. With Overwrite::no an existing target is an ErrorCode::exists.
  static Result<std::unique_ptr<AtomicFile>> create(const std::string& path, Overwrite overwrite);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Buffered append; errors are remembered and reported by commit().
  void write(std::string_view bytes);
  void write(std::span<const std::byte> bytes);
  // Flushes, fsyncs and renames the temporary file over the target.
  Result<void> commit();
  const std::string& path() const { return m_path; }
  std::size_t bytes_written() const { return m_written; }

 private:
  AtomicFile(int fd, std::string path, std::string tmp_path, Overwrite overwrite);
  void flush_buffer();
  void write_through(std::string_view bytes);  // write(2) all of it, then the writeback step

  int m_fd;
  std::string m_path;
  std::string m_tmp_path;
  Overwrite m_overwrite;
  std::string m_buffer;
  std::size_t m_written = 0;
  std::uint64_t m_flushed = 0;      // bytes handed to write(2)
  std::uint64_t m_writeback_from = 0;  // start of the bytes whose writeback was not started yet
  int m_errno = 0;
  bool m_committed = false;
  bool m_direct = false;  // writing straight to a device / FIFO
};

// Writes `bytes` to `path` atomically in one call.
Result<void> write_file_atomic(const std::string& path, std::string_view bytes, Overwrite overwrite);

// Makes sure an output file can be written before any work is done: creates the missing
// directories above `path`, and fails (naming the directory) when one cannot be created, is not
// writable, or `path` is itself a directory.
Result<void> prepare_output_file(const std::string& path);

// Removes stale "*.msdump-tmp-*" files left in `dir` by a killed process (not recursive).
void remove_stale_temporaries(const std::string& dir);

}  // namespace msdump
