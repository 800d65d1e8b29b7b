#include "convert/capture_entries.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <spdlog/spdlog.h>

#include "core/logger.h"
#include "core/ordered_pool.h"
#include "trace/line_reader.h"

namespace msdump::convert {
namespace {

// What every batch shares.
struct Pass {
  const std::vector<const EntryOrder::Entry*>& entries;
  const ByteSource& source;
  const std::string& trace_path;
  const EntryRules& rules;
};

// One thread's tools.
struct Worker {
  explicit Worker(LeafContext c) : leaves(std::move(c)) {}
  LeafConverter leaves;
  std::string span;                // the trace bytes of a batch's events, when they lie close together
  std::vector<std::string> lines;  // else the lines of one entry
  std::string name;
  std::vector<EventLine> events;
  CaptureEntry entry;
};

// One batch, converted and formatted.
struct Slot {
  dump::EntryFormatter fmt;
  std::vector<Problem> problems;
  std::optional<Error> error;         // the batch failed: the conversion stops
  std::optional<Error> format_error;  // the writer's verdict (reported as finish() would)
  std::string_view items;
};

// Entries [begin, end) of the pass into `slot`.
void convert_batch(const Pass& p, Worker& w, std::size_t begin, std::size_t end, Slot& slot) {
  slot.fmt.reset();
  slot.problems.clear();
  slot.error.reset();
  slot.format_error.reset();
  // Read the events of the whole batch at once when they are close together in the file.
  std::uint64_t lo = UINT64_MAX, hi = 0, bytes = 0;
  for (std::size_t i = begin; i < end; ++i)
    for (const auto& ref : p.entries[i]->events) {
      lo = std::min(lo, ref.offset);
      hi = std::max(hi, ref.offset + ref.length);
      bytes += ref.length;
    }
  const bool spanned = lo < hi && hi - lo <= (std::uint64_t{16} << 20) && hi - lo <= 4 * bytes + (64 << 10);
  if (spanned) {
    if (auto r = trace::read_line_at(p.source, lo, static_cast<std::uint32_t>(hi - lo), w.span); !r) {
      slot.error = r.error();
      return;
    }
  }
  for (std::size_t i = begin; i < end; ++i) {
    const auto& entry = *p.entries[i];
    const std::string& name = w.name.assign(entry.name);
    w.events.clear();
    if (!spanned && w.lines.size() < entry.events.size()) w.lines.resize(entry.events.size());
    for (const auto& ref : entry.events) {
      if (spanned) {
        w.events.push_back({std::string_view(w.span).substr(ref.offset - lo, ref.length), ref.line, ref.text_hash});
        continue;
      }
      // One line at a time: each in its own buffer, all alive until the entry is written.
      std::string& text = w.lines[w.events.size()];
      if (auto r = trace::read_line_at(p.source, ref.offset, ref.length, text); !r) {
        slot.error = r.error();
        return;
      }
      w.events.push_back({text, ref.line, ref.text_hash});
    }
    auto kept = w.entry.write(name, w.events, p.rules, w.leaves, p.trace_path, slot.fmt, slot.problems);
    if (!kept) {
      slot.error = kept.error();
      return;
    }
  }
  auto items = slot.fmt.finish();
  if (items) slot.items = *items;
  else slot.format_error = items.error();
}

// Written slots, for the next batches (their buffers are already grown).
class SpareSlots {
 public:
  std::unique_ptr<Slot> take() {
    std::lock_guard lock(m_mutex);
    if (m_spare.empty()) return std::make_unique<Slot>();
    auto s = std::move(m_spare.back());
    m_spare.pop_back();
    return s;
  }
  void give(std::unique_ptr<Slot> s) {
    std::lock_guard lock(m_mutex);
    m_spare.push_back(std::move(s));
  }

 private:
  std::mutex m_mutex;
  std::vector<std::unique_ptr<Slot>> m_spare;
};

constexpr std::size_t k_batch_entries = 256;

}  // namespace

Result<EntryPassTotals> write_capture_entries(const std::vector<const EntryOrder::Entry*>& entries,
                                              const ByteSource& source, const std::string& trace_path,
                                              const EntryRules& rules, const LeafContext& leaves, std::size_t threads,
                                              dump::DumpWriter& writer, std::vector<Problem>& problems) {
  const auto started = std::chrono::steady_clock::now();
  const Pass pass{entries, source, trace_path, rules};
  const std::size_t n_batches = (entries.size() + k_batch_entries - 1) / k_batch_entries;
  // threads - 1 workers: the caller's thread runs batches too while the one it writes next is
  // not done, so `threads` threads convert (one worker per core besides it oversubscribed the
  // cores: docs/performance.md "Convert: two passes, pass 2 text to text").
  const OrderedPoolOptions options{.workers = threads > 1 ? threads - 1 : 0, .capacity = 2 * threads + 2};  // batches in flight: bounds memory
  // One Worker per pool slot (each slot is one thread's), made when the slot first runs a batch.
  std::vector<std::unique_ptr<Worker>> workers(options.workers + 2);
  SpareSlots spares;
  EntryPassTotals totals;
  std::optional<Error> failure;
  for_each_ordered<std::unique_ptr<Slot>>(
      n_batches, options,
      [&](std::size_t k, std::size_t slot_id) {
        auto& w = workers[slot_id];
        if (!w) w = std::make_unique<Worker>(leaves);
        auto slot = spares.take();
        convert_batch(pass, *w, k * k_batch_entries, std::min(entries.size(), (k + 1) * k_batch_entries), *slot);
        return slot;
      },
      [&](std::size_t, std::unique_ptr<Slot> slot) {
        if (slot->error) {
          failure = std::move(slot->error);
          return false;
        }
        if (slot->format_error && !totals.format_error) totals.format_error = std::move(slot->format_error);
        writer.write_raw_entries(slot->items, slot->fmt.count());
        for (auto& p : slot->problems) problems.push_back(std::move(p));
        spares.give(std::move(slot));
        return true;
      });
  if (failure) return std::move(*failure);
  for (const auto& w : workers) {
    if (!w) continue;
    totals.tensors += w->leaves.tensors();
    totals.tensor_files += w->leaves.tensor_files();
    totals.bytes_read += w->leaves.bytes_read();
  }
  logger().debug("{}: entry pass: {} entries in {} batches on {} threads in {:.3f} s", trace_path, entries.size(),
                 n_batches, threads, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return totals;
}

}  // namespace msdump::convert
