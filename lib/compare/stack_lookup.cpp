#include "compare/stack_lookup.h"

#include <algorithm>
#include <deque>
#include <filesystem>

#include "compare/dump_rows.h"
#include "compare/python_repr.h"
#include "compare/row_match.h"
#include "core/byte_source.h"
#include "dump/dump_paths.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_cursor.h"

namespace msdump::compare {
namespace {

namespace fs = std::filesystem;
using pyjson::Value;

// The cell msprobe shows for one entry's stack value: the repr of a list of strings, or str()
// of anything else.
std::string stack_cell(const Value& frames) {
  if (frames.is_array()) {
    std::vector<std::string> items;
    bool all_strings = true;
    for (const auto& f : frames.as_array()) {
      if (!f.is_string()) all_strings = false;
      else items.push_back(f.as_string());
    }
    if (all_strings) return python_list_repr(items);
  }
  return python_str(frames);
}

// A key that is equal for two frames values exactly when their cells are: the frames' texts,
// each after its length (cheaper to make than the cell, which escapes every character). It
// begins with '\0' or '\1', never with a JSON text's '[' or '{' (the keys of stacks read as text).
std::string stack_key(const Value& frames) {
  std::string key(1, '\0');
  if (frames.is_array()) {
    bool all_strings = true;
    for (const auto& f : frames.as_array()) all_strings = all_strings && f.is_string();
    if (all_strings) {
      for (const auto& f : frames.as_array()) {
        const std::uint64_t size = f.as_string().size();  // (length-prefixed: no two lists join alike)
        key.append(reinterpret_cast<const char*>(&size), sizeof size).append(f.as_string());
      }
      return key;
    }
  }
  return "\1" + python_str(frames);
}

// The frames of one stack: a parsed value, or (read as text) the JSON text of an array or object
// with where it starts in the file, parsed only when value() is asked for.
class Frames {
 public:
  explicit Frames(const Value& value) : m_value(&value) {}
  Frames(std::string_view text, std::uint64_t offset, pyjson::TextPosition position)
      : m_text(text), m_offset(offset), m_position(position) {}
  // The text ("" for a parsed value): equal texts are equal values.
  std::string_view text() const { return m_text; }
  Result<const Value*> value() const {
    if (m_value) return m_value;
    pyjson::JsonCursor cursor;
    cursor.reset(m_text, m_offset, m_position);
    if (!cursor.parse_value(m_parsed, 1)) return cursor.error();
    if (cursor.peek() >= 0) return invalid_input("more than one value where a stack's frames were expected");
    return &m_parsed;
  }

 private:
  const Value* m_value = nullptr;
  std::string_view m_text;
  std::uint64_t m_offset = 0;
  pyjson::TextPosition m_position;
  mutable Value m_parsed;
};

// A current-layout member given as text, `[[entry names], frames]`: its names into `names` and
// its frames, the text from after the names' ',' to before the member's closing ']' (not
// passed over a second time: Frames::value() fails when that text is not one value, so a
// member of another shape fails the read as text). False when the text does not begin so, or
// the frames do not begin as an array or object: the caller parses the member whole.
bool split_member(const pyjson::DumpEvent& ev, Value& names, std::optional<Frames>& frames) {
  pyjson::JsonCursor cursor;
  cursor.reset(ev.raw, ev.raw_offset, ev.raw_position);
  if (cursor.peek() != '[' || ev.raw.back() != ']') return false;  // (passed by brackets of any kind)
  cursor.advance();
  if (cursor.peek() != '[' || !cursor.parse_value(names, 2) || cursor.peek() != ',') return false;
  cursor.advance();
  const int c = cursor.peek();
  if (c != '[' && c != '{') return false;
  std::string_view text = ev.raw.substr(cursor.pos());
  text.remove_suffix(1);  // the member's ']'
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  frames.emplace(text, cursor.offset(), cursor.position());
  return true;
}

// A member read as text (DumpStreamOptions::raw_members), parsed whole.
Result<Value> parse_member(const pyjson::DumpEvent& ev) {
  pyjson::JsonCursor cursor;
  cursor.reset(ev.raw, ev.raw_offset, ev.raw_position);
  Value v;
  if (!cursor.parse_value(v, 1)) return cursor.error();
  return v;
}

// The layout of a stack.json from its first member: current when its key is "0" and its value
// is not null or an empty list.
Result<bool> current_layout(const pyjson::DumpEvent& first) {
  Value parsed;
  if (first.is_raw) {
    auto whole = parse_member(first);
    if (!whole) return whole.error();
    parsed = std::move(*whole);
  }
  const Value& v = first.is_raw ? parsed : first.value;
  return first.key == "0" && !(v.is_null() || (v.is_array() && v.size() == 0));
}

// One parsed member of a stack.json in either layout: its names and frames to `visit`, nothing
// for a member that lists no stack.
template <typename Visit>
Result<void> visit_parsed(const std::string& key, const Value& v, bool current, std::vector<std::string_view>& names,
                          Visit& visit) {
  if (!current) {
    if (v.is_null()) return {};
    names.push_back(key);
    return visit(names, Frames(v));
  }
  if (!v.is_array() || v.size() != 2 || !v.as_array()[0].is_array() || v.as_array()[1].is_null()) return {};
  for (const auto& name : v.as_array()[0].as_array())
    if (name.is_string()) names.push_back(name.as_string());
  return visit(names, Frames(v.as_array()[1]));
}

// Calls visit(names, frames) for each stack of a stack.json, in file order, in either layout
// msprobe writes: {"0": [[entry names], frames], ...} (current; other members skipped, as msprobe
// skips them) or {entry name: frames} (legacy). Null frames are no stack. One top-level member
// at a time (pyjson::DumpJsonStream): the file is never held whole. `as_text`: members that
// are arrays or objects are passed over by their brackets and their frames handed over as text
// (Frames::text), parsed by whoever needs them; the text is not checked beyond its brackets,
// so on a failure the caller reads the file again without as_text for the exact message.
template <typename Visit>
Result<void> visit_stacks(const ByteSource& src, const std::string& shown_as, bool as_text, Visit visit) {
  pyjson::DumpStreamOptions options;
  options.raw_members = as_text;
  pyjson::DumpJsonStream stream(src, options);
  pyjson::DumpEvent ev;
  std::optional<bool> current;  // the layout
  std::vector<std::string_view> names;
  Value parsed, listed;
  std::optional<Frames> frames;
  auto fail = [&](const Error& e) { return e.with_context("reading '" + shown_as + "'"); };
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return fail(more.error());
    if (!*more) return {};
    if (ev.type != pyjson::DumpEvent::Type::member && ev.type != pyjson::DumpEvent::Type::entry) continue;
    if (!current) {
      auto layout = current_layout(ev);
      if (!layout) return fail(layout.error());
      current = *layout;
    }
    names.clear();
    Result<void> ok;
    if (ev.is_raw && *current && split_member(ev, listed, frames)) {
      for (const auto& name : listed.as_array())
        if (name.is_string()) names.push_back(name.as_string());
      ok = visit(names, *frames);
    } else if (ev.is_raw && !*current) {  // legacy: the member is the frames
      names.push_back(ev.key);
      ok = visit(names, Frames(ev.raw, ev.raw_offset, ev.raw_position));
    } else if (ev.is_raw) {
      auto whole = parse_member(ev);
      if (!whole) return fail(whole.error());
      parsed = std::move(*whole);
      ok = visit_parsed(ev.key, parsed, *current, names, visit);
    } else {
      ok = visit_parsed(ev.key, ev.value, *current, names, visit);
    }
    if (!ok) return fail(ok.error());
  }
}

// Each distinct stack's cell, by the text of its frames when read as text, else by stack_key:
// a text is kept once per distinct stack, and a stack seen before costs a hash and a compare.
class StackCells {
 public:
  explicit StackCells(std::vector<std::string>& cells) : m_cells(cells) {}
  Result<std::uint32_t> id(const Frames& frames) {
    std::string key;
    std::string_view text = frames.text();
    if (text.empty()) {
      auto v = frames.value();
      if (!v) return v.error();
      key = stack_key(**v);
      text = key;
    }
    if (auto it = m_id.find(text); it != m_id.end()) return it->second;
    auto v = frames.value();
    if (!v) return v.error();
    const auto id = static_cast<std::uint32_t>(m_cells.size());
    m_cells.push_back(stack_cell(**v));
    m_id.emplace(m_keys.emplace_back(text), id);
    return id;
  }

 private:
  struct Hash {
    std::size_t operator()(std::string_view s) const { return static_cast<std::size_t>(hash_bytes(s, 0)); }
  };
  std::vector<std::string>& m_cells;
  std::deque<std::string> m_keys;  // the map's keys (stable while it grows)
  std::unordered_map<std::string_view, std::uint32_t, Hash> m_id;
};

Result<StackLookup> read_stack_lookup(const ByteSource& src, const std::string& shown_as, bool as_text) {
  StackLookup out;
  out.present = true;
  StackCells cells(out.cells);
  auto ok = visit_stacks(src, shown_as, as_text, [&](const std::vector<std::string_view>& names, const Frames& frames) -> Result<void> {
    auto id = cells.id(frames);
    if (!id) return id.error();
    for (auto name : names) out.id_of.emplace_back(hash_key(name).hi, *id);
    return {};
  });
  if (!ok) return ok.error();
  // A name listed twice keeps its last stack, as msprobe's dict does: stable sort, last wins.
  std::stable_sort(out.id_of.begin(), out.id_of.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::uint64_t, std::uint32_t>> unique;
  for (const auto& e : out.id_of) {
    if (!unique.empty() && unique.back().first == e.first) unique.back() = e;
    else unique.push_back(e);
  }
  out.id_of = std::move(unique);
  return out;
}

// `dir`/`name` opened when it is a file; nullptr when there is none.
Result<std::unique_ptr<FileSource>> open_optional(const std::string& dir, std::string_view name, std::string& path) {
  path = (fs::path(dir) / name).string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::unique_ptr<FileSource>();
  return FileSource::open(path);
}

}  // namespace

const std::string& StackLookup::cell(const std::string& entry) const {
  static const std::string no_stack;
  const auto h = hash_key(entry).hi;
  auto it = std::lower_bound(id_of.begin(), id_of.end(), std::pair<std::uint64_t, std::uint32_t>{h, 0});
  return it == id_of.end() || it->first != h ? no_stack : cells[it->second];
}

Result<StackLookup> parse_stack_lookup(const ByteSource& src, const std::string& shown_as, bool as_text) {
  if (as_text)
    if (auto fast = read_stack_lookup(src, shown_as, true)) return fast;
  return read_stack_lookup(src, shown_as, false);
}

Result<StackLookup> load_stack_lookup(const std::string& dir) {
  std::string path;
  auto src = open_optional(dir, dump::k_stack_json, path);
  if (!src) return src.error();
  if (!*src) return StackLookup{};
  return parse_stack_lookup(**src, path);
}

Result<std::optional<std::vector<std::string>>> load_stack_frames(const std::string& dir, const std::string& entry) {
  std::string path;
  auto src = open_optional(dir, dump::k_stack_json, path);
  if (!src) return src.error();
  std::optional<std::vector<std::string>> frames;
  if (!*src) return frames;
  auto ok = visit_stacks(**src, path, false, [&](const std::vector<std::string_view>& names, const Frames& listed) -> Result<void> {
    if (std::find(names.begin(), names.end(), entry) == names.end()) return {};
    frames.emplace();  // the last listing wins
    const Value& v = **listed.value();  // (parsed: not read as text)
    if (v.is_array())
      for (const auto& f : v.as_array())
        if (f.is_string()) frames->push_back(f.as_string());
    return {};
  });
  if (!ok) return ok.error();
  return frames;
}

}  // namespace msdump::compare
