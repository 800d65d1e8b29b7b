// libFuzzer target: a dump.json in memory, streamed entry by entry as verify and convert read
// it (pyjson::DumpJsonStream), and parsed whole (pyjson::parse_json, as for stack.json and
// construct.json).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
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
void check_dump_event(const msdump::pyjson::DumpEvent& event) {
  const auto bytes = walk_value(event.value) + event.key.size();
  (void)bytes;
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
