// msdump_bench_verify_phases: the work `msdump verify --no-tensors` does per entry, on one thread
// and phase by phase: parsing (DumpJsonStream, with the duplicate-key test of the entry workers),
// the schema's yes/no test (SchemaCheck::is_valid), the entry checks (check_entry) and freeing
// the trees. Entries are processed 4000 at a time; prints the median of ROUNDS for each phase.
// On a shared VM the phases' shares are steadier than whole-process times; under callgrind (a
// build without AVX-512, which valgrind cannot run) the instruction counts of each phase are
// exact (docs/performance.md "Measuring on a shared 2-core VM").
// Usage: msdump_bench_verify_phases DUMP_JSON [ROUNDS=3]
//   (a DUMP_JSON from scripts/bench_gen_dump.py, e.g. --mb 100)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "verify/entry_checks.h"
#include "verify/finding_sink.h"
#include "verify/schema_check.h"

#include "bench_timing.h"

using namespace msdump;
using bench::median;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Phases {
  double parse = 0, schema = 0, check = 0, free = 0;
};

Phases run(const ByteSource& source, const verify::SchemaCheck& schema, std::size_t& valid, std::size_t& findings) {
  pyjson::DumpStreamOptions options;
  options.read.note_duplicate_keys = true;  // as EventPipe reads
  options.read.exact_capacity = false;
  pyjson::DumpJsonStream stream(source, options);
  std::vector<pyjson::DumpEvent> events(4000);
  verify::EntryContext ctx;
  ctx.level_known = true;
  ctx.task = "statistics";
  verify::FindingSink sink({}, 1000);
  pyjson::Value wrapper;
  std::string pointer;
  Phases t;
  valid = 0;
  for (bool more = true; more;) {
    std::size_t n = 0;
    auto start = Clock::now();
    for (; n < events.size(); ++n) {
      auto next = stream.next(events[n]);
      if (!next || !*next) {
        more = false;
        break;
      }
    }
    t.parse += seconds_since(start);
    start = Clock::now();
    for (std::size_t i = 0; i < n; ++i)
      if (events[i].type == pyjson::DumpEvent::Type::entry) valid += schema.is_valid(events[i].key, events[i].value, wrapper);
    t.schema += seconds_since(start);
    start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) {
      if (events[i].type != pyjson::DumpEvent::Type::entry) continue;
      pointer = "/data/" + events[i].key;
      verify::check_entry(events[i].key, events[i].value, ctx, pointer, sink, nullptr, !events[i].duplicate_keys);
    }
    t.check += seconds_since(start);
    start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) events[i] = pyjson::DumpEvent{};
    t.free += seconds_since(start);
  }
  findings = sink.findings().size();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DUMP_JSON [ROUNDS]\n", argv[0]);
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (rounds < 1) {
    std::fprintf(stderr, "ROUNDS must be at least 1\n");
    return 2;
  }
  auto source = FileSource::open(argv[1]);
  if (!source) {
    std::fprintf(stderr, "%s\n", source.error().message.c_str());
    return 1;
  }
  auto schema = verify::SchemaCheck::create(Framework::pytorch, Profile::current);
  if (!schema) {
    std::fprintf(stderr, "%s\n", schema.error().message.c_str());
    return 1;
  }
  std::vector<double> parse, schema_s, check, free_s;
  std::size_t valid = 0, findings = 0;
  for (int r = 0; r < rounds; ++r) {
    const Phases t = run(**source, *schema, valid, findings);
    parse.push_back(t.parse);
    schema_s.push_back(t.schema);
    check.push_back(t.check);
    free_s.push_back(t.free);
  }
  const Phases med{median(parse), median(schema_s), median(check), median(free_s)};
  std::printf("entries valid %zu, findings %zu\n", valid, findings);
  std::printf("medians of %d rounds: parse %.3f s, schema %.3f s, checks %.3f s, free %.3f s, total %.3f s\n", rounds, med.parse, med.schema,
              med.check, med.free, med.parse + med.schema + med.check + med.free);
  return 0;
}
