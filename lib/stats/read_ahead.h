#pragma once
// ReadAhead: streams a byte range of a ByteSource through a few reused windows, reading the
// next window on a background thread while the caller processes the current one. On the
// reference VM reading a page-cached file (a kernel copy) and the statistics pass over it are
// comparable in cost; overlapping them hides the read (docs/performance.md).

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "core/byte_source.h"
#include "core/result.h"

namespace msdump::stats {

class ReadAhead {
 public:
  // Reads [begin, end) of `source` into `windows` (all the same size, at least two) in order.
  // The windows must stay valid until the ReadAhead is destroyed.
  ReadAhead(const ByteSource& source, std::uint64_t begin, std::uint64_t end, std::vector<std::span<std::byte>> windows);
  // Stops the reader (if still running) and waits for it.
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next bytes of the range, in order; an empty span once the range is exhausted; or the
  // source's read error. The span stays valid until the next call.
  Result<std::span<const std::byte>> next();

 private:
  struct Filled {
    std::size_t window;
    std::size_t size;
  };
  void run();

  const ByteSource& m_source;
  const std::uint64_t m_begin;
  const std::uint64_t m_end;
  std::vector<std::span<std::byte>> m_windows;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Filled> m_filled;        // read, not yet handed out
  std::vector<std::size_t> m_free;    // windows the reader may fill
  std::optional<std::size_t> m_held;  // window handed out by the last next()
  std::optional<Error> m_error;
  bool m_done = false;
  bool m_stop = false;
  std::jthread m_thread;  // last member: starts after everything above is initialised
};

}  // namespace msdump::stats
