#include "dump/entry_workers.h"

#include <algorithm>

#include "pyjson/json_cursor.h"
#include "pyjson/tree_arena.h"

namespace msdump::dump {

struct EntryWorkers::Chunk {
  // Either top-level events (member, data_begin, data_end) or entries, as the reader found
  // them; or, last, the reader's error.
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
  std::unique_ptr<ChunkResults> results;  // per entry, once run
  std::optional<Error> error;             // an entry's text did not parse to its last byte, or the reader's error
};

// One thread's tools for parsing and visiting entries.
struct EntryWorkers::Slot {
  explicit Slot(std::unique_ptr<EntryVisitor> v) : visitor(std::move(v)) {}
  std::unique_ptr<EntryVisitor> visitor;
  pyjson::JsonCursor cursor{pyjson::ReadOptions{.note_duplicate_keys = true, .exact_capacity = false}};
  pyjson::TreeArena arena;  // the arrays and objects of the entry being visited
  pyjson::Value value;
};

EntryWorkers::EntryWorkers(const ByteSource& source, int threads, std::size_t chunk_bytes)
    : m_source(source), m_chunk_bytes(std::max<std::size_t>(chunk_bytes, k_bytes_per_entry)) {
  const std::size_t extra = static_cast<std::size_t>(std::max(0, threads - 2));
  const OrderedPoolOptions options{.workers = extra, .capacity = k_chunks_in_flight + 2 * extra, .paused = true};
  m_slots.resize(options.workers + 2);
  m_pool = std::make_unique<Pool>(options, [this](std::unique_ptr<Chunk>& c, std::size_t slot) { return process(c, slot); });
  m_pool->start_producer([this](Pool& pool) { read(pool); });
}

EntryWorkers::~EntryWorkers() { m_pool.reset(); }  // (cancels, joins its threads)

void EntryWorkers::start_visiting(VisitorFactory factory) {
  m_factory = std::move(factory);
  m_pool->resume();  // (publishes the above to the threads that run chunks from now on)
}

std::unique_ptr<EntryWorkers::Chunk> EntryWorkers::process(std::unique_ptr<Chunk>& chunk_ptr, std::size_t slot) {
  Chunk& chunk = *chunk_ptr;
  if (chunk.entries.empty() || chunk.error) return std::move(chunk_ptr);
  if (!m_factory) {  // (only the caller runs chunks before start_visiting)
    chunk.error = internal_error("EntryWorkers: entries before start_visiting");
    return std::move(chunk_ptr);
  }
  std::unique_ptr<Slot>& s = m_slots[slot];
  if (!s) {
    auto visitor = m_factory();
    if (visitor) s = std::make_unique<Slot>(std::move(visitor));
  }
  if (!s || !visit_entries(chunk, *s)) chunk.error = invalid_input("an entry is not valid JSON: read one entry at a time");
  return std::move(chunk_ptr);
}

// Parses and visits the chunk's entries into chunk.results; false when an entry's text does
// not parse to its last byte.
bool EntryWorkers::visit_entries(Chunk& chunk, Slot& s) {
  // Each entry's tree is built in s.arena and gone before the arena is reset (tree_arena.h).
  const pyjson::TreeArenaScope scope(&s.arena);
  chunk.results = s.visitor->results_for(chunk.entries.size());
  for (std::size_t i = 0; i < chunk.entries.size(); ++i) {
    Chunk::Entry& e = chunk.entries[i];
    pyjson::Value& v = e.is_raw ? s.value : e.value;
    EntryKey key{std::move(e.name), e.line, e.duplicate_keys};
    if (e.is_raw) {
      const std::string_view text = std::string_view(chunk.text).substr(e.begin, e.size);
      if (s.visitor->visit_text(*chunk.results, i, key, text)) continue;
      s.cursor.reset(text, e.offset, e.position);
      if (!s.cursor.parse_value(v, 2) || s.cursor.peek() >= 0) {
        v = pyjson::Value();
        s.arena.reset();
        return false;
      }
      key.duplicate_keys = s.cursor.saw_duplicate_keys();
    }
    s.visitor->visit(*chunk.results, i, std::move(key), v);
    v = pyjson::Value();  // freed here, while in this core's cache
    s.arena.reset();
  }
  return true;
}

void EntryWorkers::read(Pool& pool) {
  pyjson::DumpStreamOptions options;
  options.raw_entries = true;
  // The stream's default window (1 MiB) stays in this core's L2 while the bracket pass reads
  // what pread copied in (docs/performance.md "Reader window size").
  options.read.note_duplicate_keys = true;  // (entries that are neither objects nor arrays are parsed here)
  options.read.exact_capacity = false;
  pyjson::DumpJsonStream stream(m_source, options);
  std::unique_ptr<Chunk> entries;    // being filled
  std::optional<Error> error;
  int data_objects = 0;
  pyjson::DumpEvent ev;
  auto flush = [&] { return !entries || pool.submit(std::move(entries)); };
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
        entries->text.reserve(m_chunk_bytes + m_chunk_bytes / 4);
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
      if ((entries->text.size() >= m_chunk_bytes || entries->entries.size() >= m_chunk_bytes / k_bytes_per_entry) && !flush())
        return;
      continue;
    }
    if (!flush()) return;
    if (ev.type == pyjson::DumpEvent::Type::data_begin && ++data_objects > 1) {
      error = invalid_input("a second \"data\" object: read one entry at a time");
      break;
    }
    auto c = std::make_unique<Chunk>();
    c->events.push_back(std::move(ev));
    ev = pyjson::DumpEvent{};
    if (!pool.submit(std::move(c))) return;
  }
  if (!error && !flush()) return;
  if (error) {
    auto c = std::make_unique<Chunk>();
    c->error = std::move(error);
    (void)pool.submit(std::move(c));
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
      if (m_next_entry < m_current->entries.size()) {
        item.is_entry = true;
        ++m_next_entry;
        return true;
      }
      m_current.reset();
      m_results = nullptr;
    }
    if (m_ended) return false;
    auto chunk = m_pool->next();  // (runs the chunk itself when no other thread has)
    if (!chunk) {
      m_ended = true;
      return false;
    }
    m_current = std::move(*chunk);
    m_results = m_current->results.get();
    m_next_event = m_next_entry = 0;
    if (m_current->error) {
      m_ended = true;
      Error e = std::move(*m_current->error);
      m_current.reset();
      m_results = nullptr;
      return e;
    }
  }
}

}  // namespace msdump::dump
