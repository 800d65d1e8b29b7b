// msdump_bench_schema: throughput of entry-by-entry schema validation. Every entry of every
// dump.json under SAMPLES_DIR (default: testdata/msprobe of the source tree; legacy/ is validated
// with the legacy-profile schema) is rendered as {name: entry} with indent=1, as msprobe writes
// it, and replicated to about MB megabytes; then each engine validates every entry against
// "#/definitions/entry". Reported: MB/s of JSON text for parse only, validation only (parse
// excluded) and parse + validation, in thread CPU time (the machines are shared).
// The reference engine (valijson) is far slower: it runs on a tenth of the entries, scaled. It
// is test-only (tests/schema/reference/): built with it only when valijson is installed
// (MSDUMP_REFERENCE_VALIDATOR); otherwise only the compiled engine runs.
// Usage: msdump_bench_schema [MB] [SAMPLES_DIR] [compiled]   (compiled: skip valijson)

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "schema/schema_choice.h"
#include "schema/schema_validator.h"
#ifdef MSDUMP_HAVE_REFERENCE_VALIDATOR
#include "reference_validator.h"
#endif

#include "bench_timing.h"

using namespace msdump;
using bench::thread_cpu_seconds;
using namespace msdump::schema;
namespace fs = std::filesystem;

namespace {

struct EntryText {
  bool legacy = false;
  std::string text;  // {"<name>": <entry>} written with indent=1
};

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "msdump_bench_schema: %s\n", what.c_str());
  std::exit(1);
}

// Every entry of every dump.json under `root`, one {name: entry} document each.
std::vector<EntryText> sample_entries(const fs::path& root) {
  if (!fs::is_directory(root)) die(root.string() + " is not a directory");
  std::vector<EntryText> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().filename() != "dump.json") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    auto doc = pyjson::parse_json(ss.str());
    if (!doc) die(e.path().string() + ": " + doc.error().message);
    pyjson::Value* data = doc->find("data");
    if (data == nullptr) die(e.path().string() + ": no \"data\"");
    const bool legacy = *e.path().lexically_relative(root).begin() == "legacy";
    for (pyjson::Member& m : data->as_object()) {
      pyjson::Value one = pyjson::Value::object();
      one.add(m.key, std::move(m.value));
      auto text = pyjson::to_python_json(one);
      if (!text) die(text.error().message);
      out.push_back(EntryText{legacy, std::move(*text)});
    }
  }
  if (out.empty()) die("no dump.json entries under " + root.string());
  return out;
}

struct Samples {
  std::vector<const EntryText*> entries;  // the unique entries replicated to about MB megabytes
  std::vector<pyjson::Value> parsed;      // entries[i] parsed
  double mb = 0;                          // JSON text of all entries
  double parse_s = 0;                     // thread CPU time parsing all entries
};

// Validates the first `count` entries with `Validator` (SchemaValidator or ReferenceValidator)
// and prints its throughput as `engine`; returns 1 when a valid entry is reported invalid.
template <class Validator>
int run_engine(const char* engine, const Samples& s, std::size_t count) {
  auto current = Validator::create("dump-pytorch-current", k_entry_pointer);
  auto legacy = Validator::create("dump-pytorch-legacy", k_entry_pointer);
  if (!current || !legacy) die("cannot build the entry validators");
  double part_mb = 0;
  std::vector<Violation> out;
  const double t0 = thread_cpu_seconds();
  for (std::size_t i = 0; i < count; ++i) {
    const Validator& v = s.entries[i]->legacy ? *legacy : *current;
    v.validate_into(s.parsed[i], "/data", out);
    part_mb += static_cast<double>(s.entries[i]->text.size()) / 1e6;
  }
  const double validate_s = thread_cpu_seconds() - t0;
  const double parse_part_s = s.parse_s * part_mb / s.mb;
  std::printf("%s: %.1f MB in %zu entries; parse %.1f MB/s; validate %.1f MB/s; parse+validate %.1f MB/s\n", engine,
              part_mb, count, part_mb / parse_part_s, part_mb / validate_s, part_mb / (parse_part_s + validate_s));
  if (out.empty()) return 0;
  std::fprintf(stderr, "msdump_bench_schema: %zu violations on valid entries\n", out.size());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const double target_mb = argc > 1 && std::atof(argv[1]) > 0 ? std::atof(argv[1]) : 150.0;
  const fs::path root = argc > 2 ? fs::path(argv[2]) : fs::path(MSDUMP_SOURCE_DIR) / "testdata" / "msprobe";
  const bool compiled_only = argc > 3 && std::string(argv[3]) == "compiled";
  const std::vector<EntryText> unique = sample_entries(root);
  Samples s;
  std::size_t bytes = 0;
  while (static_cast<double>(bytes) < target_mb * 1e6) {
    for (const EntryText& e : unique) {
      s.entries.push_back(&e);
      bytes += e.text.size();
    }
  }
  s.mb = static_cast<double>(bytes) / 1e6;

  const double t0 = thread_cpu_seconds();
  s.parsed.reserve(s.entries.size());
  for (const EntryText* e : s.entries) s.parsed.push_back(std::move(*pyjson::parse_json(e->text)));
  s.parse_s = thread_cpu_seconds() - t0;

  int status = run_engine<SchemaValidator>("compiled", s, s.parsed.size());
#ifdef MSDUMP_HAVE_REFERENCE_VALIDATOR
  if (!compiled_only) status |= run_engine<ReferenceValidator>("valijson", s, s.parsed.size() / 10);
#else
  (void)compiled_only;
#endif
  return status;
}
