// libFuzzer target: a dump.json in memory, streamed entry by entry as verify and convert read
// it (pyjson::DumpJsonStream), and parsed whole (pyjson::parse_json, as for stack.json and
// construct.json).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "dump/leaf_walk.h"
#include "pyjson/dump_json_stream.h"
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

  if (auto whole = msdump::pyjson::parse_json(bytes)) walk_value(*whole);
  return 0;
}
