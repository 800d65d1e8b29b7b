#pragma once
// EventPipe: parses a dump.json on a second thread while the caller checks the entries already
// parsed, so parsing and checking overlap (the two dominant costs of verify).
// Events arrive in file order, in batches, through a small bounded queue (an OrderedPool whose
// items need no more work), so findings stay deterministic; memory stays bounded by the
// queue's few batches.
//
// Load balancing: checking costs more than parsing, so when the checker falls behind (many
// events parsed but not yet taken), the parser thread also runs the schema's yes/no test
// (SchemaCheck::is_valid, a pure function of the entry) on the entries it parses, and next()
// reports the entries it found valid: the checker then skips their schema walk. Which thread
// ran the test never changes a finding: an entry that fails it, or was not tested, is
// validated (with messages) by the checker as before.

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/byte_source.h"
#include "core/ordered_pool.h"
#include "core/result.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::verify {

class SchemaCheck;

class EventPipe {
 public:
  static constexpr std::size_t k_capacity = 64;  // events queued at most (plus the one being taken)
  static constexpr std::size_t k_batch = 16;     // events handed over per lock
  // Parsed-but-not-taken events from which the parser thread starts testing entries itself.
  static constexpr std::size_t k_busy_backlog = 48;

  explicit EventPipe(const ByteSource& source);
  ~EventPipe();  // stops and joins the parser thread (the pool's producer)
  EventPipe(const EventPipe&) = delete;
  EventPipe& operator=(const EventPipe&) = delete;

  // Same contract as DumpJsonStream::next: true with an event, false at the end, an error for
  // a syntax error, truncation or read error (after which the pipe stays ended). If
  // `schema_valid` is given, it is set to true for an entry that the parser thread found valid
  // by the schema given to set_schema (false: not tested or invalid).
  // If `no_duplicate_keys` is given, it is set to true for an entry in which the parser
  // thread found no object with a repeated key (what has_duplicate_keys_anywhere in
  // entry_checks.h answers, noted by the parser: ReadOptions::note_duplicate_keys).
  Result<bool> next(pyjson::DumpEvent& event, bool* schema_valid = nullptr, bool* no_duplicate_keys = nullptr);

  // Lets the parser thread test the entries it parses from now on with `schema` (its own
  // instance). Only the first call has an effect.
  void set_schema(std::unique_ptr<SchemaCheck> schema);

 private:
  static constexpr char k_valid = 1, k_no_duplicates = 2;  // flags of a queued event
  // Up to k_batch events handed over at once; the last batch ends the pipe (with the error).
  struct Batch {
    std::vector<pyjson::DumpEvent> events;
    std::vector<char> flags;  // per event: k_valid | k_no_duplicates
    bool end = false;
    std::optional<Error> error;
  };
  using Pool = OrderedPool<Batch, Batch>;
  void produce(Pool& pool);

  pyjson::DumpJsonStream m_stream;
  std::unique_ptr<SchemaCheck> m_schema_owned;  // set once, freed after the thread ends
  std::atomic<const SchemaCheck*> m_schema{nullptr};
  std::atomic<std::uint64_t> m_taken{0};  // events next() has returned
  Batch m_local;                          // the consumer's batch
  std::size_t m_next = 0;                 // the next event of m_local
  bool m_ended = false;
  std::mutex m_returned_mutex;
  std::vector<pyjson::DumpEvent> m_returned;  // consumed events for the parser thread to free, under m_returned_mutex
  std::vector<pyjson::DumpEvent> m_spent;     // the consumer's, handed over as m_returned
  std::unique_ptr<Pool> m_pool;  // last: its parser thread uses the members above
};

}  // namespace msdump::verify
