#include "compare/dump_index.h"

#include <algorithm>

#include <fmt/format.h>

#include "compare/entry_text_rows.h"
#include "compare/row_shapes.h"
#include "compare/unmatched_stats.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"
#include "pyjson/plain_ascii.h"
#include "pyjson/plain_scanner.h"
#include "pyjson/tree_arena.h"

namespace msdump::compare {
namespace {

constexpr std::size_t k_window_bytes = std::size_t{256} << 10;

// An entry's tree lives until its rows are made: containers keep the capacity they were given
// (no shrinking copy), as the verifier's short-lived trees do.
pyjson::ReadOptions short_lived_tree() {
  pyjson::ReadOptions options;
  options.exact_capacity = false;
  return options;
}

std::uint16_t dtype_id(DumpIndex& index, std::string_view dtype) {
  for (std::size_t i = 0; i < index.dtype_names.size(); ++i)
    if (index.dtype_names[i] == dtype) return static_cast<std::uint16_t>(i);
  if (index.dtype_names.size() >= 0xffff) return 0xffff;  // (never in a real dump) pairs only with itself
  index.dtype_names.emplace_back(dtype);
  return static_cast<std::uint16_t>(index.dtype_names.size() - 1);
}

void header_member(const pyjson::DumpEvent& ev, std::string& task, std::string& level, std::string& framework) {
  const auto text = ev.value.is_string() ? ev.value.as_string() : std::string();
  if (ev.key == "task") task = text;
  else if (ev.key == "level") level = text;
  else if (ev.key == "framework" && !text.empty()) framework = text;
}

Result<void> check_header(const std::string& shown_as, const std::string& task, bool saw_data,
                          const std::optional<Error>& error) {
  if ((task.empty() || !saw_data) && error) return *error;
  if (task.empty()) return invalid_input(fmt::format("'{}': no \"task\" member: expected a dump.json of msprobe", shown_as));
  if (!saw_data) return invalid_input(fmt::format("'{}': no \"data\" object: expected a dump.json of msprobe", shown_as));
  return {};
}

// The error a plain (not raw) stream reports for a file the raw stream gave up on: the raw pass
// only checks brackets and strings inside entries, so its position is where the entry starts;
// the plain pass names the exact line and column.
Error precise_error(const ByteSource& src, const std::string& shown_as, Error raw_error) {
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return more.error().with_context("reading '" + shown_as + "'");
    if (!*more) return raw_error;
  }
}

}  // namespace

std::uint64_t entry_digest(std::string_view key, std::string_view value_text) {
  return hash_bytes(value_text, hash_bytes(key, 0x6a09e667f3bcc908ULL));
}

std::uint32_t DumpIndex::entry_rows(std::uint32_t entry) const {
  const std::uint32_t end = entry + 1 < entries.size() ? entries[entry + 1].first_row : rows();
  return end - entries[entry].first_row;
}

std::uint32_t DumpIndex::entry_of_row(std::uint32_t row) const {
  auto it = std::upper_bound(entries.begin(), entries.end(), row,
                             [](std::uint32_t r, const EntryExtent& e) { return r < e.first_row; });
  return static_cast<std::uint32_t>(std::distance(entries.begin(), it) - 1);
}

Result<DumpHeader> read_dump_header(const ByteSource& src, const std::string& shown_as) {
  DumpHeader h;
  pyjson::DumpStreamOptions options;
  options.raw_entries = true;
  options.buffer_bytes = pyjson::SourceWindow::k_header_buffer_bytes;  // (grows for a longer member)
  pyjson::DumpJsonStream stream(src, options);
  pyjson::DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return more.error().with_context("reading '" + shown_as + "'");
    if (!*more || ev.type != pyjson::DumpEvent::Type::member) break;
    header_member(ev, h.task, h.level, h.framework);
  }
  return h;
}

Result<DumpIndex> index_dump(const ByteSource& src, const std::string& shown_as, RowKeyer& keyer,
                             std::shared_ptr<RowShapeStore> shape_store) {
  DumpIndex index;
  index.path = shown_as;
  pyjson::DumpStreamOptions options;
  options.raw_entries = true;
  index.shapes = shape_store;
  RowShapes shapes(std::move(shape_store));
  options.matcher = &shapes;  // (entries of a shape seen before: no bracket pass, no token scan)
  pyjson::DumpJsonStream stream(src, options);
  pyjson::DumpEvent ev;
  std::vector<Row> rows;
  EntryTextRows text_rows;
  std::string plan_row_name;
  pyjson::TreeArena arena;
  bool saw_data = false;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) {
      index.error = precise_error(src, shown_as, more.error().with_context("reading '" + shown_as + "'"));
      break;
    }
    if (!*more) break;
    if (ev.type == pyjson::DumpEvent::Type::member) header_member(ev, index.task, index.level, index.framework);
    if (ev.type == pyjson::DumpEvent::Type::data_begin) saw_data = true;
    if (ev.type != pyjson::DumpEvent::Type::entry) continue;
    // An entry compare does not use is still checked: a syntax error anywhere fails the file, as
    // it fails read_dump_rows (and Python's json.load). An entry of a shape read before takes
    // that entry's rows (row_shapes.h); text PlainScanner finds valid and plain is read without a
    // tree (entry_text_rows.h); anything else, or what that reader declines, is parsed.
    const bool used = entry_kind(ev.key) != EntryKind::other;
    const RowShapePlan* plan = nullptr;
    if (used && ev.matched) plan = shapes.matched();  // (the stream passed it by that plan)
    else if (used && ev.is_raw) plan = shapes.find(ev.key, ev.raw);
    const bool plain = plan != nullptr || (ev.is_raw && pyjson::PlainScanner<>(ev.raw.data(), ev.raw.data() + ev.raw.size()).whole_value());
    bool entry_md5 = false;
    const bool from_text = plan != nullptr || (plain && (!used || text_rows.read(ev.key, ev.raw, entry_md5)));
    const RowShapePlan* learned = plan == nullptr && from_text && used ? shapes.learn(ev.key, ev.raw, text_rows, entry_md5) : nullptr;
    if (plan != nullptr ? plan->has_md5 : entry_md5) index.has_md5 = true;
    rows.clear();
    std::optional<Error> parse_error;
    if (!from_text) {
      // The entry's tree lives in the arena, reset once it is gone (docs/performance.md "Tree arena").
      const pyjson::TreeArenaScope scope(&arena);
      Result<pyjson::Value> value = ev.is_raw ? pyjson::parse_json(ev.raw, short_lived_tree()) : Result<pyjson::Value>(std::move(ev.value));
      if (!value) {
        parse_error = value.error().with_context("reading '" + shown_as + "'");
      } else if (used) {
        if (auto flat = flatten_entry(ev.key, 0, *value, rows, index.has_md5, FlattenDetail::names_and_dtypes); !flat)
          index.error = flat.error().with_context(fmt::format("'{}': {}", shown_as, pyjson::to_string(ev.position)));
      }
    }
    arena.reset();
    if (parse_error) index.error = precise_error(src, shown_as, *parse_error);
    if (index.error) break;
    if (!used) continue;
    const std::uint64_t end = ev.is_raw ? ev.raw_offset + ev.raw.size() : ev.offset;
    if (!ev.is_raw || end - ev.offset > UINT32_MAX) {
      // A bare scalar entry yields no rows; a single entry over 4 GiB cannot be re-read.
      if (!ev.is_raw) { keyer.begin_entry(ev.key); continue; }
      index.error = invalid_input(fmt::format("'{}': entry '{}' is larger than 4 GiB", shown_as, ev.key));
      break;
    }
    index.entries.push_back({ev.offset, plain, static_cast<std::uint32_t>(end - ev.offset), index.rows(), entry_digest(ev.key, ev.raw),
                             plan != nullptr ? plan : learned});
    keyer.begin_entry(ev.key);
    const auto add = [&](std::string_view name, std::string_view dtype, std::uint8_t kinds) {
      index.keys.push_back(keyer.hashed(name, ev.key));
      index.dtypes.push_back(dtype_id(index, dtype));
      index.stat_kinds.push_back(kinds);
    };
    if (plan != nullptr) {
      for (const auto& r : plan->rows) {
        plan_row_name.assign(ev.key).append(r.suffix);
        add(plan_row_name, r.dtype, r.stat_kinds);
      }
    } else if (from_text) {
      for (const auto& r : text_rows.rows()) add(text_rows.name(r), r.dtype, r.stat_kinds);
    } else {
      for (const auto& r : rows) add(r.name, r.dtype, stat_kinds(r));
    }
    index.row_count = static_cast<std::uint32_t>(index.keys.size());
  }
  if (auto ok = check_header(shown_as, index.task, saw_data, index.error); !ok) return ok.error();
  return index;
}

Result<std::string_view> EntryFetcher::bytes(const EntryExtent& e) {
  if (e.offset < m_window_offset || e.offset + e.length > m_window_offset + m_window.size()) {
    const std::uint64_t size = std::min<std::uint64_t>(std::max<std::uint64_t>(k_window_bytes, e.length), m_src.size() - e.offset);
    if (size < e.length) return internal_error(fmt::format("'{}' is shorter than when it was indexed", m_index.path));
    m_window.resize(size);
    if (auto r = m_src.read_at(e.offset, std::as_writable_bytes(std::span(m_window.data(), m_window.size()))); !r)
      return r.error();
    m_window_offset = e.offset;
  }
  return std::string_view(m_window).substr(e.offset - m_window_offset, e.length);
}

Result<std::shared_ptr<const EntryRows>> EntryFetcher::fetch(std::uint32_t entry) {
  for (auto it = m_cache.begin(); it != m_cache.end(); ++it)
    if (it->first == entry) return std::shared_ptr<const EntryRows>(it->second);
  std::shared_ptr<EntryRows> rows;
  if (m_cache.size() == k_cached) {
    if (m_cache.front().second.use_count() == 1) rows = std::move(m_cache.front().second);  // (its buffers reused)
    m_cache.erase(m_cache.begin());
  }
  if (!rows) rows = std::make_shared<EntryRows>();
  if (auto r = read(entry, rows->name, rows->rows); !r) return r.error();
  m_cache.emplace_back(entry, rows);
  return std::shared_ptr<const EntryRows>(std::move(rows));
}

Error EntryFetcher::changed_error(const EntryExtent& e) const {
  return internal_error(fmt::format("'{}': entry at byte {} no longer reads as when it was indexed (was the file changed?)",
                                    m_index.path, e.offset));
}

Result<EntryRows> EntryFetcher::read(std::uint32_t entry) {
  EntryRows rows;
  if (auto r = read(entry, rows.name, rows.rows); !r) return r.error();
  return rows;
}

namespace {

// Whether `text` (an entry's key, colon and value) is plain JSON text: only its key is looked
// at when pass 1 found the value plain (read_plain then checks the digest: the same value).
bool entry_text_plain(const EntryExtent& e, std::string_view text) {
  if (!e.plain_value) return pyjson::plain_json_text(text);
  const auto close = text.size() > 1 && text[0] == '"' ? text.find('"', 1) : std::string_view::npos;
  return close != std::string_view::npos && pyjson::plain_json_text(text.substr(0, close + 1));
}

}  // namespace

Result<void> EntryFetcher::read(std::uint32_t entry, std::string& name, std::vector<Row>& rows) {
  const EntryExtent& e = m_index.entries[entry];
  auto text = bytes(e);
  if (!text) return text.error();
  if (entry_text_plain(e, *text)) return read_plain(entry, *text, name, rows);
  // The key, colon and value as read in pass 1: made an object of one member again.
  std::string doc;
  doc.reserve(text->size() + 2);
  doc += '{';
  doc += *text;
  doc += '}';
  name.clear();
  rows.clear();
  {
    const pyjson::TreeArenaScope scope(&m_arena);
    auto value = pyjson::parse_json(doc, short_lived_tree());
    if (value && value->is_object() && value->as_object().size() == 1) {
      auto& member = value->as_object().front();
      name = member.key;
      bool md5 = false;
      if (!flatten_entry(name, 0, member.value, rows, md5)) rows.clear();
    }
  }
  m_arena.reset();
  if (name.empty() || rows.size() != m_index.entry_rows(entry)) return changed_error(e);
  return {};
}

// `text` ("key": value) is plain: its key has no escapes, and once its digest matches, it is the
// valid text pass 1 read, whose rows EntryTextRows may read off it (else PlainReader reads it
// into its reused tree).
Result<void> EntryFetcher::read_plain(std::uint32_t entry, std::string_view text, std::string& name, std::vector<Row>& rows) {
  const EntryExtent& e = m_index.entries[entry];
  const auto close = text.size() > 1 && text[0] == '"' ? text.find('"', 1) : std::string_view::npos;
  const auto colon = close == std::string_view::npos ? close : text.find(':', close + 1);
  const auto start = colon == std::string_view::npos ? colon : text.find_first_not_of(" \t\r\n", colon + 1);
  if (start == std::string_view::npos) return changed_error(e);
  name.assign(text.substr(1, close - 1));
  const std::string_view value = text.substr(start);
  if (entry_digest(name, value) != e.digest) return changed_error(e);
  rows.reserve(m_index.entry_rows(entry));
  if ((e.plan != nullptr && read_planned_rows(*e.plan, name, value, rows)) || m_text.read_rows(name, value, rows)) {
    if (rows.size() != m_index.entry_rows(entry)) return changed_error(e);
    return {};
  }
  rows.clear();
  auto tree = m_plain.read(value);
  if (!tree) return tree.error();
  bool md5 = false;
  if (!flatten_entry(name, 0, **tree, rows, md5) || rows.size() != m_index.entry_rows(entry)) return changed_error(e);
  return {};
}

}  // namespace msdump::compare
