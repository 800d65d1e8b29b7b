#pragma once
// EntryWorkers: checks the entries of a dump.json on several threads, each entry parsed,
// checked and freed by one thread (its tree never leaves that core's caches), and hands the
// results out in file order, so the findings are those of a one-thread pass.
//
// A reader thread runs DumpJsonStream with raw_entries: header members and the data markers
// come through as events; entries come as text, grouped into chunks of ~64 KiB. The chunks go
// through an OrderedPool (core/ordered_pool.h): a chunk is run by one thread (the caller's,
// inside next(); an extra worker; or the reader when enough chunks wait), which parses
// each entry (duplicate keys noted), runs the schema and the
// entry checks (SchemaCheck::check, check_entry) into findings of its own, and frees the
// tree. next() yields the events and checked entries in order.
//
// What the raw stream cannot vouch for ends it: a syntax error anywhere, an entry text that
// does not parse to its last byte, a second "data" object. next() then fails, and the caller
// verifies the file again one entry at a time (EventPipe), whose messages are the reference
// (docs/ARCHITECTURE.md, "verify"). Memory stays bounded: at most k_chunks_in_flight chunks.
//
// Other passes over the entries (anomalies) give an EntryVisit instead: the threads then run
// it on each parsed entry in place of verify's checks, and it leaves its result in
// CheckedEntry::payload.

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/ordered_pool.h"
#include "core/profile.h"
#include "core/result.h"
#include "pyjson/dump_json_stream.h"
#include "verify/entry_checks.h"
#include "verify/finding.h"

namespace msdump::verify {

// One entry, checked.
struct CheckedEntry {
  std::string name;
  std::uint32_t name_hash = 0;     // DumpNames::hash_of(name)
  std::uint64_t line = 0;          // of its key
  std::vector<Finding> findings;   // schema findings, then the entry checks', in order
  std::uint64_t leaves = 0;        // tensor and ndarray leaves
  std::uint32_t signals = 0;       // format profile signals (dump/format_signals.h)
  bool has_input_args = false;
  std::any payload;                // what an EntryVisit left (verify's checks leave none)
};

// Runs on the worker threads, several at once: must be safe to call concurrently. Gets the
// entry's name and parsed value and fills `out.payload`.
using EntryVisit = std::function<void(const std::string& name, const pyjson::Value& entry, CheckedEntry& out)>;

// What next() yields: a top-level event (member, data_begin, data_end) or a checked entry.
struct WorkerItem {
  bool is_entry = false;
  pyjson::DumpEvent event;  // when !is_entry
  CheckedEntry entry;       // when is_entry
};

class EntryWorkers {
 public:
  static constexpr std::size_t k_chunk_bytes = 64 * 1024;  // entry text per chunk (at least one entry)
  static constexpr std::size_t k_chunk_entries = 512;
  static constexpr std::size_t k_chunks_in_flight = 8;     // read but not yet handed out (plus 2 per extra worker)
  static constexpr std::size_t k_read_window_bytes = 1 << 20;  // the reader's file window (grows for bigger entries)

  // `file` goes into each finding; `threads` >= 2 counts the reader and the caller (more add
  // workers); `warn_only` as FindingSink's. With `visit`, it runs instead of verify's checks.
  EntryWorkers(const ByteSource& source, std::string file, int threads, std::vector<FindingKind> warn_only,
               EntryVisit visit = {});
  ~EntryWorkers();  // stops and joins the threads
  EntryWorkers(const EntryWorkers&) = delete;
  EntryWorkers& operator=(const EntryWorkers&) = delete;

  // How entries are checked: call once, when next() has yielded data_begin, before calling it
  // again (entries wait until then). `schema_profile` selects the schema (schema_choice.h).
  void start_checking(const EntryContext& ctx, Framework framework, Profile schema_profile);

  // The next item in file order: true with an item, false at the end of the document, an
  // error when the file must be verified the one-entry-at-a-time way (see above).
  Result<bool> next(WorkerItem& item);

  // The entry `k` >= 1 places after the last one next() yielded, if it is already checked and
  // in the same chunk (for prefetching what the caller will look up then), or nullptr.
  const CheckedEntry* ahead(std::size_t k) const;

 private:
  struct Chunk;
  struct Checker;
  using Pool = OrderedPool<std::unique_ptr<Chunk>, std::unique_ptr<Chunk>>;
  // The reader thread: chunks of events and entries, in file order, into the pool.
  void read(Pool& pool);
  // Checks the chunk's entries (on whichever thread the pool runs it).
  std::unique_ptr<Chunk> process(std::unique_ptr<Chunk>& chunk, std::size_t slot);
  bool check_entries(Chunk& chunk, Checker& checker);

  const ByteSource& m_source;
  std::string m_file;
  std::vector<FindingKind> m_warn_only;
  EntryVisit m_visit;
  // Set by start_checking before the pool is resumed (then read only).
  bool m_checking = false;
  EntryContext m_ctx;
  Framework m_framework = Framework::pytorch;
  Profile m_profile = Profile::current;
  std::vector<std::unique_ptr<Checker>> m_checkers;  // per pool slot, made when first needed

  // The caller's side.
  std::unique_ptr<Chunk> m_current;
  std::size_t m_next_event = 0, m_next_entry = 0;
  bool m_ended = false;

  // Last: its threads use the members above. Paused until start_checking: only the caller
  // runs chunks until then (the event chunks, which need no checking).
  std::unique_ptr<Pool> m_pool;
};

}  // namespace msdump::verify
