#pragma once
// Progress of a batch on stderr: on a terminal a bar redrawn in place (items done/total,
// bytes/s, ETA); otherwise a plain line every few seconds, so CI logs stay readable; nothing
// when quiet. Thread-safe: workers report finished items from any thread.

#include <chrono>
#include <cstdint>
#include <mutex>
#include <ostream>

namespace msdump::batch {

enum class ProgressStyle { bar, lines, none };

class Progress {
 public:
  Progress(std::ostream& out, ProgressStyle style, std::size_t total, std::chrono::seconds line_interval = std::chrono::seconds(5));
  // One item finished; `bytes` it read.
  void item_done(std::uint64_t bytes);
  // Final line (bar: ends the in-place line).
  void finish();

 private:
  void draw(bool final);
  std::ostream& m_out;
  ProgressStyle m_style;
  std::size_t m_total;
  std::size_t m_done = 0;
  std::uint64_t m_bytes = 0;
  std::chrono::steady_clock::time_point m_start;
  std::chrono::steady_clock::time_point m_last_draw;
  std::chrono::seconds m_interval;
  std::mutex m_mutex;
};

}  // namespace msdump::batch
