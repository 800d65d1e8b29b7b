#include "verify/verify.h"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>

#include "convert/convert.h"
#include "convert/msprobe_dump_input.h"
#include "core/byte_source.h"
#include "dump/dump_paths.h"
#include "dump/entry_name.h"
#include "dump/entry_workers.h"
#include "dump/leaf_walk.h"
#include "pyjson/dump_json_stream.h"
#include "verify/capture_golden.h"
#include "verify/cross_file.h"
#include "verify/entry_checks.h"
#include "verify/event_pipe.h"
#include "verify/finding_sink.h"
#include "verify/golden.h"
#include "verify/parallel_checks.h"
#include "verify/profile_checks.h"
#include "verify/schema_check.h"
#include "verify/tensor_checks.h"

namespace msdump::verify {
namespace {

namespace fs = std::filesystem;
using pyjson::Value;

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

// What one pass over dump.json's events builds. A parallel pass that gives up is thrown away
// whole: the one-entry-at-a-time pass then starts from a fresh one.
struct Pass {
  Pass(const VerifyOptions& o, const std::string& file) : sink(o.warn_only, o.max_findings) { sink.set_location(file, 0); }
  FindingSink sink;
  EntryContext ctx;
  DumpNames names;
  dump::ProfileEvidence evidence;
  pyjson::Object header;
  bool in_data = false;
  int data_objects = 0;  // "data" keys seen
  std::uint64_t entries = 0, leaves = 0, tensors_checked = 0;
  std::string task, level;
};

// The schema entries are validated with: the given profile's, or (auto) the legacy one, which
// accepts both generations' entries (is_recompute allowed, not required); what then tells them
// apart is checked over the whole file (profile_checks.h).
Profile schema_profile(std::optional<Profile> given) { return given.value_or(Profile::legacy); }

// At the "data" key: checks the header members read so far and sets the entry context.
void begin_data(Pass& p, std::optional<Profile> profile, std::uint64_t offset) {
  p.header.push_back(pyjson::Member{"data", Value::object(), offset});
  check_header(p.header, p.sink, p.ctx.rules.framework, p.ctx, p.task, p.level);
  p.ctx.task = p.task;
  for (const auto& m : p.header)
    if (m.key == "dump_data_dir") p.ctx.has_dump_data_dir = m.value.is_string();
  if (std::none_of(p.header.begin(), p.header.end(), [](const auto& m) { return m.key == "framework"; }))
    p.sink.add(FindingKind::schema, "", "/framework", "no framework key: assuming pytorch", "pytorch", "",
               Severity::warning);
  p.ctx.rules.profile = profile;
  p.names.level = p.ctx.level;
  p.names.level_known = p.ctx.level_known;
  p.in_data = true;
  ++p.data_objects;
}

// The entries checked on several threads (dump/entry_workers.h); nullopt when the file has to be
// verified one entry at a time instead (a syntax error, an entry that is not valid JSON, a
// second "data" object), or on an internal error (that pass reports it).
std::optional<Pass> entries_in_parallel(const VerifyOptions& o, const ByteSource& src, const std::string& file,
                                        std::optional<Profile> profile) {
  Pass p(o, file);
  dump::EntryWorkers workers(src, std::max(o.threads, 2));
  dump::WorkerItem item;
  std::string pointer;
  while (true) {
    auto more = workers.next(item);
    if (!more) return std::nullopt;
    if (!*more) break;
    if (item.is_entry) {
      CheckedEntry& e = workers.entry<CheckedEntry>();
      ++p.entries;
      p.sink.set_line(e.line);
      if (const CheckedEntry* later = workers.ahead<CheckedEntry>(4)) p.names.prefetch(later->name_hash);
      p.evidence.note(e.signals, e.name, e.line);
      if (!p.names.add(std::move(e.name), e.name_hash)) {
        pointer.assign("/data");
        dump::append_pointer_token(pointer, e.name);
        p.sink.add(FindingKind::duplicate, e.name, pointer, "entry name appears more than once in data", "unique names",
                   e.name);
      }
      for (Finding& f : e.findings) p.sink.add(std::move(f));
      e.findings.clear();
      p.leaves += e.leaves;
      if (e.has_input_args) p.names.forward_inputs = true;
      continue;
    }
    pyjson::DumpEvent& ev = item.event;
    p.sink.set_line(ev.position.line);
    switch (ev.type) {
      case pyjson::DumpEvent::Type::member:
        p.header.push_back(pyjson::Member{ev.key, std::move(ev.value), ev.offset});
        break;
      case pyjson::DumpEvent::Type::data_begin:
        begin_data(p, profile, ev.offset);
        workers.start_visiting(entry_checkers(p.ctx, p.ctx.rules.framework, schema_profile(profile), o.warn_only, file));
        break;
      case pyjson::DumpEvent::Type::entry:  // (entries come as CheckedEntry)
      case pyjson::DumpEvent::Type::data_end: break;
    }
  }
  return p;
}

// One entry at a time, in the order the parser thread reads them (event_pipe.h): the pass for
// golden and tensor checks, and for files the parallel pass gave up on.
Result<Pass> entries_one_by_one(const VerifyOptions& o, const ByteSource& src, const std::string& file,
                                std::optional<Profile> profile, const fs::path& dir, std::optional<Golden>& golden,
                                const GoldenTolerance& gtol, std::optional<TensorChecker>& tensors) {
  Pass p(o, file);
  std::optional<SchemaCheck> schema;
  dump::MatchKeys keys;
  EventPipe stream(src);
  pyjson::DumpEvent ev;
  std::string pointer;  // the entry's, reused
  while (true) {
    bool schema_valid = false, no_duplicates = false;
    auto more = stream.next(ev, &schema_valid, &no_duplicates);
    if (!more) {
      p.sink.set_location(file, 0);  // the message carries the error's own line and column
      p.sink.add(FindingKind::json, "", "", more.error().message);
      break;
    }
    if (!*more) break;
    p.sink.set_line(ev.position.line);
    switch (ev.type) {
      case pyjson::DumpEvent::Type::member:
        p.header.push_back(pyjson::Member{ev.key, std::move(ev.value), ev.offset});
        break;
      case pyjson::DumpEvent::Type::data_begin: {
        begin_data(p, profile, ev.offset);
        auto sc = SchemaCheck::create(p.ctx.rules.framework, schema_profile(profile));
        if (!sc) return sc.error();
        schema = std::move(*sc);
        // The parser thread's own instance, for the entries of this (first) "data" only: a
        // second "data" key would be checked with a schema chosen by then (flags ignored).
        if (p.data_objects == 1) {
          auto mine = SchemaCheck::create(p.ctx.rules.framework, schema_profile(profile));
          if (!mine) return mine.error();
          stream.set_schema(std::make_unique<SchemaCheck>(std::move(*mine)));
        }
        const fs::path tdir = dump::tensor_dir(dir, o.tensors);
        std::error_code ec;
        if (o.check_tensors && fs::is_directory(tdir, ec))
          tensors.emplace(tdir.string(), o.tensors ? *o.tensors : (dir.empty() ? std::string(".") : dir.string()),
                          p.ctx.rules.framework, profile, o.tolerance, o.threads);
        break;
      }
      case pyjson::DumpEvent::Type::entry: {
        ++p.entries;
        pointer.assign("/data");
        dump::append_pointer_token(pointer, ev.key);
        if (!p.names.add(ev.key))
          p.sink.add(FindingKind::duplicate, ev.key, pointer, "entry name appears more than once in data", "unique names",
                     ev.key);
        if (!schema_valid || p.data_objects != 1) schema->check(ev.key, ev.value, p.sink);  // (else the parser thread found it valid)
        EntryTally tally;
        check_entry(ev.key, ev.value, p.ctx, pointer, p.sink, &tally, no_duplicates);
        p.evidence.note(tally.signals, ev.key, ev.position.line);
        if (!tensors) {
          p.leaves += tally.leaves;
        } else if (ev.value.is_object()) {
          for (const auto& section : ev.value.as_object()) {
            std::vector<std::string> path;
            dump::walk_leaves(section.value, path, [&](const Value& leaf, dump::LeafKind kind, const std::vector<std::string>& lp) {
              if (kind != dump::LeafKind::tensor && kind != dump::LeafKind::ndarray) return;
              ++p.leaves;
              if (tensors && tensors->check(leaf, ev.key, dump::leaf_pointer(pointer, section.key, lp), p.sink))
                ++p.tensors_checked;
            });
          }
        }
        if (ev.value.find("input_args") != nullptr) p.names.forward_inputs = true;
        if (golden) golden->compare(ev.key, keys.key(ev.key), ev.value, pointer, gtol, p.sink);
        break;
      }
      case pyjson::DumpEvent::Type::data_end: break;
    }
  }
  return p;
}

}  // namespace

Result<VerifyReport> verify_dump(const VerifyOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  auto dump_path = dump::resolve_dump(o.path);
  if (!dump_path) return dump_path.error();
  const fs::path dir = fs::path(*dump_path).parent_path();
  auto src = FileSource::open(*dump_path);
  if (!src) return src.error();

  VerifyReport report;
  auto& sum = report.summary;
  sum.file = *dump_path;
  sum.bytes = (*src)->size();

  // The golden: an msprobe dump, or a capture converted as this dump was written.
  std::optional<Golden> golden;
  if (o.capture) {
    // (How the dump was written, from its first entries: the whole-file decision comes later.)
    const convert::DumpForm form = convert::detect_form(**src);
    const Profile profile = o.profile ? *o.profile : form.profile.value_or(Profile::current);
    auto g = golden_from_capture(*o.capture, read_dump_settings(**src, profile, form.summary_mode));
    if (!g) return g.error();
    golden = std::move(*g);
  } else if (o.against) {
    auto gp = dump::resolve_dump(*o.against);
    if (!gp) return gp.error();
    auto g = Golden::load(*gp);
    if (!g) return g.error();
    golden = std::move(*g);
  }
  GoldenTolerance gtol;
  if (o.tolerance.rtol) gtol.rtol = *o.tolerance.rtol;
  if (o.tolerance.atol_mean_abs) gtol.atol = *o.tolerance.atol_mean_abs;

  // Entries are checked on several threads unless they are compared with something (a golden,
  // tensor files), which the one-entry-at-a-time pass does.
  std::error_code ec;
  const fs::path tdir = dump::tensor_dir(dir, o.tensors);
  const bool parallel = o.parallel_entries && !golden && !(o.check_tensors && fs::is_directory(tdir, ec));
  std::optional<TensorChecker> tensors;
  auto pass = dump::parallel_else_one_by_one<Pass>(
      parallel, [&] { return entries_in_parallel(o, **src, *dump_path, o.profile); },
      [&] { return entries_one_by_one(o, **src, *dump_path, o.profile, dir, golden, gtol, tensors); });
  if (!pass) return pass.error();
  Pass& p = *pass;
  FindingSink& sink = p.sink;
  sum.task = p.task;
  sum.level = p.level;
  sum.framework = p.ctx.rules.framework;
  sum.entries = p.entries;
  sum.leaves = p.leaves;
  sum.tensors_checked = p.tensors_checked;

  sink.set_location(*dump_path, 0);
  if (!p.in_data && sink.errors() == 0) sink.add(FindingKind::schema, "", "/data", "no \"data\" object", "an object", "");
  check_profile_evidence(p.evidence, o.profile, sink);
  sum.profile = o.profile ? o.profile : p.evidence.verdict();
  if (golden) golden->report_unmatched(sink);
  if (tensors) tensors->report_unreferenced(sink);
  DumpNames& names = p.names;
  if (const fs::path stack = dir / dump::k_stack_json; fs::exists(stack)) check_stack_json(stack.string(), names, sink);
  if (const fs::path construct = dir / dump::k_construct_json; fs::exists(construct))
    check_construct_json(construct.string(), names, sink);

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
