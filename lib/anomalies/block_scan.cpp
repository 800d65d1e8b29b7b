#include "anomalies/block_scan.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "anomalies/clean_entry.h"
#include "anomalies/clean_shapes.h"
#include "core/ordered_pool.h"
#include "pyjson/container_skip.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_cursor.h"
#include "pyjson/plain_scanner.h"

namespace msdump::anomalies {
namespace {

constexpr std::uint64_t k_slack_bytes = 64 << 10;  // read past a block for the entry that runs on
constexpr std::string_view k_entry_line = "\n  \"";
constexpr std::uint64_t k_max_trailer_bytes = 4096;

// What one block's scan found.
struct Block {
  bool ok = true;                       // false: give up
  std::optional<std::uint64_t> start;   // its first entry's key, when an entry begins in it
  std::uint64_t stop = 0;               // where its entries left off: the next key, or the data's '}'
  bool data_end = false;                // stop is the '}' that closes "data"
  std::uint64_t entries = 0;
  std::vector<std::pair<std::uint64_t, EntryScan>> scanned;  // the entries that are not clean, by index
};

// A thread's bytes of the source: [m_begin, m_begin + m_size), in a buffer kept from block to block.
class Window {
 public:
  explicit Window(const ByteSource& src) : m_src(src) {}

  // Reads [begin, want) (cut at the end of the source).
  bool load(std::uint64_t begin, std::uint64_t want) {
    want = std::min(want, m_src.size());
    const std::size_t n = static_cast<std::size_t>(want > begin ? want - begin : 0);
    if (n > m_capacity) {
      m_buf = std::make_unique_for_overwrite<char[]>(n);
      m_capacity = n;
    }
    m_begin = begin;
    m_size = n;
    return static_cast<bool>(m_src.read_at(begin, std::as_writable_bytes(std::span(m_buf.get(), n))));
  }
  // Again from `from`, twice as far past it as now.
  bool grow(std::uint64_t from) { return load(from, from + std::max<std::uint64_t>(2 * (end_offset() - from), k_slack_bytes)); }

  bool at_source_end() const { return end_offset() == m_src.size(); }
  std::uint64_t end_offset() const { return m_begin + m_size; }
  const char* at(std::uint64_t offset) const { return m_buf.get() + (offset - m_begin); }
  const char* end() const { return m_buf.get() + m_size; }
  std::uint64_t offset_of(const char* p) const { return m_begin + static_cast<std::uint64_t>(p - m_buf.get()); }

 private:
  const ByteSource& m_src;
  std::unique_ptr<char[]> m_buf;
  std::size_t m_capacity = 0;
  std::uint64_t m_begin = 0;
  std::size_t m_size = 0;
};

// Scans blocks on one thread.
class BlockScanner {
 public:
  BlockScanner(const ByteSource& src, const ScanOptions& so, std::uint64_t data_start, std::uint64_t block_bytes)
      : m_src(src), m_so(so), m_clean(so.overflow_fraction), m_shapes(m_clean), m_data_start(data_start), m_block_bytes(block_bytes), m_window(src),
        m_cursor(pyjson::ReadOptions{.exact_capacity = false}) {}

  Block scan(std::size_t i) {
    Block b;
    const std::uint64_t a = m_data_start + i * m_block_bytes;
    const std::uint64_t a_next = std::min(a + m_block_bytes, m_src.size());
    if (i == 0) {
      b.start = a;
      b.ok = m_window.load(a, a_next + k_slack_bytes);
    } else {
      b.ok = m_window.load(a - (k_entry_line.size() - 1), a_next + k_slack_bytes);
      b.start = first_entry_line(a, a_next);
    }
    if (!b.ok || !b.start) return b;
    std::uint64_t p = *b.start;
    while (b.ok && p < a_next) b.ok = entry(p, b);
    return b;
  }

 private:
  enum class Step { next, more, stop, give_up };

  // The key of the first line "\n  \"" whose quote is in [a, a_next).
  std::optional<std::uint64_t> first_entry_line(std::uint64_t a, std::uint64_t a_next) const {
    const std::string_view text(m_window.at(a - (k_entry_line.size() - 1)),
                                static_cast<std::size_t>(a_next - a) + k_entry_line.size() - 1);
    const std::size_t at = text.find(k_entry_line);
    if (at == std::string_view::npos) return std::nullopt;
    return a + at;
  }

  // The entry whose key is at p (read further while it runs past the window); p moves to the
  // next key, or the block ends at the data's '}'. False: give up.
  bool entry(std::uint64_t& p, Block& b) {
    for (;;) {
      switch (step(p, b)) {
        case Step::next: return true;
        case Step::stop: return true;
        case Step::give_up: return false;
        case Step::more:
          if (m_window.at_source_end() || !m_window.grow(p)) return false;
      }
    }
  }

  Step step(std::uint64_t& p, Block& b) {
    const char* const end = m_window.end();
    const char* const key = m_window.at(p);
    if (key == end) return Step::more;
    if (*key != '"') return Step::give_up;
    const char* q = pyjson::skip_plain_ascii(key + 1, end);
    if (q == end) return Step::more;
    if (*q != '"') return Step::give_up;  // an escape or a byte that is not printable ASCII
    const std::string_view name(key + 1, static_cast<std::size_t>(q - key - 1));
    q = pyjson::skip_plain_ws(q + 1, end);
    if (q == end) return Step::more;
    if (*q != ':') return Step::give_up;
    const char* const value = pyjson::skip_plain_ws(q + 1, end);
    if (value == end) return Step::more;
    if (*value != '{' && *value != '[') return Step::give_up;
    std::optional<EntryScan> scan;
    const char* after = m_shapes.clean_value(name, value, end);
    if (after == nullptr) {
      after = pyjson::skip_json_container(value, end).end;
      if (after == nullptr) return Step::more;
      if (!parse(value, after)) return Step::give_up;
      scan = scan_entry(std::string(name), m_value, m_so);
      m_value = pyjson::Value();
    }
    q = pyjson::skip_plain_ws(after, end);
    if (q == end) return Step::more;
    if (*q == '}') {
      b.stop = m_window.offset_of(q);
      b.data_end = true;
    } else if (*q == ',') {
      q = pyjson::skip_plain_ws(q + 1, end);
      if (q == end) return Step::more;
      b.stop = m_window.offset_of(q);
    } else {
      return Step::give_up;
    }
    if (scan) b.scanned.emplace_back(b.entries, std::move(*scan));
    ++b.entries;
    p = b.data_end ? m_src.size() : b.stop;
    return b.data_end ? Step::stop : Step::next;
  }

  bool parse(const char* begin, const char* end) {
    m_cursor.reset(std::string_view(begin, static_cast<std::size_t>(end - begin)));
    return m_cursor.parse_value(m_value, 2) && m_cursor.peek() < 0;
  }

  const ByteSource& m_src;
  const ScanOptions& m_so;
  CleanEntryRule m_clean;
  CleanShapes m_shapes;
  std::uint64_t m_data_start;
  std::uint64_t m_block_bytes;
  Window m_window;
  pyjson::JsonCursor m_cursor;
  pyjson::Value m_value;
};

// The offset of the first entry's key, from the header's parse; nullopt without one.
std::optional<std::uint64_t> first_entry(const ByteSource& src) {
  pyjson::DumpStreamOptions o;
  o.raw_entries = true;
  o.buffer_bytes = 64 << 10;
  pyjson::DumpJsonStream stream(src, o);
  pyjson::DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    if (!more || !*more || ev.type == pyjson::DumpEvent::Type::data_end) return std::nullopt;
    if (ev.type == pyjson::DumpEvent::Type::entry) return ev.offset;
  }
}

// After the '}' of "data": whitespace, the document's '}', whitespace.
bool document_ends(const ByteSource& src, std::uint64_t data_close) {
  const std::uint64_t from = data_close + 1;
  if (src.size() - from > k_max_trailer_bytes) return false;
  std::string tail(static_cast<std::size_t>(src.size() - from), '\0');
  if (!src.read_at(from, std::as_writable_bytes(std::span(tail.data(), tail.size())))) return false;
  const char* end = tail.data() + tail.size();
  const char* p = pyjson::skip_plain_ws(tail.data(), end);
  if (p == end || *p != '}') return false;
  return pyjson::skip_plain_ws(p + 1, end) == end;
}

}  // namespace

bool scan_in_blocks(const ByteSource& source, const ScanOptions& options, int threads, OriginTracker& tracker,
                    std::uint64_t block_bytes) {
  if (options.tensor_dir) return false;
  const auto data_start = first_entry(source);
  if (!data_start) return false;
  block_bytes = std::max<std::uint64_t>(block_bytes, k_entry_line.size());
  const std::size_t blocks = static_cast<std::size_t>((source.size() - *data_start + block_bytes - 1) / block_bytes);
  const std::size_t workers = static_cast<std::size_t>(std::max(threads, 2) - 1);
  std::vector<std::unique_ptr<BlockScanner>> scanners(workers + 2);
  std::uint64_t expected = *data_start;  // where the next block with entries must begin
  bool ended = false;
  const bool all = for_each_ordered<Block>(
      blocks, OrderedPoolOptions{.workers = workers, .capacity = 2 * (workers + 1)},
      [&](std::size_t i, std::size_t slot) {
        auto& s = scanners[slot];
        if (!s) s = std::make_unique<BlockScanner>(source, options, *data_start, block_bytes);
        return s->scan(i);
      },
      [&](std::size_t i, Block&& b) {
        if (!b.ok) return false;
        // A block without an entry line must lie inside an entry: the next entry cannot begin
        // in it (else that entry's line is not where the layout puts it: give up now, not at
        // the end of the file).
        const std::uint64_t block_end = std::min<std::uint64_t>(source.size(), *data_start + (i + 1) * block_bytes);
        if (!b.start) return ended || expected >= block_end;
        if (ended || *b.start != expected) return false;
        std::uint64_t added = 0;
        for (const auto& [index, scan] : b.scanned) {
          tracker.add_clean(index - added);
          tracker.add(scan);
          added = index + 1;
        }
        tracker.add_clean(b.entries - added);
        expected = b.stop;
        ended = b.data_end;
        return true;
      });
  return all && ended && document_ends(source, expected);
}

}  // namespace msdump::anomalies
