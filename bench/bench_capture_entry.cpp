// msdump_bench_capture_entry: convert's pass 2 per entry, the parsed way against the plain way
// (convert/capture_entry.h), on one thread, over the data events of a capture's first lines.
// The machine is shared: the two ways run interleaved, each round times each once (thread CPU
// time), and the ratio is the median of the per-round ratios.
// Usage: msdump_bench_capture_entry CAPTURE_DIR [lines] [rounds] [plain|parsed]
// (with a way named, only that way runs: for a profiler)

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "convert/capture_entry.h"
#include "dump/dump_writer.h"
#include "trace/event_scan.h"

#include "bench_timing.h"

using namespace msdump;
using bench::thread_cpu_seconds;
using bench::median;
using namespace msdump::convert;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CAPTURE_DIR [lines] [rounds]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const std::size_t max_lines = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 50000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 7;
  const std::string only = argc > 4 ? argv[4] : "";

  std::vector<std::string> lines;
  {
    std::ifstream in(dir + "/trace.jsonl", std::ios::binary);
    std::string line;
    while (lines.size() < max_lines && std::getline(in, line)) lines.push_back(line);
  }
  // Entries in the order their names first appear, with their data events.
  std::vector<std::pair<std::string, std::vector<EventLine>>> entries;
  std::map<std::string, std::size_t, std::less<>> index;
  trace::ScannedEvent ev;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (!trace::scan_event_line(lines[i], ev) || ev.kind != "data") continue;
    auto [it, fresh] = index.emplace(std::string(ev.name), entries.size());
    if (fresh) entries.push_back({std::string(ev.name), {}});
    entries[it->second].second.push_back({lines[i], i + 1});
  }

  LeafContext ctx;
  ctx.source_dir = dir;
  ctx.input_file = dir + "/trace.jsonl";
  const EntryRules rules{DataMode::all(), Profile::current, Framework::pytorch};
  LeafConverter leaves(ctx);
  CaptureEntry entry;
  dump::EntryFormatter fmt;
  std::vector<Problem> problems;
  std::size_t bytes = 0;

  auto run = [&](bool plain) {
    fmt.reset();
    problems.clear();
    const double t0 = thread_cpu_seconds();
    for (const auto& [name, events] : entries) {
      if (plain) {
        auto r = entry.write_plain(name, events, rules, leaves, ctx.input_file, fmt, problems);
        if (!r || !*r) std::abort();
      } else {
        auto r = entry.write_parsed(name, events, rules, leaves, ctx.input_file, fmt, problems);
        if (!r) std::abort();
      }
    }
    auto items = fmt.finish();
    if (!items) std::abort();
    bytes = items->size();
    return thread_cpu_seconds() - t0;
  };
  if (!only.empty()) {
    double t = 0;
    for (int r = 0; r < rounds; ++r) t += run(only == "plain");
    std::printf("%s: %.3f s CPU in %d rounds\n", only.c_str(), t, rounds);
    return 0;
  }
  run(false);
  run(true);
  std::vector<double> parsed, plain, ratio;
  for (int r = 0; r < rounds; ++r) {
    parsed.push_back(run(false));
    plain.push_back(run(true));
    ratio.push_back(parsed.back() / plain.back());
  }
  std::printf("%zu entries, %zu bytes of dump.json, %d rounds\n", entries.size(), bytes, rounds);
  std::printf("parsed: median %.3f s CPU (%.0f entries/s)\n", median(parsed),
              static_cast<double>(entries.size()) / median(parsed));
  std::printf("plain:  median %.3f s CPU (%.0f entries/s)\n", median(plain),
              static_cast<double>(entries.size()) / median(plain));
  std::printf("parsed / plain: median %.2fx\n", median(ratio));
  return 0;
}
