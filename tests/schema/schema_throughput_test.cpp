// Throughput of entry-by-entry validation (docs/performance.md "Schema validation"). Runs only
// with MSDUMP_SCHEMA_BENCH=<MB> in the environment (e.g. 150): all sample dump.json entries are
// replicated into ~<MB> MB of entries (indent=1 text, as msprobe writes it), then each engine
// validates every entry against "#/definitions/entry" as {name: entry}. Reported: MB/s of JSON
// text for parse only, validation only (parse excluded) and parse + validation.
// Times are thread CPU times. MSDUMP_SCHEMA_BENCH_COMPILED_ONLY=1 skips the (slow) valijson run.

#include <doctest/doctest.h>

#include <time.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "schema/schema_choice.h"
#include "schema/schema_validator.h"
#include "schema_test_util.h"

using namespace msdump;
using namespace msdump::schema;
using namespace msdump::schema::testing;

namespace {

// CPU time of this thread: the build machines are shared, so wall time measures the load of
// other processes more than this code.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct EntryText {
  std::string schema;
  std::string text;  // {"<name>": <entry>} written with indent=1
};

}  // namespace

TEST_SUITE("msdump::schema") {
  TEST_CASE("schema validation throughput (MSDUMP_SCHEMA_BENCH=<MB>)") {
    const char* env = std::getenv("MSDUMP_SCHEMA_BENCH");
    if (env == nullptr) return;
    const double target_mb = std::atof(env) > 0 ? std::atof(env) : 150.0;
    std::vector<EntryText> unique;
    for (const SampleFile& f : sample_files()) {
      if (f.path.filename() != "dump.json") continue;
      pyjson::Value doc = parse_file(f.path);
      for (pyjson::Member& m : doc.find("data")->as_object()) {
        pyjson::Value one = pyjson::Value::object();
        one.add(m.key, std::move(m.value));
        auto text = pyjson::to_python_json(one);
        REQUIRE(text);
        unique.push_back(EntryText{f.schema, std::move(*text)});
      }
    }
    REQUIRE_FALSE(unique.empty());
    std::vector<const EntryText*> entries;
    std::size_t bytes = 0;
    while (bytes < target_mb * 1e6) {
      for (const EntryText& e : unique) {
        entries.push_back(&e);
        bytes += e.text.size();
      }
    }
    const double mb = static_cast<double>(bytes) / 1e6;

    double t0 = cpu_seconds();
    std::vector<pyjson::Value> parsed;
    parsed.reserve(entries.size());
    for (const EntryText* e : entries) parsed.push_back(std::move(*pyjson::parse_json(e->text)));
    const double parse_s = cpu_seconds() - t0;

    std::vector<SchemaEngine> engines = {SchemaEngine::compiled, SchemaEngine::reference};
    if (const char* only = std::getenv("MSDUMP_SCHEMA_BENCH_COMPILED_ONLY"); only != nullptr) engines.pop_back();
    for (const SchemaEngine engine : engines) {
      auto current = SchemaValidator::create("dump-pytorch-current", k_entry_pointer, engine);
      auto legacy = SchemaValidator::create("dump-pytorch-legacy", k_entry_pointer, engine);
      REQUIRE(current);
      REQUIRE(legacy);
      // valijson is far slower: time it on a tenth of the entries and scale.
      const std::size_t count = engine == SchemaEngine::compiled ? parsed.size() : parsed.size() / 10;
      double part_mb = 0;
      std::size_t violations = 0;
      std::vector<Violation> out;
      t0 = cpu_seconds();
      for (std::size_t i = 0; i < count; ++i) {
        const SchemaValidator& v = entries[i]->schema == "dump-pytorch-legacy" ? *legacy : *current;
        v.validate_into(parsed[i], "/data", out);
        part_mb += static_cast<double>(entries[i]->text.size()) / 1e6;
      }
      const double validate_s = cpu_seconds() - t0;
      violations += out.size();
      CHECK(violations == 0);
      const double parse_part_s = parse_s * part_mb / mb;
      MESSAGE((engine == SchemaEngine::compiled ? "compiled" : "valijson") << ": " << part_mb << " MB in " << count
              << " entries; parse " << part_mb / parse_part_s << " MB/s; validate " << part_mb / validate_s
              << " MB/s; parse+validate " << part_mb / (parse_part_s + validate_s) << " MB/s");
    }
  }
}
