#pragma once
// EventPipe: parses a dump.json on a second thread while the caller checks the entries already
// parsed, so parsing and checking overlap (the two dominant costs of verify, about equal).
// Events arrive in file order through a small bounded queue, so findings stay deterministic;
// memory stays bounded by the queue's few entries.

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/byte_source.h"
#include "core/result.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::verify {

class EventPipe {
 public:
  static constexpr std::size_t k_capacity = 64;  // events queued at most (plus one batch)
  static constexpr std::size_t k_batch = 16;     // events handed over per lock

  explicit EventPipe(const ByteSource& source);
  ~EventPipe();  // stops and joins the parser thread
  EventPipe(const EventPipe&) = delete;
  EventPipe& operator=(const EventPipe&) = delete;

  // Same contract as DumpJsonStream::next: true with an event, false at the end, an error for
  // a syntax error, truncation or read error (after which the pipe stays ended).
  Result<bool> next(pyjson::DumpEvent& event);

 private:
  void produce();

  pyjson::DumpJsonStream m_stream;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  // Vectors rather than deques: their storage goes back and forth in the swaps and is reused,
  // where a deque allocates blocks on one thread and frees them on the other.
  std::vector<pyjson::DumpEvent> m_queue;  // shared, under m_mutex
  std::vector<pyjson::DumpEvent> m_local;  // the consumer's, taken from m_queue in one swap
  std::size_t m_next = 0;                  // the next event of m_local
  bool m_done = false;
  bool m_stop = false;
  std::vector<pyjson::DumpEvent> m_returned;  // consumed events for the parser thread to free, under m_mutex
  std::vector<pyjson::DumpEvent> m_spent;     // the consumer's, handed over as m_returned
  std::optional<Error> m_error;
  std::thread m_thread;
};

}  // namespace msdump::verify
