#pragma once
// EntryWorkers: the entries of a dump.json parsed and visited on several threads, each entry
// parsed, visited and freed by one thread (its tree never leaves that core's caches), the
// results handed out in file order, so that what the caller builds from them is what a
// one-thread pass would build. verify's entry checks (verify/parallel_checks.h) and anomalies'
// entry scans (anomalies/dump_scan.cpp) are its visitors.
//
// A reader thread runs DumpJsonStream with raw_entries: header members and the data markers
// come through as events; entries come as text, grouped into chunks of ~64 KiB. The chunks go
// through an OrderedPool (core/ordered_pool.h): a chunk is run by one thread (the caller's,
// inside next(); an extra worker; or the reader when enough chunks wait), which parses each
// entry (duplicate keys noted) into its own pyjson::TreeArena, runs the visitor of that thread
// on it, and frees the tree. A visitor may settle an entry from its text alone
// (EntryVisitor::visit_text; anomalies does for entries with nothing to report), which skips the
// parse. next() yields the events and the visited entries in order.
//
// What the raw stream cannot vouch for ends it: a syntax error anywhere, an entry text that
// does not parse to its last byte, a second "data" object. next() then fails, and the caller
// reads the file again one entry at a time, whose messages are the reference
// (parallel_else_one_by_one below). Memory stays bounded: at most k_chunks_in_flight chunks.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/ordered_pool.h"
#include "core/result.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::dump {

// One entry as the reader found it, handed to a visitor with its parsed value.
struct EntryKey {
  std::string name;
  std::uint64_t line = 0;       // of its key
  bool duplicate_keys = false;  // an object in the entry repeats a key
};

// A chunk's results, one per entry, of the visitor's type (EntryResults<R>).
struct ChunkResults {
  virtual ~ChunkResults() = default;
};
template <class R>
struct EntryResults final : ChunkResults {
  std::vector<R> items;
};

// Visits parsed entries on one thread: each thread that runs chunks has its own instance, so
// it may keep scratch state; instances run at the same time on different threads.
class EntryVisitor {
 public:
  virtual ~EntryVisitor() = default;
  // The results of a chunk of `entries` entries, before its first visit.
  virtual std::unique_ptr<ChunkResults> results_for(std::size_t entries) = 0;
  // Entry `i` of the chunk from its text, before it is parsed: true when the visitor is done
  // with it (the entry is then not parsed; `key` may be moved from), false to have it parsed and
  // visited. Only for text that parse_json accepts may it return true: the text is not checked
  // otherwise. `key.duplicate_keys` is not known yet (false). The default parses every entry.
  virtual bool visit_text(ChunkResults& /*results*/, std::size_t /*i*/, EntryKey& /*key*/, std::string_view /*text*/) {
    return false;
  }
  // Entry `i` of the chunk. The tree is the visitor's to use (it may move it out and back, as
  // SchemaCheck does) and is freed after the call.
  virtual void visit(ChunkResults& results, std::size_t i, EntryKey&& key, pyjson::Value& entry) = 0;
};

// A visitor whose result per entry is an R (what EntryWorkers::entry<R>() then returns).
template <class R>
class EntryVisitorOf : public EntryVisitor {
 public:
  std::unique_ptr<ChunkResults> results_for(std::size_t entries) final {
    auto r = std::make_unique<EntryResults<R>>();
    r->items.resize(entries);
    return r;
  }
  bool visit_text(ChunkResults& results, std::size_t i, EntryKey& key, std::string_view text) final {
    return visit_text(static_cast<EntryResults<R>&>(results).items[i], key, text);
  }
  void visit(ChunkResults& results, std::size_t i, EntryKey&& key, pyjson::Value& entry) final {
    visit(static_cast<EntryResults<R>&>(results).items[i], std::move(key), entry);
  }
  virtual bool visit_text(R& /*out*/, EntryKey& /*key*/, std::string_view /*text*/) { return false; }
  virtual void visit(R& out, EntryKey&& key, pyjson::Value& entry) = 0;
};

// Makes one thread's visitor, when that thread first runs a chunk of entries; nullptr gives up
// on the parallel pass (the one-entry-at-a-time pass then reports what went wrong).
using VisitorFactory = std::function<std::unique_ptr<EntryVisitor>()>;

// What next() yields: a top-level event (member, data_begin, data_end) or a visited entry
// (EntryWorkers::entry<R>()).
struct WorkerItem {
  bool is_entry = false;
  pyjson::DumpEvent event;  // when !is_entry
};

class EntryWorkers {
 public:
  // Entry text per chunk (at least one entry), unless the caller says otherwise; a chunk also
  // ends at one entry per 128 bytes of that size. Visitors that settle most entries from their
  // text (anomalies) take bigger chunks: each chunk costs a hand-over between threads.
  static constexpr std::size_t k_chunk_bytes = 64 * 1024;
  static constexpr std::size_t k_bytes_per_entry = 128;
  static constexpr std::size_t k_chunks_in_flight = 8;     // read but not yet handed out (plus 2 per extra worker)

  // `threads` >= 2 counts the reader and the caller (more add workers).
  EntryWorkers(const ByteSource& source, int threads, std::size_t chunk_bytes = k_chunk_bytes);
  ~EntryWorkers();  // stops and joins the threads
  EntryWorkers(const EntryWorkers&) = delete;
  EntryWorkers& operator=(const EntryWorkers&) = delete;

  // How entries are visited: call once, when next() has yielded data_begin, before calling it
  // again (entries wait until then).
  void start_visiting(VisitorFactory factory);

  // The next item in file order: true with an item, false at the end of the document, an
  // error when the file must be read the one-entry-at-a-time way (see above).
  Result<bool> next(WorkerItem& item);

  // The entry next() has just yielded (is_entry), as its visitor (an EntryVisitorOf<R>) left it.
  template <class R>
  R& entry() {
    return static_cast<EntryResults<R>&>(*m_results).items[m_next_entry - 1];
  }
  // The entry `k` >= 1 places after it, if it is already visited and in the same chunk (for
  // prefetching what the caller will look up then), or nullptr.
  template <class R>
  const R* ahead(std::size_t k) const {
    if (m_results == nullptr || m_next_entry == 0) return nullptr;
    const auto& items = static_cast<const EntryResults<R>&>(*m_results).items;
    const std::size_t i = m_next_entry - 1 + k;
    return i < items.size() ? &items[i] : nullptr;
  }

 private:
  struct Chunk;
  struct Slot;
  using Pool = OrderedPool<std::unique_ptr<Chunk>, std::unique_ptr<Chunk>>;
  // The reader thread: chunks of events and entries, in file order, into the pool.
  void read(Pool& pool);
  // Parses and visits the chunk's entries (on whichever thread the pool runs it).
  std::unique_ptr<Chunk> process(std::unique_ptr<Chunk>& chunk, std::size_t slot);
  bool visit_entries(Chunk& chunk, Slot& slot);

  const ByteSource& m_source;
  const std::size_t m_chunk_bytes;
  // Set by start_visiting before the pool is resumed (then read only).
  VisitorFactory m_factory;
  std::vector<std::unique_ptr<Slot>> m_slots;  // per pool slot, made when first needed

  // The caller's side.
  std::unique_ptr<Chunk> m_current;
  ChunkResults* m_results = nullptr;  // m_current's
  std::size_t m_next_event = 0, m_next_entry = 0;
  bool m_ended = false;

  // Last: its threads use the members above. Paused until start_visiting: only the caller
  // runs chunks until then (the event chunks, which need no visiting).
  std::unique_ptr<Pool> m_pool;
};

// The parallel pass over a dump's entries, else the one-entry-at-a-time pass: `parallel()`
// returns nullopt when it gives up on the file (what it built is dropped), and `one_by_one()`
// then reads it from the start; its findings and messages are the reference. With
// try_parallel false only `one_by_one()` runs (e.g. when entries are compared with files).
template <class T, class Parallel, class OneByOne>
Result<T> parallel_else_one_by_one(bool try_parallel, Parallel&& parallel, OneByOne&& one_by_one) {
  if (try_parallel) {
    std::optional<T> done = parallel();
    if (done) return std::move(*done);
  }
  return one_by_one();
}

}  // namespace msdump::dump
