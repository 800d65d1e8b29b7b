#pragma once
// The entries of a dump.json that compare's text readers take: each entry with a direction
// whose value is valid JSON in the plain form (PlainScanner), as pass 1 meets them. For the
// tests of the row readers.

#include <filesystem>
#include <string>
#include <string_view>

#include "compare/dump_rows.h"
#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/plain_scanner.h"
#include "test_util.h"

namespace msdump::compare::testing {

// f(name, value text) for each such entry of the dump.json at `path`, in file order.
template <class F>
void each_plain_entry(const std::filesystem::path& path, F&& f) {
  const std::string text = msdump::testing::slurp(path);
  const MemorySource src(as_bytes(text), path.string());
  pyjson::DumpStreamOptions options;
  options.raw_entries = true;
  pyjson::DumpJsonStream stream(src, options);
  pyjson::DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    if (!more || !*more) return;
    if (ev.type != pyjson::DumpEvent::Type::entry || !ev.is_raw || entry_kind(ev.key) == EntryKind::other) continue;
    if (pyjson::PlainScanner<>(ev.raw.data(), ev.raw.data() + ev.raw.size()).whole_value()) f(std::string_view(ev.key), ev.raw);
  }
}

}  // namespace msdump::compare::testing
