#include "verify/verify.h"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>

#include "convert/convert.h"
#include "convert/msprobe_dump_input.h"
#include "core/byte_source.h"
#include "dump/entry_name.h"
#include "dump/leaf_walk.h"
#include "pyjson/dump_json_stream.h"
#include "verify/cross_file.h"
#include "verify/entry_checks.h"
#include "verify/event_pipe.h"
#include "verify/finding_sink.h"
#include "verify/golden.h"
#include "verify/schema_check.h"
#include "verify/tensor_checks.h"

namespace msdump::verify {
namespace {

namespace fs = std::filesystem;
using pyjson::Value;

// dump.json given directly or as the directory holding it.
Result<std::string> resolve_dump(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const auto p = (fs::path(path) / "dump.json").string();
    if (!fs::exists(p, ec)) return io_error(fmt::format("'{}': no dump.json in this directory", path));
    return p;
  }
  if (!fs::exists(path, ec)) return io_error(fmt::format("'{}': no such file or directory", path));
  return path;
}

constexpr std::string_view k_top_keys[] = {"task", "level", "framework", "dump_data_dir", "data"};

// The header keys: exactly task, level, framework, dump_data_dir, data, in that order (a missing
// framework is tolerated, as msprobe's compare does).
void check_header(const pyjson::Object& members, FindingSink& sink, Framework& framework, EntryContext& ctx,
                  std::string& task, std::string& level) {
  std::size_t expected_pos = 0;
  for (const auto& m : members) {
    std::string p;
    dump::append_pointer_token(p, m.key);
    std::size_t pos = 0;
    while (pos < std::size(k_top_keys) && k_top_keys[pos] != m.key) ++pos;
    if (pos == std::size(k_top_keys)) {
      sink.add(FindingKind::schema, "", p, fmt::format("unknown top-level key \"{}\"", m.key),
               "task, level, framework, dump_data_dir, data", m.key);
      continue;
    }
    if (pos < expected_pos)
      sink.add(FindingKind::schema, "", p, fmt::format("top-level key \"{}\" is out of order", m.key),
               "task, level, framework, dump_data_dir, data", m.key);
    expected_pos = pos + 1;
    if (m.key == "task") {
      static const std::vector<std::string> k_tasks{"statistics", "tensor", "structure", "nan_check", "diff_check"};
      if (!m.value.is_string() || std::find(k_tasks.begin(), k_tasks.end(), m.value.as_string()) == k_tasks.end())
        sink.add(FindingKind::schema, "", p, "invalid task", "statistics, tensor, structure, nan_check, diff_check",
                 json_text(&m.value));
      else task = m.value.as_string();
    } else if (m.key == "level") {
      auto l = m.value.is_string() ? level_from_string(m.value.as_string()) : std::nullopt;
      if (!l) sink.add(FindingKind::schema, "", p, "invalid level", "L0, L1 or mix", json_text(&m.value));
      else {
        ctx.level = *l;
        ctx.level_known = true;
        level = m.value.as_string();
      }
    } else if (m.key == "framework") {
      auto f = m.value.is_string() ? framework_from_string(m.value.as_string()) : std::nullopt;
      if (!f) sink.add(FindingKind::schema, "", p, "invalid framework", "pytorch, mindspore or mindtorch", json_text(&m.value));
      else framework = *f;
    } else if (m.key == "dump_data_dir") {
      if (!m.value.is_null() && !m.value.is_string())
        sink.add(FindingKind::schema, "", p, "dump_data_dir must be a string or null", "string or null", json_text(&m.value));
    }
  }
}

}  // namespace

Result<VerifyReport> verify_dump(const VerifyOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  auto dump_path = resolve_dump(o.path);
  if (!dump_path) return dump_path.error();
  const fs::path dir = fs::path(*dump_path).parent_path();
  auto src = FileSource::open(*dump_path);
  if (!src) return src.error();

  VerifyReport report;
  FindingSink sink(o.warn_only, o.max_findings);
  sink.set_location(*dump_path, 0);
  auto& sum = report.summary;
  sum.file = *dump_path;
  sum.bytes = (*src)->size();
  sum.profile = convert::detect_profile(**src);
  const SummaryMode mode = convert::detect_summary_mode(**src);

  // The golden: an msprobe dump, or a capture converted into a temporary directory.
  std::optional<Golden> golden;
  std::optional<fs::path> converted;
  if (o.capture) {
    converted = fs::temp_directory_path() / fmt::format("msdump-verify-{}-{}", ::getpid(), started.time_since_epoch().count());
    convert::ConvertOptions co;
    co.input = *o.capture;
    co.output = converted->string();
    auto r = convert::convert_one(co);
    if (!r) return r.error().with_context(fmt::format("converting the capture '{}'", *o.capture));
    auto g = Golden::load((*converted / "dump.json").string());
    if (!g) return g.error();
    golden = std::move(*g);
  } else if (o.against) {
    auto gp = resolve_dump(*o.against);
    if (!gp) return gp.error();
    auto g = Golden::load(*gp);
    if (!g) return g.error();
    golden = std::move(*g);
  }
  GoldenTolerance gtol;
  if (o.tolerance.rtol) gtol.rtol = *o.tolerance.rtol;
  if (o.tolerance.atol_mean_abs) gtol.atol = *o.tolerance.atol_mean_abs;

  EntryContext ctx;
  DumpNames names;
  std::optional<SchemaCheck> schema;
  std::optional<TensorChecker> tensors;
  MatchKeys keys;
  pyjson::Object header;
  bool in_data = false;

  EventPipe stream(**src);
  pyjson::DumpEvent ev;
  std::string pointer;  // the entry's, reused
  int data_objects = 0;  // "data" keys seen
  while (true) {
    bool schema_valid = false, no_duplicates = false;
    auto more = stream.next(ev, &schema_valid, &no_duplicates);
    if (!more) {
      sink.set_location(*dump_path, 0);  // the message carries the error's own line and column
      sink.add(FindingKind::json, "", "", more.error().message);
      break;
    }
    if (!*more) break;
    sink.set_line(ev.position.line);
    switch (ev.type) {
      case pyjson::DumpEvent::Type::member:
        header.push_back(pyjson::Member{ev.key, std::move(ev.value), ev.offset});
        break;
      case pyjson::DumpEvent::Type::data_begin: {
        header.push_back(pyjson::Member{"data", Value::object(), ev.offset});
        check_header(header, sink, ctx.rules.framework, ctx, sum.task, sum.level);
        ctx.task = sum.task;
        for (const auto& m : header)
          if (m.key == "dump_data_dir") ctx.has_dump_data_dir = m.value.is_string();
        if (header.size() > 0 && std::none_of(header.begin(), header.end(), [](const auto& m) { return m.key == "framework"; }))
          sink.add(FindingKind::schema, "", "/framework", "no framework key: assuming pytorch", "pytorch", "",
                   Severity::warning);
        ctx.rules.profile = sum.profile;
        sum.framework = ctx.rules.framework;
        names.level = ctx.level;
        names.level_known = ctx.level_known;
        auto sc = SchemaCheck::create(ctx.rules.framework, sum.profile);
        if (!sc) return sc.error();
        schema = std::move(*sc);
        // The parser thread's own instance, for the entries of this (first) "data" only: a
        // second "data" key would be checked with a schema chosen by then (flags ignored).
        if (++data_objects == 1) {
          auto mine = SchemaCheck::create(ctx.rules.framework, sum.profile);
          if (!mine) return mine.error();
          stream.set_schema(std::make_unique<SchemaCheck>(std::move(*mine)));
        }
        const fs::path tdir = o.tensors ? fs::path(*o.tensors) : dir / "dump_tensor_data";
        std::error_code ec;
        if (o.check_tensors && fs::is_directory(tdir, ec))
          tensors.emplace(tdir.string(), ctx.rules.framework, sum.profile, mode, o.tolerance, o.threads);
        in_data = true;
        break;
      }
      case pyjson::DumpEvent::Type::entry: {
        ++sum.entries;
        pointer.assign("/data");
        dump::append_pointer_token(pointer, ev.key);
        if (!names.add(ev.key))
          sink.add(FindingKind::duplicate, ev.key, pointer, "entry name appears more than once in data", "unique names",
                   ev.key);
        if (!schema_valid || data_objects != 1) schema->check(ev.key, ev.value, sink);  // (else the parser thread found it valid)
        if (!tensors) {
          check_entry(ev.key, ev.value, ctx, pointer, sink, &sum.leaves, no_duplicates);  // counts the leaves
        } else if (check_entry(ev.key, ev.value, ctx, pointer, sink, nullptr, no_duplicates); ev.value.is_object()) {
          for (const auto& section : ev.value.as_object()) {
            std::vector<std::string> path;
            dump::walk_leaves(section.value, path, [&](const Value& leaf, dump::LeafKind kind, const std::vector<std::string>& p) {
              if (kind != dump::LeafKind::tensor && kind != dump::LeafKind::ndarray) return;
              ++sum.leaves;
              if (tensors && tensors->check(leaf, ev.key, dump::leaf_pointer(pointer, section.key, p), sink))
                ++sum.tensors_checked;
            });
          }
        }
        if (ev.value.find("input_args") != nullptr) names.forward_inputs = true;
        if (golden) golden->compare(ev.key, keys.key(ev.key), ev.value, pointer, gtol, sink);
        break;
      }
      case pyjson::DumpEvent::Type::data_end: break;
    }
  }
  sink.set_location(*dump_path, 0);
  if (!in_data && sink.errors() == 0) sink.add(FindingKind::schema, "", "/data", "no \"data\" object", "an object", "");
  if (golden) golden->report_unmatched(sink);
  if (tensors) tensors->report_unreferenced(sink);
  if (fs::exists(dir / "stack.json")) check_stack_json((dir / "stack.json").string(), names, sink);
  if (fs::exists(dir / "construct.json")) check_construct_json((dir / "construct.json").string(), names, sink);
  if (converted) {
    std::error_code ec;
    fs::remove_all(*converted, ec);
  }

  if (o.keep_entry_names) report.entry_names = std::move(names.in_order);
  report.findings = std::move(sink.findings());
  sum.errors = sink.errors();
  sum.warnings = sink.warnings();
  sum.dropped = sink.dropped();
  sum.by_kind = sink.by_kind();
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace msdump::verify
