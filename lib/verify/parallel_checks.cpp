#include "verify/parallel_checks.h"

#include <memory>

#include "dump/leaf_walk.h"
#include "verify/checked_shapes.h"
#include "verify/cross_file.h"
#include "verify/finding_sink.h"
#include "verify/schema_check.h"

namespace msdump::verify {
namespace {

// One thread's checks.
class EntryChecker final : public dump::EntryVisitorOf<CheckedEntry> {
 public:
  EntryChecker(SchemaCheck schema, std::shared_ptr<const EntryContext> ctx, const std::vector<FindingKind>& warn_only,
               const std::string& file)
      : m_schema(std::move(schema)), m_ctx(std::move(ctx)), m_shapes(m_schema.compiled(), m_ctx), m_sink(warn_only, 0) {
    m_sink.set_location(file, 0);
  }

  // An entry of a shape checked before: its name and its leaves' numbers (checked_shapes.h).
  bool visit_text(CheckedEntry& out, dump::EntryKey& key, std::string_view text) override {
    if (!m_shapes.enabled()) return false;
    m_sink.set_line(key.line);
    set_pointer(key.name);
    const auto settled = m_shapes.check_text(key.name, text, m_pointer, m_sink);
    if (!settled) return false;
    out.name = std::move(key.name);
    out.name_hash = DumpNames::hash_of(out.name);
    out.line = key.line;
    out.leaves = settled->leaves;
    out.signals = settled->signals;
    out.has_input_args = settled->has_input_args;
    take_findings(out);
    return true;
  }

  void visit(CheckedEntry& out, dump::EntryKey&& key, pyjson::Value& v) override {
    out.name = std::move(key.name);
    out.name_hash = DumpNames::hash_of(out.name);
    out.line = key.line;
    m_sink.set_line(key.line);
    set_pointer(out.name);
    // What the one-thread pass runs per entry, in the same order (verify.cpp).
    m_schema.check(out.name, v, m_sink);
    EntryTally tally;
    check_entry(out.name, v, *m_ctx, m_pointer, m_sink, &tally, !key.duplicate_keys);
    out.leaves = tally.leaves;
    out.signals = tally.signals;
    out.has_input_args = v.find("input_args") != nullptr;
    m_shapes.learn(out.name, v, m_sink.findings().empty() && !key.duplicate_keys);
    take_findings(out);
  }

 private:
  void set_pointer(const std::string& name) {
    m_pointer.assign("/data");
    dump::append_pointer_token(m_pointer, name);
  }
  void take_findings(CheckedEntry& out) {
    if (m_sink.findings().empty()) return;
    out.findings = std::move(m_sink.findings());
    m_sink.findings().clear();
  }

  SchemaCheck m_schema;
  std::shared_ptr<const EntryContext> m_ctx;  // (one for all threads)
  CheckedShapes m_shapes;
  FindingSink m_sink;  // collects one entry's findings at a time
  std::string m_pointer;
};

}  // namespace

dump::VisitorFactory entry_checkers(const EntryContext& ctx, Framework framework, Profile schema_profile,
                                    std::vector<FindingKind> warn_only, std::string file) {
  auto shared = std::make_shared<const EntryContext>(ctx);
  return [shared, framework, schema_profile, warn_only = std::move(warn_only),
          file = std::move(file)]() -> std::unique_ptr<dump::EntryVisitor> {
    // (The compiled schema is shared by the process: this costs a lookup, not a compilation.)
    auto schema = SchemaCheck::create(framework, schema_profile);
    if (!schema) return nullptr;
    return std::make_unique<EntryChecker>(std::move(*schema), shared, warn_only, file);
  };
}

}  // namespace msdump::verify
