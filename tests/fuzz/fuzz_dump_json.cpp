// libFuzzer target: a dump.json in memory, streamed entry by entry as verify and convert read
// it (pyjson::DumpJsonStream), also with raw entries and members checked against the parsed ones
// (the verifier's parallel pass, compare's stack.json), and parsed whole (pyjson::parse_json, as
// for construct.json); verify's entries settled from their text (checked shapes) against the
// whole checks; anomalies' clean-entry rule and block pass against entries parsed one by one;
// and the same bytes read as a stack.json by compare, members as text against every member
// parsed.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "anomalies/block_scan.h"
#include "anomalies/clean_entry.h"
#include "anomalies/clean_shapes.h"
#include "anomalies/entry_scan.h"
#include "anomalies/origin_tracker.h"
#include "compare/stack_lookup.h"
#include "core/byte_source.h"
#include "dump/leaf_walk.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_cursor.h"
#include "verify/checked_shapes.h"
#include "verify/entry_checks.h"
#include "verify/finding_sink.h"
#include "verify/schema_check.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_value.h"

namespace {

// Touches every node of `root` without recursion (the parser bounds depth, this walk need not).
std::size_t walk_value(const msdump::pyjson::Value& root) {
  std::size_t bytes = 0;
  std::vector<const msdump::pyjson::Value*> pending{&root};
  while (!pending.empty()) {
    const auto* v = pending.back();
    pending.pop_back();
    if (const auto* s = v->if_string()) bytes += s->size();
    if (const auto* a = v->if_array())
      for (const auto& item : *a) pending.push_back(&item);
    if (const auto* o = v->if_object())
      for (const auto& m : *o) {
        bytes += m.key.size();
        pending.push_back(&m.value);
      }
    auto scalar = v->to_scalar();
    (void)scalar;
  }
  return bytes;
}

// Called with every event of the stream, as the verifier sees them. Validating an entry against
// the dump schema belongs here.
// Every entry goes through the verifier's per-entry checks: the schema of a current PyTorch
// dump and the semantic rules (names, data_name, statistics, key order, checksum races).
void check_dump_event(const msdump::pyjson::DumpEvent& event) {
  const auto bytes = walk_value(event.value) + event.key.size();
  (void)bytes;
  if (event.type != msdump::pyjson::DumpEvent::Type::entry) return;
  static const auto schema = msdump::verify::SchemaCheck::create(msdump::Framework::pytorch, msdump::Profile::current);
  if (!schema) __builtin_trap();  // the embedded schema must compile
  msdump::verify::FindingSink sink({}, 64);
  msdump::pyjson::Value entry = event.value;
  schema->check(event.key, entry, sink);
  msdump::verify::EntryContext ctx;
  ctx.level_known = true;
  ctx.task = "tensor";
  ctx.has_dump_data_dir = true;
  std::string pointer = "/data";
  msdump::dump::append_pointer_token(pointer, event.key);
  msdump::verify::check_entry(event.key, entry, ctx, pointer, sink);
}

// One event as the raw-mode check compares it; a raw entry is parsed as the verifier's workers
// parse it. False when that text does not parse to its last byte.
struct Seen {
  msdump::pyjson::DumpEvent::Type type;
  std::string key;
  std::uint64_t offset, line, column;
  msdump::pyjson::Value value;
  bool duplicate_keys;
};

bool seen(const msdump::pyjson::DumpEvent& e, Seen& out) {
  out = Seen{e.type, e.key, e.offset, e.position.line, e.position.column, {}, e.duplicate_keys};
  if (!e.is_raw) {
    out.value = e.value;
    return true;
  }
  msdump::pyjson::JsonCursor cursor(msdump::pyjson::ReadOptions{.note_duplicate_keys = true});
  cursor.reset(e.raw, e.raw_offset, e.raw_position);
  if (!cursor.parse_value(out.value, 2) || cursor.peek() >= 0) return false;
  out.duplicate_keys = cursor.saw_duplicate_keys();
  return true;
}

std::string finding_text(const msdump::verify::Finding& f) {
  return f.entry + "|" + f.pointer + "|" + f.message + "|" + f.expected + "|" + f.actual +
         std::to_string(static_cast<int>(f.severity));
}

// verify's checked shapes (verify/checked_shapes.h), on each entry's text as the raw stream cuts
// it (not checked: it may be broken): an entry settled from its text must parse, and draws what
// the whole checks draw on its tree. The shapes learned persist from input to input, so later
// inputs meet shapes seen before, with other numbers, names, literals and broken bytes.
void check_shapes(const msdump::ByteSource& src) {
  static const auto schema = msdump::verify::SchemaCheck::create(msdump::Framework::pytorch, msdump::Profile::current);
  static const auto ctx = [] {
    msdump::verify::EntryContext c;
    c.level_known = true;
    c.task = "statistics";
    return std::make_shared<const msdump::verify::EntryContext>(c);
  }();
  static msdump::verify::CheckedShapes shapes(schema->compiled(), ctx, std::make_shared<msdump::verify::ShapeStore>());
  msdump::pyjson::DumpStreamOptions options;
  options.raw_entries = true;
  msdump::pyjson::DumpJsonStream raw(src, options);
  msdump::pyjson::DumpEvent e;
  for (;;) {
    auto more = raw.next(e);
    if (!more || !*more) return;
    if (e.type != msdump::pyjson::DumpEvent::Type::entry || !e.is_raw) continue;
    std::string pointer = "/data";
    msdump::dump::append_pointer_token(pointer, e.key);
    msdump::verify::FindingSink whole({}, 0), fast({}, 0);
    const auto settled = shapes.check_text(e.key, e.raw, pointer, fast);
    Seen parsed;
    const bool ok = seen(e, parsed);
    if (settled && !ok) __builtin_trap();  // settled text that does not parse
    if (!settled && !fast.findings().empty()) __builtin_trap();
    if (!ok) continue;
    schema->check(e.key, parsed.value, whole);
    msdump::verify::check_entry(e.key, parsed.value, *ctx, pointer, whole);
    if (!settled) {
      shapes.learn(e.key, parsed.value, whole.findings().empty() && !parsed.duplicate_keys);
      continue;
    }
    if (fast.findings().size() != whole.findings().size()) __builtin_trap();
    for (std::size_t i = 0; i < fast.findings().size(); ++i)
      if (finding_text(fast.findings()[i]) != finding_text(whole.findings()[i])) __builtin_trap();
  }
}

// The property the verifier's parallel pass relies on (dump/entry_workers.h): read with raw_entries,
// a document gives the same events as read normally, or (if it is broken) the raw stream fails
// or one of its entries does not parse; events agree up to there.
void check_raw_mode(const msdump::ByteSource& src) {
  using msdump::pyjson::DumpJsonStream;
  using msdump::pyjson::DumpStreamOptions;
  DumpStreamOptions normal_options, raw_options;
  normal_options.read.note_duplicate_keys = raw_options.read.note_duplicate_keys = true;
  raw_options.raw_entries = true;
  raw_options.raw_members = true;
  DumpJsonStream normal(src, normal_options), raw(src, raw_options);
  msdump::pyjson::DumpEvent a, b;
  Seen x, y;
  for (;;) {
    auto more_a = normal.next(a);
    auto more_b = raw.next(b);
    if (!more_b) return;  // the raw stream failed: the verifier falls back (any normal outcome is fine)
    if (!seen(b, y)) return;  // an entry that does not parse: the same
    if (!more_a) __builtin_trap();  // the normal stream failed where the raw one vouched for the text
    if (*more_a != *more_b) __builtin_trap();
    if (!*more_a) return;
    seen(a, x);
    if (x.type != y.type || x.key != y.key || x.offset != y.offset || x.line != y.line || x.column != y.column ||
        x.duplicate_keys != y.duplicate_keys || !x.value.identical(y.value))
      __builtin_trap();
  }
}

// The analysis anomalies makes from the document's entries in order, parsed one by one (the
// reference); nullopt when the normal stream fails.
std::optional<msdump::anomalies::DumpAnalysis> anomalies_one_by_one(const msdump::ByteSource& src,
                                                                    const msdump::anomalies::ScanOptions& o) {
  msdump::pyjson::DumpJsonStream stream(src);
  msdump::pyjson::DumpEvent ev;
  msdump::anomalies::OriginTracker tracker;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return std::nullopt;
    if (!*more) return tracker.finish();
    if (ev.type == msdump::pyjson::DumpEvent::Type::entry) tracker.add(msdump::anomalies::scan_entry(ev.key, ev.value, o));
  }
}

bool same(const msdump::anomalies::DumpAnalysis& a, const msdump::anomalies::DumpAnalysis& b) {
  if (a.entries != b.entries || a.origins != b.origins || a.anomalies.size() != b.anomalies.size()) return false;
  for (std::size_t i = 0; i < a.anomalies.size(); ++i)
    if (a.anomalies[i].entry != b.anomalies[i].entry || a.anomalies[i].message != b.anomalies[i].message ||
        a.anomalies[i].pointer != b.anomalies[i].pointer)
      return false;
  return true;
}

// The properties anomalies' fast passes rely on: an entry text CleanEntryRule calls clean parses
// and holds nothing to report; CleanShapes (its shapes kept across inputs) answers as the rule;
// the block pass (anomalies/block_scan.h), at any block size, gives the one-by-one analysis or
// gives up.
void check_anomalies(const msdump::ByteSource& src) {
  msdump::anomalies::ScanOptions o;
  static const msdump::anomalies::CleanEntryRule rule(o.overflow_fraction);
  static msdump::anomalies::CleanShapes shapes(rule);
  msdump::pyjson::DumpStreamOptions raw_options;
  raw_options.raw_entries = true;
  msdump::pyjson::DumpJsonStream raw(src, raw_options);
  msdump::pyjson::DumpEvent ev;
  for (auto more = raw.next(ev); more && *more; more = raw.next(ev)) {
    if (ev.type != msdump::pyjson::DumpEvent::Type::entry || !ev.is_raw) continue;
    const bool clean = rule.clean(ev.raw);
    if (shapes.clean(ev.key, ev.raw) != clean) __builtin_trap();
    if (!clean) continue;
    auto parsed = msdump::pyjson::parse_json(ev.raw);
    if (!parsed) __builtin_trap();
    const auto scan = msdump::anomalies::scan_entry(ev.key, *parsed, o);
    if (scan.tensor_input || scan.argument || !scan.outputs.empty() || !scan.stat_overflows.empty() ||
        !scan.overflow_risks.empty())
      __builtin_trap();
  }
  const auto want = anomalies_one_by_one(src, o);
  for (const std::uint64_t block : {std::uint64_t{16}, std::uint64_t{200}, msdump::anomalies::k_scan_block_bytes}) {
    msdump::anomalies::OriginTracker tracker;
    if (!msdump::anomalies::scan_in_blocks(src, o, 2, tracker, block)) continue;
    if (!want || !same(tracker.finish(), *want)) __builtin_trap();
  }
}

// compare's stack.json reading (compare/stack_lookup.h): read with members as text it gives the
// cells of every name, or the error, that parsing every member gives.
void check_stack_lookup(const msdump::ByteSource& src) {
  const auto fast = msdump::compare::parse_stack_lookup(src, "stack.json");
  const auto exact = msdump::compare::parse_stack_lookup(src, "stack.json", false);
  if (static_cast<bool>(fast) != static_cast<bool>(exact)) __builtin_trap();
  if (!exact) {
    if (fast.error().message != exact.error().message) __builtin_trap();
    return;
  }
  if (fast->id_of.size() != exact->id_of.size()) __builtin_trap();
  for (std::size_t i = 0; i < exact->id_of.size(); ++i)
    if (fast->id_of[i].first != exact->id_of[i].first ||
        fast->cells[fast->id_of[i].second] != exact->cells[exact->id_of[i].second])
      __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  const msdump::MemorySource src(bytes, "dump.json");
  msdump::pyjson::DumpJsonStream stream(src);
  msdump::pyjson::DumpEvent event;
  for (;;) {
    auto more = stream.next(event);
    if (!more || !*more) break;
    check_dump_event(event);
  }

  check_raw_mode(src);
  check_shapes(src);
  check_anomalies(src);
  check_stack_lookup(src);
  if (auto whole = msdump::pyjson::parse_json(bytes)) walk_value(*whole);
  return 0;
}
