// libFuzzer target: capture trace lines, split and parsed as convert does (for_each_line, then
// pyjson::parse_json per line). Every line that parses goes through both the header check and
// the event check, so the fuzzer need not learn that line 1 is special. Each line also goes
// through the index pass's light scan (trace/event_scan.h), held to its contract: a line the
// scan accepts parses, with the same kind, name and top-level keys (else abort()); and through
// the entry pass's unchecked split, which must stay inside any bytes (ASan) and split every
// line the data scan accepts exactly as the scan does (else abort()).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/json_reader.h"
#include "trace/event_scan.h"
#include "trace/line_reader.h"
#include "trace/trace_event.h"

namespace {

// Small enough that the fuzzer reaches the "line too long" error with reasonable inputs.
constexpr std::size_t k_max_line_bytes = std::size_t{1} << 16;

// The scan's contract against the full parse.
void check_scan(std::string_view text, const msdump::Result<msdump::pyjson::Value>& value) {
  msdump::trace::ScannedEvent scanned;
  if (!msdump::trace::scan_event_line(text, scanned)) return;
  if (!value || !value->is_object()) std::abort();
  const auto* kind = value->find("kind");
  const auto* name = value->find("name");
  if (kind == nullptr || !kind->is_string() || kind->as_string() != scanned.kind) std::abort();
  if (name == nullptr || !name->is_string() || name->as_string() != scanned.name) std::abort();
  std::vector<std::string_view> keys;
  for (const auto& m : value->as_object())
    if (m.key != "kind" && m.key != "name") keys.push_back(m.key);
  if (keys != scanned.keys) std::abort();
}

// The split's contract against the data scan. The line is copied to a buffer of its exact size
// so that ASan sees any read past its end.
void check_split(std::string_view text) {
  const std::vector<char> exact(text.begin(), text.end());
  const std::string_view line(exact.data(), exact.size());
  msdump::trace::ScannedData split, scanned;
  const bool split_ok = msdump::trace::split_data_line(line, split);
  if (!msdump::trace::scan_data_line(line, scanned)) return;
  if (!split_ok || split.kind != scanned.kind || split.name != scanned.name ||
      split.sections.size() != scanned.sections.size())
    std::abort();
  for (std::size_t i = 0; i < split.sections.size(); ++i)
    if (split.sections[i].key != scanned.sections[i].key || split.sections[i].value != scanned.sections[i].value)
      std::abort();
}

msdump::Result<void> parse_line(const msdump::trace::Line& line) {
  auto value = msdump::pyjson::parse_json(line.text);
  check_scan(line.text, value);
  check_split(line.text);
  if (!value) return {};
  std::vector<std::string> warnings;
  auto header = msdump::trace::parse_trace_header(*value, warnings);
  (void)header;
  auto event = msdump::trace::parse_trace_event(std::move(*value));
  (void)event;
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const msdump::MemorySource src(std::as_bytes(std::span(data, size)), "trace.jsonl");
  auto lines = msdump::trace::for_each_line(src, parse_line, k_max_line_bytes);
  (void)lines;
  return 0;
}
