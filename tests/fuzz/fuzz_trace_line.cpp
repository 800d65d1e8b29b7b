// libFuzzer target: capture trace lines, split and parsed as convert does (for_each_line, then
// pyjson::parse_json per line). Every line that parses goes through both the header check and
// the event check, so the fuzzer need not learn that line 1 is special.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/json_reader.h"
#include "trace/line_reader.h"
#include "trace/trace_event.h"

namespace {

// Small enough that the fuzzer reaches the "line too long" error with reasonable inputs.
constexpr std::size_t k_max_line_bytes = std::size_t{1} << 16;

msdump::Result<void> parse_line(const msdump::trace::Line& line) {
  auto value = msdump::pyjson::parse_json(line.text);
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
