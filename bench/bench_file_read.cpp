// msdump_bench_file_read: a file read with pread() into a reused window against the same file
// mapped with mmap, on msdump's two real reading paths, in one run:
//   - json:   DumpJsonStream with raw_entries over DUMP_JSON, as verify's reader thread reads it
//             (pread into a 1 MiB window, FileSource) against a fresh read-only mapping of the
//             whole file read in place (MemorySource over the mapping; map and unmap timed);
//   - json parsed: the same two ways with every entry parsed into a Value tree (the pipeline's
//             reader and the converter's pattern);
//   - tensor: compute_leaf_stats of a page-cached float32 file of TENSOR_MIB, 1 thread,
//             FileRead::pread (1 MiB windows) against FileRead::mmap.
// The files are read once before timing (page cache warm, as in the whole-process benchmarks).
// The machine is shared: the two ways of each path run alternated, each round times each once
// (thread CPU time, which counts the kernel's copy and page faults), and the ratio printed is
// the median of the per-round ratios. Exits 1 if a way fails or the two disagree.
// Usage: msdump_bench_file_read DUMP_JSON [rounds=11] [TENSOR_MIB=256]
//   (a DUMP_JSON from scripts/bench_gen_dump.py, e.g. --mb 100)

#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "stats/leaf_stats.h"
#include "tensor/tensor.h"

#include "bench_timing.h"

using namespace msdump;
using bench::thread_cpu_seconds;
using bench::median;
namespace fs = std::filesystem;

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "msdump_bench_file_read: %s\n", what.c_str());
  std::exit(1);
}

// A read-only mapping of a whole file, unmapped on destruction.
class Mapping {
 public:
  explicit Mapping(const FileSource& file) : m_size(file.size()) {
    m_data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, file.fd(), 0);
    if (m_data == MAP_FAILED) die("cannot map " + file.name());
  }
  ~Mapping() { ::munmap(m_data, m_size); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(m_data), m_size}; }

 private:
  void* m_data;
  std::size_t m_size;
};

// Streams the whole dump; returns the number of entries (a check that both ways saw the same).
std::size_t stream_dump(const ByteSource& source, bool raw) {
  pyjson::DumpStreamOptions options;
  options.raw_entries = raw;
  options.buffer_bytes = std::size_t{1} << 20;  // verify's reader window (dump/entry_workers.h)
  options.read.exact_capacity = false;
  pyjson::DumpJsonStream stream(source, options);
  pyjson::DumpEvent ev;
  std::size_t entries = 0;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) die(more.error().message);
    if (!*more) return entries;
    entries += ev.type == pyjson::DumpEvent::Type::entry;
  }
}

// Times `pread_way` and `mmap_way` alternated (the order swapped every round) after one untimed
// round of each; prints the medians and the median per-round ratio pread / mmap.
void compare(const char* what, double megabytes, int rounds, const std::function<double()>& pread_way,
             const std::function<double()>& mmap_way) {
  const double check = pread_way();
  if (mmap_way() != check) die(std::string(what) + ": the two ways disagree");
  std::vector<double> p, m, ratio;
  auto time = [](const std::function<double()>& way) {
    const double t0 = thread_cpu_seconds();
    way();
    return thread_cpu_seconds() - t0;
  };
  for (int r = 0; r < rounds; ++r) {
    double tp = 0, tm = 0;
    if (r % 2 == 0) {
      tp = time(pread_way);
      tm = time(mmap_way);
    } else {
      tm = time(mmap_way);
      tp = time(pread_way);
    }
    p.push_back(tp);
    m.push_back(tm);
    ratio.push_back(tp / tm);
  }
  std::printf("%-34s pread %8.0f MB/s   mmap %8.0f MB/s   mmap speed / pread speed %.2fx\n", what,
              megabytes / median(p), megabytes / median(m), median(ratio));
}

fs::path write_tensor_file(std::size_t bytes) {
  const fs::path path = fs::temp_directory_path() / ("msdump_bench_file_read_" + std::to_string(::getpid()) + ".bin");
  std::vector<float> values(bytes / sizeof(float));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000) * 0.25f - 100.0f;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // fdatasync: writeback must not run during the timed rounds
  const bool ok = fd >= 0 && ::write(fd, values.data(), bytes) == static_cast<ssize_t>(bytes) && ::fdatasync(fd) == 0;
  if (fd >= 0) ::close(fd);
  if (!ok) die("cannot write " + path.string());
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: msdump_bench_file_read DUMP_JSON [rounds=11] [TENSOR_MIB=256]");
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 11;
  const std::size_t tensor_mib = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 256;
  if (rounds < 1 || tensor_mib == 0) die("rounds and TENSOR_MIB must be at least 1");

  auto dump = FileSource::open(argv[1]);
  if (!dump) die(dump.error().message);
  const double dump_mb = static_cast<double>((*dump)->size()) / 1e6;
  for (bool raw : {true, false}) {
    compare(raw ? "json, raw entries (verify's reader)" : "json, entries parsed", dump_mb, rounds,
            [&] { return static_cast<double>(stream_dump(**dump, raw)); },
            [&] {
              const Mapping map(**dump);
              return static_cast<double>(stream_dump(MemorySource(map.bytes(), (*dump)->name()), raw));
            });
  }

  const std::size_t bytes = tensor_mib << 20;
  const fs::path path = write_tensor_file(bytes);
  auto tensor_file = FileSource::open(path.string());
  if (!tensor_file) die(tensor_file.error().message);
  tensor::TensorInfo info;
  info.dtype = DType::float32;
  info.shape = {static_cast<std::int64_t>(bytes / sizeof(float))};
  info.strides = {1};
  info.storage_bytes = bytes;
  stats::ReadBuffer reused;
  auto stats_of = [&](stats::FileRead how) {
    stats::StatsOptions o;
    o.threads = 1;
    o.file_read = how;
    auto s = stats::compute_leaf_stats(**tensor_file, info, o, &reused);
    if (!s) die(s.error().message);
    return s->norm.d;
  };
  compare("tensor statistics (compute_leaf_stats)", static_cast<double>(bytes) / 1e6, rounds,
          [&] { return stats_of(stats::FileRead::pread); }, [&] { return stats_of(stats::FileRead::mmap); });
  fs::remove(path);
  std::printf("thread CPU time, medians of %d alternated rounds; ratios are medians of per-round ratios\n", rounds);
  return 0;
}
