#include "trace/trace_event.h"

#include <fmt/format.h>

#include <array>

namespace msdump::trace {
namespace {

Error expected(std::string_view pointer, std::string_view what, const pyjson::Value& got) {
  return invalid_input(fmt::format("{}: expected {}, got {}", pointer, what, pyjson::kind_name(got.kind())));
}

Result<std::string> required_string(const pyjson::Value& obj, std::string_view key) {
  const auto* v = obj.find(key);
  if (v == nullptr) return invalid_input(fmt::format("/{}: missing (expected a string)", key));
  if (!v->is_string()) return expected(fmt::format("/{}", key), "a string", *v);
  return v->as_string();
}

// required_string, moving the string out of `obj`.
Result<std::string> take_string(pyjson::Value& obj, std::string_view key) {
  auto* v = obj.find(key);
  if (v == nullptr) return invalid_input(fmt::format("/{}: missing (expected a string)", key));
  if (!v->is_string()) return expected(fmt::format("/{}", key), "a string", *v);
  return std::move(v->as_string());
}

template <typename E>
Result<std::optional<E>> optional_enum(const pyjson::Value& obj, std::string_view key,
                                       std::optional<E> (*parse)(std::string_view), std::string_view allowed) {
  const auto* v = obj.find(key);
  if (v == nullptr) return std::optional<E>{};
  if (!v->is_string()) return expected(fmt::format("/{}", key), fmt::format("one of {}", allowed), *v);
  auto e = parse(v->as_string());
  if (!e) return invalid_input(fmt::format("/{}: expected one of {}, got \"{}\"", key, allowed, v->as_string()));
  return std::optional<E>{*e};
}

Result<std::optional<std::int64_t>> optional_int(const pyjson::Value& obj, std::string_view key) {
  const auto* v = obj.find(key);
  if (v == nullptr) return std::optional<std::int64_t>{};
  if (v->kind() != pyjson::Kind::integer) return expected(fmt::format("/{}", key), "an integer", *v);
  return std::optional<std::int64_t>{v->as_int()};
}

}  // namespace

bool is_known_section(std::string_view key) {
  static constexpr std::array<std::string_view, 8> k_sections = {
      "input_args", "input_kwargs", "output", "parameters", "input", "is_recompute", "is_nan", "debug"};
  for (auto s : k_sections)
    if (s == key) return true;
  return false;
}

Result<TraceHeader> parse_trace_header(const pyjson::Value& line, std::vector<std::string>& warnings) {
  if (!line.is_object()) return expected("/", "the header object", line);
  auto format = required_string(line, "format");
  if (!format) return format.error().with_context("header");
  if (*format != "msdump-trace")
    return invalid_input(fmt::format("header: /format: expected \"msdump-trace\", got \"{}\"", *format));
  TraceHeader h;
  const auto* version = line.find("version");
  if (version == nullptr || version->kind() != pyjson::Kind::integer)
    return invalid_input("header: /version: expected an integer");
  h.version = version->as_int();
  if (h.version < 1 || h.version > k_trace_version)
    return unsupported(fmt::format("header: /version: trace version {} is not supported (this msdump reads version {})",
                                   h.version, k_trace_version));
  auto fw = required_string(line, "framework");
  if (!fw) return fw.error().with_context("header");
  auto framework = framework_from_string(*fw);
  if (!framework)
    return invalid_input(fmt::format("header: /framework: expected pytorch, mindspore or mindtorch, got \"{}\"", *fw));
  h.framework = *framework;

  auto step = optional_int(line, "step");
  if (!step) return step.error().with_context("header");
  h.step = *step;
  auto rank = optional_int(line, "rank");
  if (!rank) return rank.error().with_context("header");
  h.rank = *rank;
  auto level = optional_enum<Level>(line, "level", level_from_string, "L0, L1, mix");
  if (!level) return level.error().with_context("header");
  h.level = level->value_or(Level::mix);
  auto task = optional_enum<Task>(line, "task", task_from_string, "statistics, tensor");
  if (!task) return task.error().with_context("header");
  h.task = *task;
  auto mode = optional_enum<SummaryMode>(line, "summary_mode", summary_mode_from_string, "statistics, md5, xor");
  if (!mode) return mode.error().with_context("header");
  h.summary_mode = *mode;
  if (const auto* dp = line.find("dump_path")) {
    if (!dp->is_string()) return expected("header: /dump_path", "a string", *dp);
    h.dump_path = dp->as_string();
  }
  if (const auto* mg = line.find("megatron")) {
    if (!mg->is_bool()) return expected("header: /megatron", "a boolean", *mg);
    h.megatron = mg->as_bool();
  }
  auto risk = optional_enum<RiskLevel>(line, "risk_level", risk_level_from_string, "CORE, FOCUS, ALL");
  if (!risk) return risk.error().with_context("header");
  h.risk_level = *risk;
  if (const auto* rec = line.find("recorder"); rec != nullptr && !rec->is_object())
    return expected("header: /recorder", "an object (name, version of the recorder)", *rec);
  static constexpr std::array<std::string_view, 11> k_known = {
      "format", "version", "framework", "step", "rank", "level", "task", "summary_mode", "dump_path",
      "risk_level", "recorder"};
  for (const auto& m : line.as_object()) {
    bool known = m.key == "megatron";
    for (auto k : k_known) known = known || k == m.key;
    if (!known) warnings.push_back(fmt::format("header: unknown key \"{}\" ignored", m.key));
  }
  return h;
}

Result<TraceEvent> parse_trace_event(pyjson::Value&& line) {
  if (!line.is_object()) return expected("/", "an event object", line);
  auto kind = required_string(line, "kind");
  if (!kind) return kind.error();
  TraceEvent ev;
  if (*kind == "data") ev.kind = EventKind::data;
  else if (*kind == "stack") ev.kind = EventKind::stack;
  else if (*kind == "construct") ev.kind = EventKind::construct;
  else {
    ev.unknown_kind = *kind;
    return ev;
  }
  auto name = take_string(line, "name");
  if (!name) return name.error();
  if (name->empty()) return invalid_input("/name: expected a non-empty entry name");
  ev.name = std::move(*name);

  switch (ev.kind) {
    case EventKind::data:
      for (auto& m : line.as_object())
        if (m.key != "kind" && m.key != "name") ev.sections.push_back(std::move(m));
      break;
    case EventKind::stack: {
      auto* frames = line.find("frames");
      if (frames == nullptr) return invalid_input("/frames: missing (expected a list of strings)");
      if (!frames->is_array()) return expected("/frames", "a list of strings", *frames);
      auto& items = frames->as_array();
      ev.frames.reserve(items.size());
      for (std::size_t i = 0; i < items.size(); ++i) {
        auto& f = items[i];
        if (!f.is_string()) return expected(fmt::format("/frames/{}", i), "a string", f);
        ev.frames.push_back(std::move(f.as_string()));
      }
      break;
    }
    case EventKind::construct: {
      auto* parent = line.find("parent");
      if (parent == nullptr) return invalid_input("/parent: missing (expected a string or null)");
      if (parent->is_string()) ev.parent = std::move(parent->as_string());
      else if (!parent->is_null()) return expected("/parent", "a string or null", *parent);
      auto micro = optional_int(line, "micro_step");
      if (!micro) return micro.error();
      ev.micro_step = *micro;
      break;
    }
    case EventKind::unknown: break;
  }
  return ev;
}

}  // namespace msdump::trace
