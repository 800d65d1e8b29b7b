// Driving the fused pass over a tensor: from memory or streamed from a ByteSource through a
// reused window, optionally split across threads, then msprobe's rules (leaf_stats.cpp).

#include "stats/leaf_stats.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "stats/crc32.h"
#include "tensor/tensor_reader.h"

namespace msdump::stats {
namespace {

// The pread window of tensors that are not mapped (FileRead::pread, and tensors under
// k_mmap_min_bytes): reused, so it stays in cache (docs/performance.md "mmap vs read").
constexpr std::size_t k_window_bytes = 1u << 20;

// One part of a tensor: the accumulator plus, for MindSpore bf16 md5, the CRC of the widened
// elements.
struct PartSink {
  PartSink(DType dtype, const AccumulatorOptions& a, bool widened_crc, std::uint64_t start)
      : acc(dtype, a, start), widened(widened_crc) {}
  void update(std::span<const std::byte> bytes) {
    acc.update(bytes);
    if (widened) crc = crc32_bf16_as_float32(crc, bytes);
  }
  Accumulator acc;
  bool widened;
  std::uint32_t crc = 0;
};

// Byte ranges of the parts: split at multiples of a whole block of elements so the result does
// not depend on the number of threads.
std::vector<std::pair<std::uint64_t, std::uint64_t>> split(std::uint64_t nbytes, DType dtype, int threads) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> parts;
  const std::uint64_t unit = Accumulator::k_block_elements * itemsize(dtype);
  const std::uint64_t units = (nbytes + unit - 1) / unit;
  const std::uint64_t n = nbytes < k_parallel_bytes || threads <= 1 ? 1 : std::min<std::uint64_t>(threads, units);
  std::uint64_t begin = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t end = k + 1 == n ? nbytes : std::min(nbytes, (units * (k + 1) / n) * unit);
    parts.emplace_back(begin, end);
    begin = end;
  }
  return parts;
}

// Runs fill(part_index, sink) for every part (part 0 on the calling thread) and merges.
template <typename Fill>
Result<Moments> run_parts(DType dtype, std::uint64_t nbytes, const AccumulatorOptions& a, bool widened, int threads,
                          Fill fill) {
  if (nbytes < k_parallel_bytes || threads <= 1) {
    // One part (every small tensor): no vectors, no threads.
    PartSink sink(dtype, a, widened, 0);
    MSDUMP_TRY(fill(0, nbytes, sink, 0));
    Moments m = sink.acc.take_moments();
    if (widened) m.crc32 = sink.crc;
    return m;
  }
  const auto parts = split(nbytes, dtype, threads);
  std::vector<PartSink> sinks;
  sinks.reserve(parts.size());
  for (const auto& [begin, end] : parts) sinks.emplace_back(dtype, a, widened, begin);
  std::vector<Result<void>> results(parts.size());
  {
    std::vector<std::jthread> workers;
    for (std::size_t k = 1; k < parts.size(); ++k)
      workers.emplace_back([&, k] { results[k] = fill(parts[k].first, parts[k].second, sinks[k], k); });
    results[0] = fill(parts[0].first, parts[0].second, sinks[0], 0);
  }
  for (const auto& r : results) MSDUMP_TRY(r);
  PartSink& first = sinks[0];
  for (std::size_t k = 1; k < sinks.size(); ++k) {
    MSDUMP_TRY(first.acc.merge(sinks[k].acc));
    if (widened) first.crc = crc32_combine(first.crc, sinks[k].crc, 2 * (parts[k].second - parts[k].first));
  }
  Moments m = first.acc.moments();
  if (widened) m.crc32 = first.crc;
  return m;
}

}  // namespace

std::span<std::byte> ReadBuffer::get(std::size_t wanted) {
  const std::size_t size = std::min(wanted, k_window_bytes);
  if (m_bytes.size() < size) m_bytes.resize(size);  // value-initialised: pages touched now
  return std::span(m_bytes).first(size);
}

LeafStats compute_leaf_stats(tensor::TensorView view, const StatsOptions& options, Moments* moments_out) {
  auto a = leaf_accumulator_options(view.dtype, view.shape, options);
  a.abs_sum = moments_out != nullptr;  // only tolerances use sum |x|
  const bool widened = crc_of_widened_bfloat16(view.dtype, options);
  if (!widened && (view.data.size() < k_parallel_bytes || options.threads <= 1)) {
    // One part: the one-shot helper (which has a fast path for tensors of less than a block).
    const Moments m = compute_moments(view.dtype, view.data, a);
    if (moments_out != nullptr) *moments_out = m;
    return leaf_stats_from_moments(m, view.shape, options);
  }
  auto m = run_parts(view.dtype, view.data.size(), a, widened, options.threads,
                     [&](std::uint64_t begin, std::uint64_t end, PartSink& sink, std::size_t) -> Result<void> {
                       sink.update(view.data.subspan(begin, end - begin));
                       return {};
                     });
  if (moments_out != nullptr) *moments_out = *m;
  return leaf_stats_from_moments(*m, view.shape, options);  // memory parts cannot fail
}

Result<LeafStats> compute_leaf_stats(const ByteSource& source, const tensor::TensorInfo& info,
                                     const StatsOptions& options, ReadBuffer* buffer, Moments* moments_out) {
  if (!info.is_contiguous() || info.big_endian) {
    // strided views (a configured slice) and big-endian .npy: gather/swap into a native copy
    auto tensor = tensor::load_tensor(source, info);
    if (!tensor) return tensor.error();
    return compute_leaf_stats(tensor->view(), options, moments_out);
  }
  const std::uint64_t first = info.first_byte();
  const std::uint64_t nbytes = info.nbytes();
  if (first > source.size() || nbytes > source.size() - first) {
    return invalid_input(source.name() + ": tensor bytes [" + std::to_string(first) + ", " +
                         std::to_string(first + nbytes) + ") lie beyond the end of the data (" +
                         std::to_string(source.size()) + " bytes)");
  }
  if (const auto memory = source.memory(); !memory.empty()) {
    const tensor::TensorView view{info.dtype, info.shape, memory.subspan(first, nbytes)};
    return compute_leaf_stats(view, options, moments_out);
  }
  if (const auto* file = dynamic_cast<const FileSource*>(&source);
      file != nullptr && nbytes > 0 &&
      (options.file_read == FileRead::mmap ||
       (options.file_read == FileRead::automatic && nbytes >= k_mmap_min_bytes))) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = first / page * page;
    const std::size_t length = first + nbytes - start;
    void* map = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, file->fd(), static_cast<off_t>(start));
    if (map == MAP_FAILED) return io_error("mapping '" + source.name() + "': " + std::strerror(errno));
    const std::span<const std::byte> mapped(static_cast<const std::byte*>(map), length);
    const tensor::TensorView view{info.dtype, info.shape, mapped.subspan(first - start, nbytes)};
    auto stats = compute_leaf_stats(view, options, moments_out);
    ::munmap(map, length);
    return stats;
  }
  auto a = leaf_accumulator_options(info.dtype, info.shape, options);
  a.abs_sum = moments_out != nullptr;
  const bool widened = crc_of_widened_bfloat16(info.dtype, options);
  ReadBuffer own;
  ReadBuffer* first_buffer = buffer != nullptr ? buffer : &own;
  auto m = run_parts(info.dtype, nbytes, a, widened, options.threads,
                     [&](std::uint64_t begin, std::uint64_t end, PartSink& sink, std::size_t k) -> Result<void> {
                       ReadBuffer local;
                       const auto window = (k == 0 ? first_buffer : &local)->get(end - begin);
                       for (std::uint64_t at = begin; at < end;) {
                         const auto chunk = window.first(std::min<std::uint64_t>(window.size(), end - at));
                         MSDUMP_TRY(source.read_at(first + at, chunk));
                         sink.update(chunk);
                         at += chunk.size();
                       }
                       return {};
                     });
  if (!m) return m.error();
  if (moments_out != nullptr) *moments_out = *m;
  return leaf_stats_from_moments(*m, info.shape, options);
}

}  // namespace msdump::stats
