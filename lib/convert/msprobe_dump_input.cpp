#include "convert/msprobe_dump_input.h"

#include <fmt/format.h>

#include <cstring>
#include <string_view>

#include "dump/entry_name.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::convert {
namespace {

constexpr std::size_t k_sniff_bytes = std::size_t{4} << 20;

std::string sniff(const ByteSource& source) {
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(source.size(), k_sniff_bytes));
  std::string head(n, '\0');
  if (!source.read_at(0, {reinterpret_cast<std::byte*>(head.data()), n})) head.clear();
  return head;
}

Result<MsprobeDumpHeader> header_from(const pyjson::Object& keys, const std::string& name, SummaryMode mode) {
  MsprobeDumpHeader h;
  h.summary_mode = mode;
  bool have_framework = false;
  for (const auto& m : keys) {
    const std::string where = fmt::format("{}: /{}", name, m.key);
    if (m.key == "task") {
      auto t = m.value.is_string() ? task_from_string(m.value.as_string()) : std::nullopt;
      if (!t) return unsupported(fmt::format("{}: expected \"statistics\" or \"tensor\" (convert reads those dumps)", where));
      h.task = *t;
    } else if (m.key == "level") {
      auto l = m.value.is_string() ? level_from_string(m.value.as_string()) : std::nullopt;
      if (!l) return invalid_input(fmt::format("{}: expected \"L0\", \"L1\" or \"mix\"", where));
      h.level = *l;
    } else if (m.key == "framework") {
      auto f = m.value.is_string() ? framework_from_string(m.value.as_string()) : std::nullopt;
      if (!f) return invalid_input(fmt::format("{}: expected \"pytorch\", \"mindspore\" or \"mindtorch\"", where));
      h.framework = *f;
      have_framework = true;
    } else if (m.key == "dump_data_dir") {
      if (m.value.is_string()) h.dump_data_dir = m.value.as_string();
      else if (!m.value.is_null()) return invalid_input(fmt::format("{}: expected a string or null", where));
    }
  }
  (void)have_framework;  // old dumps without "framework" are PyTorch (msprobe compare's rule)
  return h;
}

}  // namespace

Profile detect_profile(const ByteSource& source) {
  // The first forward entry decides: legacy msprobe wrote is_recompute into every one of them.
  // (A stray is_recompute later in a current dump is then a schema finding, not a new profile.)
  pyjson::DumpJsonStream stream(source);
  pyjson::DumpEvent ev;
  while (true) {
    auto more = stream.next(ev);
    if (!more || !*more) return Profile::current;
    if (ev.type != pyjson::DumpEvent::Type::entry || !dump::parse_entry_name(ev.key).is_forward()) continue;
    return ev.value.find("is_recompute") != nullptr ? Profile::legacy : Profile::current;
  }
}

SummaryMode detect_summary_mode(const ByteSource& source) {
  const std::string head = sniff(source);
  if (head.find("\"md5\"") == std::string::npos) return SummaryMode::statistics;
  return head.find("\"Max\"") == std::string::npos ? SummaryMode::xor_checksum : SummaryMode::md5;
}

Result<void> read_msprobe_dump(const ByteSource& source, MsprobeDumpVisitor& visitor) {
  const SummaryMode mode = detect_summary_mode(source);
  pyjson::Object header_keys;
  bool header_sent = false;
  pyjson::DumpJsonStream stream(source);
  pyjson::DumpEvent ev;
  while (true) {
    auto more = stream.next(ev);
    if (!more) return more.error().with_context(source.name());
    if (!*more) break;
    switch (ev.type) {
      case pyjson::DumpEvent::Type::member:
        if (!header_sent) header_keys.push_back(pyjson::Member{ev.key, std::move(ev.value), ev.offset});
        break;
      case pyjson::DumpEvent::Type::data_begin: {
        auto h = header_from(header_keys, source.name(), mode);
        if (!h) return h.error();
        header_sent = true;
        if (auto r = visitor.on_header(*h); !r) return r;
        break;
      }
      case pyjson::DumpEvent::Type::entry:
        if (auto r = visitor.on_entry(ev.key, std::move(ev.value), ev.position.line); !r) return r;
        break;
      case pyjson::DumpEvent::Type::data_end: break;
    }
  }
  return {};
}

}  // namespace msdump::convert
