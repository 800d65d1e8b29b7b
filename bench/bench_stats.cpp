// msdump_bench_stats: the statistics engine against the machine's own ceilings, in one run.
//   (a) single-thread memory read bandwidth: a plain float summing loop with 64 accumulators;
//   (b) the engine (Max/Min/Mean/Norm in one pass) on in-memory tensors, 1 and 2 threads:
//       256 MiB float32, 128 Mi-element bfloat16 and float16 (also 256 MiB); float32 also with
//       the CRC-32 (md5 mode) and with the sums of |x| the verifier's tolerances use;
//   (c) a page-cached 256 MiB file: plain read() into a reused 1 MiB buffer, the engine
//       streaming the file (pread into a reused buffer), and the engine over an mmap.
// The machine is shared, so the contenders of each comparison run interleaved (one round times
// each of them once) and every ratio is the median of the per-round ratios; throughputs are
// medians over the rounds, after one warm-up round, in GB/s of tensor bytes.
// Usage: msdump_bench_stats [rounds] [temp dir]

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "stats/leaf_stats.h"

#include "bench_timing.h"

using namespace msdump;
using bench::median;

namespace {

constexpr std::size_t k_bytes = 256u << 20;

double seconds(const std::function<void()>& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Times every contender once per round, `rounds` rounds after a warm-up round; returns the
// seconds of each contender per round.
std::vector<std::vector<double>> interleaved(int rounds, const std::vector<std::function<void()>>& contenders) {
  for (const auto& fn : contenders) fn();
  std::vector<std::vector<double>> t(contenders.size());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t c = 0; c < contenders.size(); ++c) t[c].push_back(seconds(contenders[c]));
  return t;
}

// Median over the rounds of baseline time / contender time (= contender speed / baseline speed).
double median_ratio(const std::vector<double>& baseline, const std::vector<double>& contender) {
  std::vector<double> r;
  for (std::size_t k = 0; k < baseline.size(); ++k) r.push_back(baseline[k] / contender[k]);
  return median(r);
}

double gbps(std::size_t bytes, double seconds) { return static_cast<double>(bytes) / seconds / 1e9; }

// Keeps results alive so the compiler cannot drop the work.
volatile double g_sink = 0.0;

// A plain float sum with 64 independent accumulators (not add-latency bound; the compiler
// vectorises the inner loop). Reads every byte once: the single-thread read bandwidth.
// n must be a multiple of 64.
[[gnu::noinline]] double plain_sum(const float* p, std::size_t n) {
  float acc[64] = {};
  for (std::size_t i = 0; i < n; i += 64)
    for (std::size_t k = 0; k < 64; ++k) acc[k] += p[i + k];
  float total = 0.0f;
  for (float a : acc) total += a;
  return total;
}

std::vector<std::byte> make_tensor(DType dtype, std::uint64_t seed) {
  std::vector<std::byte> bytes(k_bytes);  // value-initialised: every page touched
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  const std::size_t n = k_bytes / itemsize(dtype);
  for (std::size_t i = 0; i < n; ++i) {
    const float v = normal(rng);
    if (dtype == DType::float32) {
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    } else if (dtype == DType::bfloat16) {
      const auto b = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16);
      std::memcpy(bytes.data() + 2 * i, &b, 2);
    } else {  // float16 via the bit pattern of a value in [-4, 4]
      const auto h = static_cast<std::uint16_t>((std::bit_cast<std::uint32_t>(v) >> 16 & 0x8000u) |
                                                (0x3c00u + (static_cast<std::uint32_t>(rng()) & 0x7ffu)));
      std::memcpy(bytes.data() + 2 * i, &h, 2);
    }
  }
  return bytes;
}

double engine(std::span<const std::byte> bytes, DType dtype, int threads) {
  const std::int64_t shape[] = {static_cast<std::int64_t>(bytes.size() / itemsize(dtype))};
  stats::StatsOptions o;
  o.threads = threads;
  const auto s = stats::compute_leaf_stats(tensor::TensorView{dtype, shape, bytes}, o);
  return s.norm.d;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 11;
  const std::string tmp_dir = argc > 2 ? argv[2] : "/tmp";
  std::printf("msdump_bench_stats: 256 MiB tensors, %d interleaved rounds after a warm-up round, medians\n\n",
              rounds);

  const auto f32 = make_tensor(DType::float32, 1);
  const auto bf16 = make_tensor(DType::bfloat16, 2);
  const auto f16 = make_tensor(DType::float16, 3);
  const auto* fp = reinterpret_cast<const float*>(f32.data());

  // (a) read bandwidth and (b) the engine in memory
  struct Case {
    const char* name;
    DType dtype;
    const std::vector<std::byte>* data;
    int threads;
    double target;  // ratio to (a) required single-threaded; 0: none
  };
  const Case cases[] = {{"float32 (64 Mi elements), 1 thread", DType::float32, &f32, 1, 0.8},
                        {"float32, 2 threads", DType::float32, &f32, 2, 0},
                        {"bfloat16 (128 Mi elements), 1 thread", DType::bfloat16, &bf16, 1, 0.6},
                        {"bfloat16, 2 threads", DType::bfloat16, &bf16, 2, 0},
                        {"float16 (128 Mi elements), 1 thread", DType::float16, &f16, 1, 0.6},
                        {"float16, 2 threads", DType::float16, &f16, 2, 0}};
  std::vector<std::function<void()>> contenders{[&] { g_sink = plain_sum(fp, k_bytes / 4); }};
  for (const auto& c : cases) contenders.push_back([&c] { g_sink = engine(*c.data, c.dtype, c.threads); });
  contenders.push_back([&] {  // md5 summary mode: the CRC-32 of the bytes as well
    const std::int64_t shape[] = {static_cast<std::int64_t>(k_bytes / 4)};
    stats::StatsOptions o;
    o.summary_mode = SummaryMode::md5;
    g_sink = stats::compute_leaf_stats(tensor::TensorView{DType::float32, shape, f32}, o).norm.d;
  });
  contenders.push_back([&] {  // the verifier's path: moments with sum |x| for the tolerances
    const std::int64_t shape[] = {static_cast<std::int64_t>(k_bytes / 4)};
    stats::Moments m;
    g_sink = stats::compute_leaf_stats(tensor::TensorView{DType::float32, shape, f32}, stats::StatsOptions{}, &m).norm.d;
  });
  const auto mem = interleaved(rounds, contenders);
  const double read_bw = gbps(k_bytes, median(mem[0]));
  std::printf("%-62s %6.2f GB/s\n", "(a) plain float sum, 64 accumulators, 1 thread", read_bw);
  for (std::size_t k = 0; k < std::size(cases); ++k) {
    const auto& c = cases[k];
    const double ratio = median_ratio(mem[0], mem[k + 1]);
    std::printf("%-62s %6.2f GB/s  %5.2fx of (a)", (std::string("(b) engine in memory, ") + c.name).c_str(),
                gbps(k_bytes, median(mem[k + 1])), ratio);
    if (c.target > 0) std::printf("  target >= %.1fx: %s", c.target, ratio >= c.target ? "met" : "MISSED");
    std::printf("\n");
  }
  const std::size_t md5 = std::size(cases) + 1, with_abs = md5 + 1;
  std::printf("%-62s %6.2f GB/s  %5.2fx of (a)\n", "(b) engine in memory + CRC-32 (md5 mode), float32, 1 thread",
              gbps(k_bytes, median(mem[md5])), median_ratio(mem[0], mem[md5]));
  std::printf("%-62s %6.2f GB/s  %5.2fx of (a)\n", "(b) engine in memory + sum |x| (verify), float32, 1 thread",
              gbps(k_bytes, median(mem[with_abs])), median_ratio(mem[0], mem[with_abs]));

  // (c) a page-cached file
  const std::string path = tmp_dir + "/msdump_bench_stats.bin";
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    // fdatasync: writeback must not run during the timed rounds
    if (fd < 0 || ::write(fd, f32.data(), k_bytes) != static_cast<ssize_t>(k_bytes) || ::fdatasync(fd) != 0) {
      std::perror(path.c_str());
      return 1;
    }
    ::close(fd);
  }
  std::vector<std::byte> buffer(1u << 20);  // value-initialised: touched
  const int fd = ::open(path.c_str(), O_RDONLY);
  auto source = FileSource::open(path);
  if (fd < 0 || !source) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    return 1;
  }
  tensor::TensorInfo info;
  info.dtype = DType::float32;
  info.shape = {static_cast<std::int64_t>(k_bytes / 4)};
  info.strides = {1};
  info.storage_bytes = k_bytes;
  stats::ReadBuffer reused;
  auto stream = [&](int threads, stats::FileRead how) {
    stats::StatsOptions o;
    o.threads = threads;
    o.file_read = how;
    auto s = stats::compute_leaf_stats(**source, info, o, &reused);
    g_sink = s ? s->norm.d : 0.0;
  };
  const auto file = interleaved(rounds, {
                                            [&] {  // the warm-up round also brings the file into the page cache
                                              ::lseek(fd, 0, SEEK_SET);
                                              std::size_t total = 0;
                                              for (ssize_t got; (got = ::read(fd, buffer.data(), buffer.size())) > 0;)
                                                total += static_cast<std::size_t>(got);
                                              g_sink = static_cast<double>(total);
                                            },
                                            [&] { stream(1, stats::FileRead::pread); },
                                            [&] { stream(2, stats::FileRead::pread); },
                                            [&] { stream(1, stats::FileRead::mmap); },
                                            [&] { stream(2, stats::FileRead::mmap); },
                                        });
  // msdump reads tensors of 16 MiB and more through mmap (FileRead::automatic), smaller ones with
  // pread: the target applies to the path msdump takes for this file.
  const char* names[] = {"(c) plain read() into a reused 1 MiB buffer",
                         "(c) engine streaming the file (pread: < 16 MiB), 1 thread",
                         "(c) engine streaming the file (pread: < 16 MiB), 2 threads",
                         "(c) engine over an mmap (msdump's path), 1 thread",
                         "(c) engine over an mmap (msdump's path), 2 threads"};
  for (std::size_t k = 0; k < file.size(); ++k) {
    std::printf("%-62s %6.2f GB/s", names[k], gbps(k_bytes, median(file[k])));
    if (k > 0) std::printf("  %5.2fx of read()", median_ratio(file[0], file[k]));
    if (k == 3) std::printf("  target >= 0.8x: %s", median_ratio(file[0], file[k]) >= 0.8 ? "met" : "MISSED");
    std::printf("\n");
  }
  ::close(fd);
  ::unlink(path.c_str());
  return 0;
}
