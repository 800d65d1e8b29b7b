#include "batch/progress.h"

#include <fmt/format.h>

namespace msdump::batch {
namespace {

std::string human_rate(double bytes_per_s) {
  if (bytes_per_s >= 1e9) return fmt::format("{:.2f} GB/s", bytes_per_s / 1e9);
  if (bytes_per_s >= 1e6) return fmt::format("{:.1f} MB/s", bytes_per_s / 1e6);
  return fmt::format("{:.0f} kB/s", bytes_per_s / 1e3);
}

std::string clock(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  return fmt::format("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

}  // namespace

Progress::Progress(std::ostream& out, ProgressStyle style, std::size_t total, std::chrono::seconds line_interval)
    : m_out(out), m_style(style), m_total(total), m_start(std::chrono::steady_clock::now()), m_last_draw(m_start),
      m_interval(line_interval) {}

void Progress::item_done(std::uint64_t bytes) {
  std::lock_guard lock(m_mutex);
  ++m_done;
  m_bytes += bytes;
  const auto now = std::chrono::steady_clock::now();
  if (m_style == ProgressStyle::bar && now - m_last_draw >= std::chrono::milliseconds(100)) draw(false);
  else if (m_style == ProgressStyle::lines && now - m_last_draw >= m_interval) draw(false);
}

void Progress::finish() {
  std::lock_guard lock(m_mutex);
  if (m_style != ProgressStyle::none) draw(true);
}

void Progress::draw(bool final) {
  m_last_draw = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(m_last_draw - m_start).count();
  const double rate = elapsed > 0 ? static_cast<double>(m_bytes) / elapsed : 0.0;
  const double per_item = m_done > 0 ? elapsed / static_cast<double>(m_done) : 0.0;
  const double eta = per_item * static_cast<double>(m_total - m_done);
  if (m_style == ProgressStyle::bar) {
    constexpr int k_width = 30;
    const int filled = m_total == 0 ? k_width : static_cast<int>(k_width * m_done / m_total);
    m_out << fmt::format("\r[{}{}] {}/{} items, {}, ETA {}", std::string(static_cast<std::size_t>(filled), '#'),
                         std::string(static_cast<std::size_t>(k_width - filled), '.'), m_done, m_total, human_rate(rate),
                         clock(eta));
    if (final) m_out << "\n";
  } else {
    m_out << fmt::format("msdump: {}/{} items done, {}, {} elapsed{}\n", m_done, m_total, human_rate(rate),
                         clock(elapsed), final ? "" : fmt::format(", ETA {}", clock(eta)));
  }
  m_out.flush();
}

}  // namespace msdump::batch
