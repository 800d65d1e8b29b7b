#include "pyjson/dump_json_stream.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "pyjson/plain_scanner.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {

// "type key" per event, or "error: <message>" as the last item.
std::vector<std::string> events_of(const ByteSource& source, std::size_t buffer_bytes = 16, ReadOptions read = {}) {
  DumpJsonStream stream(source, DumpStreamOptions{buffer_bytes, read});
  std::vector<std::string> out;
  DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) {
      out.push_back("error: " + more.error().message);
      return out;
    }
    if (!*more) return out;
    switch (ev.type) {
      case DumpEvent::Type::member: out.push_back("member " + ev.key + " " + std::string(kind_name(ev.value.kind()))); break;
      case DumpEvent::Type::data_begin: out.push_back("data_begin"); break;
      case DumpEvent::Type::entry: out.push_back("entry " + ev.key + " " + std::to_string(ev.value.size())); break;
      case DumpEvent::Type::data_end: out.push_back("data_end"); break;
    }
  }
}

std::vector<std::string> events_of(std::string_view text, std::size_t buffer_bytes = 16) {
  MemorySource source(as_bytes(text));
  return events_of(source, buffer_bytes);
}

std::string write_temp(const testing::TempDir& dir, const std::string& name, std::string_view bytes) {
  const std::string path = (dir / name).string();
  FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  return path;
}

// A value as Python's json.dumps(indent=1) text, with the offset of each container.
std::string dump_value(const Value& v) {
  auto text = to_python_json(v);
  REQUIRE(text);
  std::string offsets;
  std::vector<const Value*> pending{&v};
  while (!pending.empty()) {
    const Value* x = pending.back();
    pending.pop_back();
    offsets += " " + std::to_string(x->offset());
    if (x->is_array())
      for (const auto& i : x->as_array()) pending.push_back(&i);
    else if (x->is_object())
      for (const auto& m : x->as_object()) pending.push_back(&m.value);
  }
  return *text + offsets;
}

// One event as text, with what raw mode must keep the same: type, key, offset, position,
// and its value (a raw entry's or member's text parsed where it stands, to its last byte).
// "error" when the raw text does not parse as exactly one value.
std::string describe_event(const DumpEvent& ev) {
  std::string s = std::to_string(static_cast<int>(ev.type)) + " " + ev.key + " @" + std::to_string(ev.offset) + " " +
                  to_string(ev.position) + " = ";
  if (!ev.is_raw) return s + dump_value(ev.value) + (ev.duplicate_keys ? " dup" : "");
  JsonCursor cursor(ReadOptions{.note_duplicate_keys = true});
  cursor.reset(ev.raw, ev.raw_offset, ev.raw_position);
  Value v;
  if (!cursor.parse_value(v, 2) || cursor.peek() >= 0) return s + "error";
  return s + dump_value(v) + (cursor.saw_duplicate_keys() ? " dup" : "");
}

// A matcher that recognises an entry whose value is valid JSON in the plain form
// (PlainScanner's syntax check), with its newlines: what compare's shapes recognise, found
// another way.
class PlainMatcher : public EntryMatcher {
 public:
  const char* match(std::string_view, const char* p, const char* end, Newlines& newlines) override {
    PlainScanner<> scan(p, end);
    if (!scan.value(0)) return nullptr;
    newlines = newlines_in(p, scan.pos());
    return scan.pos();
  }
};

// Every event of `text` read with and without raw_entries and raw_members (window of `buffer_bytes`):
// (events, error or "") of each. `matcher`: raw entries passed by a PlainMatcher where it
// recognises them, and an entry it recognised must parse.
std::pair<std::vector<std::string>, std::string> stream_events(std::string_view text, bool raw, std::size_t buffer_bytes,
                                                               bool matcher = false) {
  MemorySource source(as_bytes(text));
  DumpStreamOptions o{buffer_bytes, ReadOptions{.note_duplicate_keys = true}};
  o.raw_entries = raw;
  o.raw_members = raw;
  PlainMatcher plain;
  if (matcher) o.matcher = &plain;
  DumpJsonStream stream(source, o);
  std::vector<std::string> out;
  DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return {out, more.error().message};
    if (!*more) return {out, ""};
    out.push_back(describe_event(ev));
    if (ev.matched) CHECK(!out.back().ends_with("= error"));
  }
}

// The property the verifier relies on when it checks raw entries on other threads: a document
// read in raw mode gives the same events as in normal mode, or (for a broken one) fails or
// gives an entry whose text does not parse.
void check_raw_mode_agrees(std::string_view text, std::size_t buffer_bytes, bool matcher = false) {
  const auto [normal, normal_error] = stream_events(text, false, buffer_bytes);
  const auto [raw, raw_error] = stream_events(text, true, buffer_bytes, matcher);
  if (normal_error.empty()) {
    CHECK(raw_error == "");
    CHECK(raw == normal);
    return;
  }
  const bool raw_entry_broken = std::any_of(raw.begin(), raw.end(), [](const std::string& e) { return e.ends_with("= error"); });
  CHECK((!raw_error.empty() || raw_entry_broken));
  // Up to the first difference the events agree.
  for (std::size_t i = 0; i < std::min(raw.size(), normal.size()); ++i) {
    if (raw[i].ends_with("= error")) break;
    CHECK(raw[i] == normal[i]);
  }
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("dump stream raw entries and members: same events, keys, positions and values as parsed ones") {
    const std::string text =
        "{\n \"task\": \"statistics\",\n \"x\": [1, {\"k\": \"]\"}],\n \"data\": {\n  \"a\\\"{b\": {\n   \"s\": \"x\\\\\\\"]}\\n\",\n   \"t\": [1, 2.5, NaN]\n  },"
        "\n  \"n\": null, \"l\": [], \"o\": {}, \"d\": {\"k\": 1, \"k\": {\"z\": [2]}}, \"\u00e9\": [\"\u00e9\", -Infinity]\n }\n}\n";
    for (const std::size_t buffer : {std::size_t{16}, std::size_t{64}, std::size_t{1} << 20}) {
      CAPTURE(buffer);
      const auto [normal, normal_error] = stream_events(text, false, buffer);
      REQUIRE(normal_error == "");
      REQUIRE(normal.size() == 10);
      check_raw_mode_agrees(text, buffer);
      check_raw_mode_agrees(text, buffer, true);
    }
  }

  TEST_CASE("dump stream raw entries and members (with and without a matcher): every dump.json and stack.json in testdata, and each cut short or with a byte changed") {
    std::size_t files = 0, stacks = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(testing::source_dir() / "testdata")) {
      const std::string name = e.path().filename().string();
      if (!e.is_regular_file() || e.path().extension() != ".json" || !(name.starts_with("dump") || name.starts_with("stack"))) continue;
      stacks += name.starts_with("stack");
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string text = ss.str();
      CAPTURE(e.path().string());
      ++files;
      for (const bool matcher : {false, true}) {
        CAPTURE(matcher);
        check_raw_mode_agrees(text, 64, matcher);
        check_raw_mode_agrees(text, std::size_t{1} << 20, matcher);
        // Damaged copies: cut at 7 points, one structural byte changed at 7 points.
        for (int k = 1; k <= 7 && text.size() > 8; ++k) {
          const std::size_t at = text.size() * static_cast<std::size_t>(k) / 8;
          check_raw_mode_agrees(std::string_view(text).substr(0, at), 64, matcher);
          std::string changed = text;
          changed[at] = "{}[]\",:\\"[static_cast<std::size_t>(k)];
          check_raw_mode_agrees(changed, 64, matcher);
        }
      }
    }
    CHECK(files >= 50);
    CHECK(stacks >= 10);
  }

  TEST_CASE("dump stream matcher: the entries it recognises are flagged and passed where it says, positions stay") {
    const std::string text =
        "{\n \"task\": \"statistics\",\n \"data\": {\n  \"a\": {\n   \"s\": \"x\\\"\",\n   \"t\": [1]\n  },\n"
        "  \"l\": [\n   1,\n   2\n  ],\n  \"o\": {\"k\": [NaN, -Infinity]},\n  \"b\": {\"k\": 1,},\n  \"c\": [\"\u00e9\"]\n }\n}\n";
    MemorySource source(as_bytes(text));
    DumpStreamOptions o;
    o.raw_entries = true;
    PlainMatcher plain;
    o.matcher = &plain;
    DumpJsonStream stream(source, o);
    std::vector<std::string> flagged;
    DumpEvent ev;
    for (;;) {
      auto more = stream.next(ev);
      REQUIRE(more);
      if (!*more) break;
      if (ev.type == DumpEvent::Type::entry) flagged.push_back(ev.key + (ev.matched ? " plain " : " ") + to_string(ev.position));
    }
    // "a" has an escape, "b" a trailing comma (its brackets pass; a parse fails), "c" a byte
    // that is not ASCII.
    const std::vector<std::string> expected = {"a line 4, column 3", "l plain line 8, column 3", "o plain line 12, column 3",
                                               "b line 13, column 3", "c line 14, column 3"};
    CHECK(flagged == expected);
  }

  TEST_CASE("dump stream yields top-level members in order, then entries, for any key order") {
    const std::string text =
        "{\"level\": \"L1\", \"extra\": [1, 2], \"data\": {\"a\": {}, \"b\": {\"x\": 1, \"y\": [2]}}, \"task\": 5}";
    const std::vector<std::string> expected = {"member level string", "member extra array", "data_begin",
                                               "entry a 0",           "entry b 2",          "data_end",
                                               "member task integer"};
    CHECK(events_of(text, 1 << 20) == expected);
    testing::TempDir dir;
    const std::string path = write_temp(dir, "d.json", text);
    auto file = FileSource::open(path);
    REQUIRE(file);
    for (std::size_t buffer : {1, 2, 3, 5, 8, 13, 64}) {
      CAPTURE(buffer);
      CHECK(events_of(**file, buffer) == expected);
    }
  }

  TEST_CASE("dump stream reports a missing or non-object data as plain members") {
    CHECK(events_of("{\"task\": \"x\"}") == std::vector<std::string>{"member task string"});
    CHECK(events_of("{}") == std::vector<std::string>{});
    CHECK(events_of(" {\"data\": [], \"data\": {}} ") ==
          std::vector<std::string>{"member data array", "data_begin", "data_end"});
  }

  TEST_CASE("dump stream errors: not an object, garbage after it, truncation") {
    CHECK(events_of("[1]").back() == "error: line 1, column 1: expected '{' (a dump.json document is an object), found '['");
    CHECK(events_of("").back() == "error: line 1, column 1: unexpected end of input, expected '{' (a dump.json document is an object)");
    CHECK(events_of("{}x").back() == "error: line 1, column 3: unexpected data after the JSON document");
    CHECK(events_of("{\n \"data\": {\n  \"a\": {\n   \"b\": 1").back() ==
          "error: line 4, column 10: unexpected end of input, expected ',' or '}' after an object member");
    CHECK(events_of("{\n \"data\": {\n  \"a\": 1\n  \"b\"").back() ==
          "error: line 4, column 3: expected ',' or '}' after an object member, found '\"'");
    CHECK(events_of("{\"task\": 12").back() ==
          "error: line 1, column 12: unexpected end of input, expected ',' or '}' after an object member");
    CHECK(events_of("\xEF\xBB\xBF{}").back() == "error: line 1, column 1: unexpected UTF-8 byte order mark");
  }

  TEST_CASE("dump stream gives the same error as the whole-document reader at every truncation point") {
    const std::string text =
        "{\n \"task\": \"statistics\",\n \"data\": {\n  \"Functional.relu.0.forward\": {\n   \"input_args\": [\n"
        "    {\n     \"Max\": 2.0,\n     \"Min\": -1.5e-05,\n     \"Norm\": NaN,\n     \"name\": \"\\u00e9\\ud83d\\ude00\"\n"
        "    }\n   ],\n   \"n\": 1180591620717411303424\n  }\n },\n \"x\": -Infinity\n}";
    REQUIRE(parse_json(text));
    testing::TempDir dir;
    for (std::size_t n = 1; n < text.size(); ++n) {  // n = 0: see the "not an object" case
      CAPTURE(n);
      const std::string cut = text.substr(0, n);
      const auto expected = parse_json(cut);
      REQUIRE_FALSE(expected);
      const std::string path = write_temp(dir, "cut.json", cut);
      auto file = FileSource::open(path);
      REQUIRE(file);
      CHECK(events_of(**file, 7).back() == "error: " + expected.error().message);
      ReadOptions loose;  // as the verifier reads
      loose.exact_capacity = false;
      CHECK(events_of(**file, 7, loose).back() == "error: " + expected.error().message);
    }
  }

  TEST_CASE("dump stream notes repeated keys at any depth of each event, when asked") {
    const std::string text =
        "{\"task\": {\"a\": 1, \"a\": 2}, \"level\": {\"a\": 1}, \"data\": {"
        "\"e1\": {\"x\": [{\"k\": 1, \"m\": 2}], \"y\": {}},"
        "\"e2\": {\"x\": [1, [{\"k\": 1, \"m\": 2, \"k\": 3}]]},"
        "\"e3\": {\"x\": 1, \"y\": 2, \"x\": 3},"
        "\"e4\": {\"k\": {\"kk\": 1, \"k\": 2}, \"kk\": 3},"
        "\"e5\": {" + [] {
          std::string wide;  // more keys than the pairwise comparison handles, the last repeated
          for (int i = 0; i < 40; ++i) wide += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
          return wide + "\"k7\": 0";
        }() + "}, \"e6\": {\"k\": {\"kk\": 1}, \"kk\": [{}, {\"a\": {\"b\": 1, \"c\": 2}}]}}}";
    for (const std::size_t buffer : {std::size_t{16}, std::size_t{1} << 20}) {
      CAPTURE(buffer);
      MemorySource source(as_bytes(text));
      DumpStreamOptions options{buffer, {}};
      options.read.note_duplicate_keys = true;
      DumpJsonStream stream(source, options);
      std::vector<std::string> seen;
      DumpEvent ev;
      for (;;) {
        auto more = stream.next(ev);
        REQUIRE(more);
        if (!*more) break;
        if (ev.type == DumpEvent::Type::member || ev.type == DumpEvent::Type::entry)
          seen.push_back(ev.key + (ev.duplicate_keys ? " dup" : " ok"));
      }
      CHECK(seen == std::vector<std::string>{"task dup", "level ok", "e1 ok", "e2 dup", "e3 dup", "e4 ok", "e5 dup", "e6 ok"});
    }
    // Not asked: never noted.
    MemorySource source(as_bytes(text));
    DumpJsonStream stream(source);
    DumpEvent ev;
    for (;;) {
      auto more = stream.next(ev);
      REQUIRE(more);
      if (!*more) break;
      CHECK_FALSE(ev.duplicate_keys);
    }
  }

  TEST_CASE("dump stream positions point at each key") {
    const std::string text = "{\n \"task\": 1,\n \"data\": {\n  \"e\\u00e9\": {},\n  \"f\": [\n   1\n  ]\n }\n}";
    MemorySource source(as_bytes(text));
    DumpJsonStream stream(source);
    DumpEvent ev;
    std::vector<TextPosition> positions;
    for (;;) {
      auto more = stream.next(ev);
      REQUIRE(more);
      if (!*more) break;
      CHECK(ev.position == locate(text, ev.offset));
      positions.push_back(ev.position);
    }
    CHECK(positions == std::vector<TextPosition>{{2, 2}, {3, 2}, {4, 3}, {5, 3}, {8, 2}});
  }

  TEST_CASE("dump stream keeps its buffer near the size of the largest entry") {
    std::string text = "{\"data\": {";
    for (int i = 0; i < 2000; ++i) {
      if (i) text += ", ";
      text += "\"entry" + std::to_string(i) + "\": [" + std::string(i == 1000 ? 20000 : 10, '7') + "]";
    }
    text += "}}";
    testing::TempDir dir;
    auto file = FileSource::open(write_temp(dir, "big.json", text));
    REQUIRE(file);
    DumpJsonStream stream(**file, DumpStreamOptions{4096, {}});
    DumpEvent ev;
    int entries = 0;
    for (;;) {
      auto more = stream.next(ev);
      REQUIRE(more);
      if (!*more) break;
      entries += ev.type == DumpEvent::Type::entry;
    }
    CHECK(entries == 2000);
    CHECK(stream.buffer_bytes() >= 20000);
    CHECK(stream.buffer_bytes() <= 65536);
  }

  TEST_CASE("dump stream positions stay cheap and right on a single-line document") {
    std::string text = "{\"data\": {";
    for (int i = 0; i < 20000; ++i) {
      if (i) text += ", ";
      text += "\"e\u00e9" + std::to_string(i) + "\": {\"k\": [1.5, \"\xc3\xa9\"]}";
    }
    text += "}}";
    testing::TempDir dir;
    auto file = FileSource::open(write_temp(dir, "line.json", text));
    REQUIRE(file);
    DumpJsonStream stream(**file, DumpStreamOptions{1000, {}});
    DumpEvent ev;
    int checked = 0;
    for (;;) {
      auto more = stream.next(ev);
      REQUIRE(more);
      if (!*more) break;
      if (ev.type == DumpEvent::Type::entry && (ev.key == "e\xc3\xa9" "0" || ev.key == "e\xc3\xa9" "19999")) {
        CHECK(ev.position == locate(text, ev.offset));
        ++checked;
      }
    }
    CHECK(checked == 2);
  }

  TEST_CASE("dump stream error messages do not depend on where the read window ends") {
    const std::string text = "{\n \"data\": {\n  \"a\": null,\n  \"b\" Module.conv1ule.relu.ReLU.forward.1: null\n }\n}";
    const auto expected = parse_json(text);
    REQUIRE_FALSE(expected);
    CHECK(expected.error().message == "line 4, column 7: expected ':' after an object key, found 'Module.conv1ule....'");
    testing::TempDir dir;
    auto file = FileSource::open(write_temp(dir, "bad.json", text));
    REQUIRE(file);
    for (std::size_t buffer = 1; buffer < 80; ++buffer) {
      CAPTURE(buffer);
      CHECK(events_of(**file, buffer).back() == "error: " + expected.error().message);
    }
  }
}
