// msdump_bench_json: lib/pyjson's readers and writer on real msprobe entries. Builds a dump.json
// of about MiB megabytes by replicating, under fresh names, every entry of every dump.json under
// SAMPLES_DIR, then times, in interleaved rounds:
//   - parse_json of the whole document (tree built in fresh memory: page faults included);
//   - DumpJsonStream over the document in memory, and over the file (8 MiB pread window);
//   - JsonWriter writing the whole tree, and writing event by event while streaming (the
//     converter's pattern: one entry in memory, output drained every 8 MiB);
// and checks that every rewrite is byte-identical to the input (exit 1 otherwise). Prints the
// median of the rounds for each.
// Usage: msdump_bench_json SAMPLES_DIR [MiB=200] [rounds=5]   (e.g. testdata/msprobe 200 5)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

#include "bench_timing.h"

using namespace msdump;
using bench::median;
using namespace msdump::pyjson;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "msdump_bench_json: %s\n", what.c_str());
  std::exit(1);
}

std::string build_input(const fs::path& samples, std::size_t target_bytes) {
  std::vector<Member> entries;
  for (const auto& e : fs::recursive_directory_iterator(samples)) {
    if (e.path().filename() != "dump.json") continue;
    auto v = parse_json(slurp(e.path()));
    if (!v) die(e.path().string() + ": " + v.error().message);
    if (const Value* data = v->find("data"); data != nullptr && data->is_object()) {
      for (const Member& m : data->as_object()) entries.push_back(m);
    }
  }
  if (entries.empty()) die("no dump.json entries under " + samples.string());
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.key("task");
  w.value("statistics");
  w.key("level");
  w.value("mix");
  w.key("framework");
  w.value("pytorch");
  w.key("dump_data_dir");
  w.null();
  w.key("data");
  w.begin_object();
  for (std::size_t round = 0; out.size() < target_bytes; ++round) {
    for (const Member& m : entries) {
      w.key(m.key + "." + std::to_string(round));
      w.write(m.value);
    }
    w.flush();
  }
  w.end_object();
  w.end_object();
  if (!w.finish()) die("writing the input failed");
  return out;
}

// Streams `source`; with `rewrite`, writes every event back and returns the bytes' size,
// checking them against `expected` chunk by chunk.
std::size_t stream(const ByteSource& source, bool rewrite, std::string_view expected, double& write_seconds) {
  DumpJsonStream s(source);
  DumpEvent ev;
  std::string out;
  std::size_t done = 0;
  auto drain = [&] {
    if (expected.substr(done, out.size()) != out) die("streamed rewrite differs at byte " + std::to_string(done));
    done += out.size();
    out.clear();
  };
  JsonWriter w(out);
  if (rewrite) w.begin_object();
  write_seconds = 0;
  for (;;) {
    auto more = s.next(ev);
    if (!more) die(more.error().message);
    if (!*more) break;
    if (!rewrite) continue;
    const double t0 = now();
    write_event(w, ev);
    w.flush();
    if (out.size() >= (std::size_t{8} << 20)) drain();
    write_seconds += now() - t0;
  }
  if (rewrite) {
    w.end_object();
    if (!w.finish()) die("streamed rewrite failed");
    drain();
  }
  return done;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: msdump_bench_json SAMPLES_DIR [MiB=200] [rounds=5]");
  const std::size_t mib = argc > 2 ? std::stoul(argv[2]) : 200;
  const int rounds = argc > 3 ? std::stoi(argv[3]) : 5;
  if (mib == 0 || rounds < 1) die("MiB and rounds must be at least 1");
  const std::string text = build_input(argv[1], mib << 20);
  const fs::path file = fs::temp_directory_path() / "msdump_bench_json_input.json";
  std::ofstream(file, std::ios::binary) << text;
  auto file_source = FileSource::open(file.string());
  if (!file_source) die(file_source.error().message);
  const MemorySource memory(as_bytes(text));

  std::vector<double> parse, write_tree, stream_mem, stream_file, write_events;
  for (int r = 0; r < rounds; ++r) {
    {
      double t0 = now();
      auto v = parse_json(text);
      parse.push_back(now() - t0);
      if (!v) die(v.error().message);
      std::string out;
      out.reserve(text.size());
      t0 = now();
      JsonWriter w(out);
      w.write(*v);
      if (!w.finish()) die("write failed");
      write_tree.push_back(now() - t0);
      if (out != text) die("whole-tree rewrite differs");
    }  // the tree is freed outside the timings
    double ignored = 0;
    double t0 = now();
    stream(memory, false, text, ignored);
    stream_mem.push_back(now() - t0);
    double w = 0;
    t0 = now();
    if (stream(**file_source, true, text, w) != text.size()) die("streamed rewrite is short");
    stream_file.push_back(now() - t0 - w);
    write_events.push_back(w);
  }
  fs::remove(file);
  const double mb = static_cast<double>(text.size()) / 1e6;
  std::printf("input: %.1f MB of real msprobe entries, median of %d rounds, all rewrites byte-identical\n", mb, rounds);
  std::printf("read   parse_json (whole document)              %7.0f MB/s\n", mb / median(parse));
  std::printf("read   DumpJsonStream, MemorySource              %7.0f MB/s\n", mb / median(stream_mem));
  std::printf("read   DumpJsonStream, FileSource (8 MiB pread)  %7.0f MB/s\n", mb / median(stream_file));
  std::printf("write  JsonWriter, whole tree                    %7.0f MB/s\n", mb / median(write_tree));
  std::printf("write  JsonWriter, event by event while streaming %6.0f MB/s\n", mb / median(write_events));
  return 0;
}
