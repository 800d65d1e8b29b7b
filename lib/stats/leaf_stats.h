#pragma once
// msprobe's statistics rules (docs/format.md §6): what a tensor leaf of dump.json holds in
// Max/Min/Mean/Norm and md5 for a given framework, format profile, summary mode and precision,
// computed from the tensor's bytes in one fused pass (stats/accumulator.h).
//
// Rounding: Mean = S1/n and Norm = sqrt(S2) are computed from exactly summed doubles and
// rounded once to the statistic's dtype (the tensor's own dtype for float16/bfloat16/float32
// in low precision, float32 where msprobe casts with `.float()`), then kept as that double.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/byte_source.h"
#include "core/dtype.h"
#include "core/profile.h"
#include "core/result.h"
#include "core/scalar.h"
#include "stats/accumulator.h"
#include "tensor/tensor.h"

namespace msdump::stats {

// How compute_leaf_stats reads a tensor from a file (FileSource): pread() into reused windows,
// or one read-only mmap of the tensor's range. The engine is fast enough that the kernel's copy
// is a large share of its time, and mmap avoids it (the JSON readers, which touch each byte
// once, pread instead: docs/performance.md "mmap vs read"), so `automatic` (the default) maps
// tensors of k_mmap_min_bytes and more and preads the smaller ones, for which a fresh mapping's
// faults and unmapping cost as much as the copy or more (docs/performance.md "mmap vs read"). Caveat of mmap: a file truncated while it
// is mapped kills the process with SIGBUS instead of failing the read (dumps being verified are
// finished files; pass FileRead::pread where that matters).
enum class FileRead { automatic, pread, mmap };
inline constexpr std::uint64_t k_mmap_min_bytes = std::uint64_t{16} << 20;

struct StatsOptions {
  Framework framework = Framework::pytorch;
  Profile profile = Profile::current;
  SummaryMode summary_mode = SummaryMode::statistics;
  Precision precision = Precision::low;
  // The dtype the dump reports, when it differs from the stored one: a MindSpore bfloat16
  // tensor is saved as float32 .npy, but its statistics were computed (and must be rounded) as
  // bfloat16; float8 tensors are saved as float32 the same way.
  std::optional<DType> reported_dtype;
  // Tensors larger than k_parallel_bytes are split across this many threads.
  int threads = 1;
  FileRead file_read = FileRead::automatic;
};

// Tensors at least this large are split across StatsOptions::threads threads.
inline constexpr std::uint64_t k_parallel_bytes = 8ull << 20;

// One tensor leaf's statistics as msprobe writes them.
struct LeafStats {
  // false in xor summary mode: the leaf has no Max/Min/Mean/Norm keys at all (only md5).
  bool has_value_stats = true;
  Scalar max;   // null, boolean, integer, unsigned_integer or floating (docs/format.md §6)
  Scalar min;
  Scalar mean;
  Scalar norm;
  // The "md5" key: absent (statistics mode), a "%08x" CRC-32 string (md5 mode), a "0x%016x"
  // string, a floating number (0-dim float tensor) or null (empty tensor) in xor mode.
  std::optional<Scalar> md5;
};

// Applies the rules to the accumulated moments. `moments` must have been accumulated with
// leaf_accumulator_options(); `shape` is the (sliced) tensor's shape ([] for 0-dim).
LeafStats leaf_stats_from_moments(const Moments& moments, std::span<const std::int64_t> shape,
                                  const StatsOptions& options);

// What the accumulator must compute for these options, this stored dtype and shape.
AccumulatorOptions leaf_accumulator_options(DType stored, std::span<const std::int64_t> shape,
                                            const StatsOptions& options);

// True when md5 mode needs the CRC of the bfloat16 elements widened to float32 (MindSpore and
// mindtorch hash asnumpy() bytes after converting bfloat16 to float32) rather than of the
// stored bytes; the accumulator then skips its CRC and crc32_bf16_as_float32 supplies it.
bool crc_of_widened_bfloat16(DType stored, const StatsOptions& options);

// Continues a CRC-32 over bfloat16 elements as if each had been converted to float32 first.
std::uint32_t crc32_bf16_as_float32(std::uint32_t crc, std::span<const std::byte> bf16_bytes);

// Statistics of a tensor held in memory (C-contiguous, native endian). The element count is
// taken from view.data (a trailing partial element is ignored).
// With `moments_out` the accumulated moments are returned too (the verifier's tolerances need
// the element count and mean |x|).
LeafStats compute_leaf_stats(tensor::TensorView view, const StatsOptions& options, Moments* moments_out = nullptr);

// A reusable read buffer for streaming tensors from files; keeping one across calls avoids
// paying page faults for a fresh buffer per tensor.
class ReadBuffer {
 public:
  // A buffer of min(wanted, 1 MiB) bytes, touched so later reads do not fault.
  std::span<std::byte> get(std::size_t wanted);

 private:
  std::vector<std::byte> m_bytes;
};

// Statistics of the tensor `info` describes inside `source`. Reads the elements in 1 MiB
// windows through a reused buffer (or straight from source.memory() when the source is in
// memory, or mapped with FileRead::mmap), splitting large tensors across options.threads
// threads. Non-contiguous views and big-endian data are first gathered into a native copy
// (tensor::load_tensor).
// Fails when the tensor's bytes lie beyond the end of the source (invalid_input), on read
// errors (io), and as tensor::load_tensor for views.
Result<LeafStats> compute_leaf_stats(const ByteSource& source, const tensor::TensorInfo& info,
                                     const StatsOptions& options, ReadBuffer* buffer = nullptr,
                                     Moments* moments_out = nullptr);

// The dtype Mean and Norm are rounded to for a tensor reported as `reported`: its own dtype
// for float16/bfloat16/float32 (low precision), float32 where msprobe casts with `.float()`
// (legacy PyTorch and MindSpore integers, float64, float8, precision high), float32/float64
// for the |z| of complex64/complex128, float64 for PyTorch current float64.
DType statistic_dtype(DType reported, const StatsOptions& options);

}  // namespace msdump::stats
