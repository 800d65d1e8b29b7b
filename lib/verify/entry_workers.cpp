#include "verify/entry_workers.h"

#include <algorithm>

#include "dump/leaf_walk.h"
#include "pyjson/json_cursor.h"
#include "verify/cross_file.h"
#include "verify/finding_sink.h"
#include "verify/schema_check.h"

namespace msdump::verify {

struct EntryWorkers::Chunk {
  // Either top-level events (member, data_begin, data_end: state done from the start) or
  // entries, as the reader found them.
  std::vector<pyjson::DumpEvent> events;
  struct Entry {
    std::string name;
    std::uint64_t line = 0;
    bool is_raw = false;
    std::size_t begin = 0, size = 0;  // its text in `text` (is_raw)
    std::uint64_t offset = 0;         // absolute offset and position of that text
    pyjson::TextPosition position;
    pyjson::Value value;              // parsed by the reader (!is_raw: not an object or array)
    bool duplicate_keys = false;      // (!is_raw)
  };
  std::vector<Entry> entries;
  std::string text;
  std::vector<CheckedEntry> results;  // per entry, once done
  enum class State { waiting, claimed, done };
  State state = State::waiting;
  bool failed = false;  // an entry's text did not parse to its last byte
};

// One thread's tools for checking entries.
struct EntryWorkers::Checker {
  Checker(std::optional<SchemaCheck> s, const std::vector<FindingKind>& warn_only, const std::string& file)
      : schema(std::move(s)), sink(warn_only, 0) {
    sink.set_location(file, 0);
  }
  std::optional<SchemaCheck> schema;  // (none with an EntryVisit)
  pyjson::JsonCursor cursor{pyjson::ReadOptions{.note_duplicate_keys = true, .exact_capacity = false}};
  pyjson::TreeArena arena;  // the arrays and objects of the entry being checked
  FindingSink sink;  // collects one entry's findings at a time
  std::string pointer;
  pyjson::Value value;
};

EntryWorkers::EntryWorkers(const ByteSource& source, std::string file, int threads, std::vector<FindingKind> warn_only,
                           EntryVisit visit)
    : m_source(source), m_file(std::move(file)), m_warn_only(std::move(warn_only)), m_visit(std::move(visit)) {
  const int extra = std::max(0, threads - 2);
  m_capacity = k_chunks_in_flight + 2 * static_cast<std::size_t>(extra);
  m_reader = std::thread([this] { read(); });
  for (int i = 0; i < extra; ++i) m_workers.emplace_back([this] { work(); });
}

EntryWorkers::~EntryWorkers() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_reader.join();
  for (auto& t : m_workers) t.join();
}

void EntryWorkers::start_checking(const EntryContext& ctx, Framework framework, Profile schema_profile) {
  {
    std::lock_guard lock(m_mutex);
    m_ctx = ctx;
    m_framework = framework;
    m_profile = schema_profile;
    m_checking = true;
  }
  m_changed.notify_all();
}

EntryWorkers::Chunk* EntryWorkers::claim_locked() {
  for (auto& c : m_chunks) {
    if (c->state == Chunk::State::waiting) {
      c->state = Chunk::State::claimed;
      return c.get();
    }
  }
  return nullptr;
}

void EntryWorkers::process(Chunk& chunk, std::unique_ptr<Checker>& checker) {
  bool failed = false;
  if (!checker && m_visit) {
    checker = std::make_unique<Checker>(std::nullopt, m_warn_only, m_file);
  } else if (!checker) {
    // (The compiled schema is shared by the process: this costs a lookup, not a compilation.)
    auto schema = SchemaCheck::create(m_framework, m_profile);
    if (schema) checker = std::make_unique<Checker>(std::move(*schema), m_warn_only, m_file);
    else failed = true;  // the one-entry-at-a-time pass reports it
  }
  if (!failed) {
    Checker& k = *checker;
    // Each entry's tree is built in k.arena and gone before the arena is reset (tree_arena.h).
    const pyjson::TreeArenaScope scope(&k.arena);
    chunk.results.resize(chunk.entries.size());
    for (std::size_t i = 0; i < chunk.entries.size(); ++i) {
      Chunk::Entry& e = chunk.entries[i];
      CheckedEntry& out = chunk.results[i];
      pyjson::Value& v = e.is_raw ? k.value : e.value;
      bool duplicate_keys = e.duplicate_keys;
      if (e.is_raw) {
        k.cursor.reset(std::string_view(chunk.text).substr(e.begin, e.size), e.offset, e.position);
        if (!k.cursor.parse_value(v, 2) || k.cursor.peek() >= 0) {
          v = pyjson::Value();
          k.arena.reset();
          failed = true;
          break;
        }
        duplicate_keys = k.cursor.saw_duplicate_keys();
      }
      out.name = std::move(e.name);
      out.name_hash = DumpNames::hash_of(out.name);
      out.line = e.line;
      if (m_visit) {
        m_visit(out.name, v, out);
        v = pyjson::Value();
        k.arena.reset();
        continue;
      }
      k.sink.set_line(e.line);
      k.pointer.assign("/data");
      dump::append_pointer_token(k.pointer, out.name);
      // What the one-thread pass runs per entry, in the same order (verify.cpp).
      k.schema->check(out.name, v, k.sink);
      EntryTally tally;
      check_entry(out.name, v, m_ctx, k.pointer, k.sink, &tally, !duplicate_keys);
      out.leaves = tally.leaves;
      out.signals = tally.signals;
      out.has_input_args = v.find("input_args") != nullptr;
      if (!k.sink.findings().empty()) {
        out.findings = std::move(k.sink.findings());
        k.sink.findings().clear();
      }
      v = pyjson::Value();  // freed here, while in this core's cache
      k.arena.reset();
    }
  }
  {
    std::lock_guard lock(m_mutex);
    chunk.failed = failed;
    chunk.state = Chunk::State::done;
  }
  m_changed.notify_all();
}

bool EntryWorkers::push(std::unique_ptr<Chunk> chunk, std::unique_ptr<Checker>& checker) {
  std::unique_lock lock(m_mutex);
  while (!m_stop && m_chunks.size() >= m_capacity) {
    // Full: rather than wait, check a chunk that waits (once entries can be checked).
    if (Chunk* c = m_checking ? claim_locked() : nullptr) {
      lock.unlock();
      process(*c, checker);
      lock.lock();
      continue;
    }
    m_changed.wait(lock);
  }
  if (m_stop) return false;
  m_chunks.push_back(std::move(chunk));
  lock.unlock();
  m_changed.notify_all();
  return true;
}

void EntryWorkers::read() {
  pyjson::DumpStreamOptions options;
  options.raw_entries = true;
  // A window that stays in this core's L2 while the bracket pass reads what pread copied in
  // (8 MiB, the default, does not, and the kernel's copy then goes to L3: docs/performance.md
  // "Reader window size").
  options.buffer_bytes = k_read_window_bytes;
  options.read.note_duplicate_keys = true;  // (entries that are neither objects nor arrays are parsed here)
  options.read.exact_capacity = false;
  pyjson::DumpJsonStream stream(m_source, options);
  std::unique_ptr<Checker> checker;  // the reader's own, when it helps
  std::unique_ptr<Chunk> entries;    // being filled
  std::optional<Error> error;
  int data_objects = 0;
  pyjson::DumpEvent ev;
  auto flush = [&] { return !entries || push(std::move(entries), checker); };
  for (;;) {
    auto more = stream.next(ev);
    if (!more) {
      error = more.error();
      break;
    }
    if (!*more) break;
    if (ev.type == pyjson::DumpEvent::Type::entry) {
      if (!entries) {
        entries = std::make_unique<Chunk>();
        entries->text.reserve(k_chunk_bytes + k_chunk_bytes / 4);
      }
      Chunk::Entry& e = entries->entries.emplace_back();
      e.name = std::move(ev.key);
      e.line = ev.position.line;
      e.is_raw = ev.is_raw;
      if (ev.is_raw) {
        e.begin = entries->text.size();
        e.size = ev.raw.size();
        entries->text.append(ev.raw);
        e.offset = ev.raw_offset;
        e.position = ev.raw_position;
      } else {
        e.value = std::move(ev.value);
        e.duplicate_keys = ev.duplicate_keys;
      }
      if ((entries->text.size() >= k_chunk_bytes || entries->entries.size() >= k_chunk_entries) && !flush()) return;
      continue;
    }
    if (!flush()) return;
    if (ev.type == pyjson::DumpEvent::Type::data_begin && ++data_objects > 1) {
      error = invalid_input("a second \"data\" object: verified one entry at a time");
      break;
    }
    auto c = std::make_unique<Chunk>();
    c->state = Chunk::State::done;
    c->events.push_back(std::move(ev));
    ev = pyjson::DumpEvent{};
    if (!push(std::move(c), checker)) return;
  }
  if (!error && !flush()) return;
  {
    std::lock_guard lock(m_mutex);
    m_read_done = true;
    m_read_error = std::move(error);
  }
  m_changed.notify_all();
}

void EntryWorkers::work() {
  std::unique_ptr<Checker> checker;
  std::unique_lock lock(m_mutex);
  while (!m_stop) {
    Chunk* c = m_checking ? claim_locked() : nullptr;
    if (c == nullptr) {
      m_changed.wait(lock);
      continue;
    }
    lock.unlock();
    process(*c, checker);
    lock.lock();
  }
}

Result<bool> EntryWorkers::next(WorkerItem& item) {
  for (;;) {
    if (m_current) {
      if (m_next_event < m_current->events.size()) {
        item.is_entry = false;
        item.event = std::move(m_current->events[m_next_event++]);
        return true;
      }
      if (m_next_entry < m_current->results.size()) {
        item.is_entry = true;
        item.entry = std::move(m_current->results[m_next_entry++]);
        return true;
      }
      m_current.reset();
    }
    std::unique_lock lock(m_mutex);
    for (;;) {
      if (m_read_error) return *m_read_error;
      if (m_chunks.empty()) {
        if (m_read_done) return false;
        m_changed.wait(lock);
        continue;
      }
      if (m_chunks.front()->state == Chunk::State::done) break;
      if (!m_checking) return internal_error("EntryWorkers: entries before start_checking");
      // The next chunk is not done: check it (or, if another thread has it, a later one).
      if (Chunk* c = claim_locked()) {
        lock.unlock();
        process(*c, m_checker);
        lock.lock();
      } else {
        m_changed.wait(lock);
      }
    }
    m_current = std::move(m_chunks.front());
    m_chunks.pop_front();
    lock.unlock();
    m_changed.notify_all();
    if (m_current->failed) return invalid_input("an entry is not valid JSON: verified one entry at a time");
    m_next_event = m_next_entry = 0;
  }
}

const CheckedEntry* EntryWorkers::ahead(std::size_t k) const {
  if (!m_current || m_next_entry == 0) return nullptr;
  const std::size_t i = m_next_entry - 1 + k;
  return i < m_current->results.size() ? &m_current->results[i] : nullptr;
}

}  // namespace msdump::verify
