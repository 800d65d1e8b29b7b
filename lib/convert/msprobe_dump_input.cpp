#include "convert/msprobe_dump_input.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "dump/entry_name.h"
#include "dump/format_signals.h"
#include "dump/leaf_walk.h"
#include "pyjson/dump_json_stream.h"

namespace msdump::convert {
namespace {

Result<MsprobeDumpHeader> header_from(const pyjson::Object& keys, const std::string& name, const DumpForm& form) {
  MsprobeDumpHeader h;
  h.summary_mode = form.summary_mode;
  h.profile = form.profile;
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

DumpForm detect_form(const ByteSource& source) {
  DumpForm form;
  bool mode_known = false;
  Framework framework = Framework::pytorch;  // (old dumps without "framework" are PyTorch)
  pyjson::DumpJsonStream stream(source);
  pyjson::DumpEvent ev;
  std::vector<std::string> path;
  while (!(form.profile && mode_known)) {
    auto more = stream.next(ev);
    if (!more || !*more || ev.offset > k_form_scan_bytes) break;
    if (ev.type == pyjson::DumpEvent::Type::member && ev.key == "framework" && ev.value.is_string())
      framework = framework_from_string(ev.value.as_string()).value_or(Framework::pytorch);
    if (ev.type != pyjson::DumpEvent::Type::entry) continue;
    std::uint32_t signals = dump::entry_signals(dump::parse_entry_name(ev.key), ev.value, framework);
    path.clear();
    dump::walk_leaves(ev.value, path, [&](const pyjson::Value& leaf, dump::LeafKind kind, const std::vector<std::string>&) {
      if (kind != dump::LeafKind::tensor) return;
      signals |= dump::leaf_signals(leaf, framework);
      if (auto m = dump::summary_mode_of_leaf(leaf); m && !mode_known) {
        form.summary_mode = *m;
        mode_known = true;
      }
    });
    if (!form.profile && (signals & dump::k_legacy_signals)) form.profile = Profile::legacy;
    else if (!form.profile && (signals & dump::k_current_signals)) form.profile = Profile::current;
  }
  return form;
}

Result<void> read_msprobe_dump(const ByteSource& source, MsprobeDumpVisitor& visitor) {
  const DumpForm form = detect_form(source);
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
        auto h = header_from(header_keys, source.name(), form);
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
