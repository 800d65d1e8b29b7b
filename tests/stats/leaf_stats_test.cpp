#include "stats/leaf_stats.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "stats_test_util.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::stats;

namespace {

// A source that is not in memory (so readers must use read_at) and fails reads past `fail_at`.
class FlakySource final : public ByteSource {
 public:
  FlakySource(std::span<const std::byte> bytes, std::uint64_t fail_at) : m_bytes(bytes), m_fail_at(fail_at) {}
  std::uint64_t size() const override { return m_bytes.size(); }
  const std::string& name() const override { return m_name; }
  Result<void> read_at(std::uint64_t offset, std::span<std::byte> out) const override {
    if (offset + out.size() > m_fail_at) return io_error("flaky.bin: read failed at byte " + std::to_string(offset));
    std::memcpy(out.data(), m_bytes.data() + offset, out.size());
    return {};
  }

 private:
  std::span<const std::byte> m_bytes;
  std::uint64_t m_fail_at;
  std::string m_name = "flaky.bin";
};

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();

template <typename T>
LeafStats stats_of(const std::vector<T>& values, DType dtype, const StatsOptions& o,
                   std::vector<std::int64_t> shape = {-1}) {
  if (shape.size() == 1 && shape[0] == -1) shape[0] = static_cast<std::int64_t>(values.size());
  const tensor::TensorView view{dtype, shape, std::as_bytes(std::span(values))};
  return compute_leaf_stats(view, o);
}

std::vector<std::uint16_t> bf16(std::initializer_list<float> values) {
  std::vector<std::uint16_t> out;
  for (float v : values) out.push_back(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16));
  return out;
}

StatsOptions opts(Framework f = Framework::pytorch, Profile p = Profile::current, SummaryMode s = SummaryMode::statistics,
                  Precision pr = Precision::low) {
  StatsOptions o;
  o.framework = f;
  o.profile = p;
  o.summary_mode = s;
  o.precision = pr;
  return o;
}

void check_float(const Scalar& s, double expected) {
  REQUIRE(s.kind == Scalar::Kind::floating);
  CHECK(stats::testing::same_double(s.d, expected));
}

void check_int(const Scalar& s, std::int64_t expected) {
  REQUIRE(s.kind == Scalar::Kind::integer);
  CHECK(s.i == expected);
}

void check_all_null(const LeafStats& s) {
  CHECK(s.max.is_null());
  CHECK(s.min.is_null());
  CHECK(s.mean.is_null());
  CHECK(s.norm.is_null());
}

}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("Appendix A relu values") {
    const auto o = opts(Framework::pytorch, Profile::current, SummaryMode::md5);
    auto s = stats_of(std::vector<float>{-1.5f, 0.25f, 2.0f}, DType::float32, o);
    CHECK(s.has_value_stats);
    check_float(s.max, 2.0);
    check_float(s.min, -1.5);
    check_float(s.mean, 0.25);
    check_float(s.norm, 2.5124688148498535);
    REQUIRE(s.md5);
    CHECK(s.md5->s == "e2ca942d");
    s = stats_of(std::vector<float>{0.0f, 0.25f, 2.0f}, DType::float32, o);
    check_float(s.max, 2.0);
    check_float(s.min, 0.0);
    check_float(s.mean, 0.75);
    check_float(s.norm, 2.015564441680908);
    CHECK(s.md5->s == "0da895c0");
    s = stats_of(std::vector<float>{1.0f, 1.0f, 1.0f}, DType::float32, o);
    check_float(s.mean, 1.0);
    check_float(s.norm, 1.7320507764816284);
    CHECK(s.md5->s == "dc7c4e94");
    s = stats_of(std::vector<float>{0.0f, 1.0f, 1.0f}, DType::float32, o);
    check_float(s.max, 1.0);
    check_float(s.min, 0.0);
    check_float(s.mean, 0.6666666865348816);
    check_float(s.norm, 1.4142135381698608);
    CHECK(s.md5->s == "cbf14896");
  }

  TEST_CASE("bf16 mean and norm are rounded once to bf16") {
    const auto s = stats_of(bf16({1.0f, 1.0078125f, 1.0078125f}), DType::bfloat16, opts());
    check_float(s.max, 1.0078125);
    check_float(s.min, 1.0);
    check_float(s.mean, 1.0078125);  // 1.00521 is nearer 1 + 2^-7 than 1
    check_float(s.norm, 1.7421875);  // sqrt(3.03137) = 1.74108 -> bf16 spacing 2^-7
    const auto t = stats_of(bf16({1.0f, 2.0f, 3.0f}), DType::bfloat16, opts());
    check_float(t.mean, 2.0);
    check_float(t.norm, 3.734375);  // sqrt(14) = 3.7417 -> bf16 spacing 2^-6
  }

  TEST_CASE("float16 norm that overflows the dtype is inf") {
    const auto s = stats_of(std::vector<std::uint16_t>{0x7bff, 0x7bff}, DType::float16, opts());  // 65504
    check_float(s.max, 65504.0);
    check_float(s.mean, 65504.0);
    check_float(s.norm, k_inf);
  }

  TEST_CASE("0-dim int tensor yields four integers with signed norm") {
    const auto s = stats_of(std::vector<std::int64_t>{-7}, DType::int64, opts(), {});
    check_int(s.max, -7);
    check_int(s.min, -7);
    check_int(s.mean, -7);
    check_int(s.norm, -7);
    const auto legacy = stats_of(std::vector<std::int32_t>{-7}, DType::int32, opts(Framework::pytorch, Profile::legacy), {});
    check_int(legacy.norm, -7);
    const auto ms = stats_of(std::vector<std::int32_t>{-7}, DType::int32, opts(Framework::mindspore), {});
    check_int(ms.norm, -7);
  }

  TEST_CASE("0-dim float tensor yields its value four times, norm signed") {
    const auto s = stats_of(bf16({-2.5f}), DType::bfloat16, opts(), {});
    check_float(s.max, -2.5);
    check_float(s.mean, -2.5);
    check_float(s.norm, -2.5);
    const auto high = stats_of(std::vector<float>{-0.0f}, DType::float32,
                               opts(Framework::pytorch, Profile::current, SummaryMode::statistics, Precision::high), {});
    check_float(high.mean, -0.0);
    check_float(high.norm, -0.0);
  }

  TEST_CASE("current pytorch integer and float64 tensors have native max/min and null mean/norm") {
    auto s = stats_of(std::vector<std::int64_t>{967, 19, 500}, DType::int64, opts());
    check_int(s.max, 967);
    check_int(s.min, 19);
    CHECK(s.mean.is_null());
    CHECK(s.norm.is_null());
    s = stats_of(std::vector<double>{0.1, -3.0}, DType::float64, opts());
    check_float(s.max, 0.1);
    check_float(s.min, -3.0);
    CHECK(s.mean.is_null());
    s = stats_of(std::vector<std::uint64_t>{~std::uint64_t{0}, 1}, DType::uint64, opts());
    REQUIRE(s.max.kind == Scalar::Kind::unsigned_integer);
    CHECK(s.max.u == ~std::uint64_t{0});
    check_int(s.min, 1);
    s = stats_of(std::vector<std::uint8_t>{200, 3}, DType::uint8, opts());
    check_int(s.max, 200);
  }

  TEST_CASE("current pytorch precision high nulls mean and norm of non-scalar tensors") {
    const auto s = stats_of(std::vector<float>{1.0f, 2.0f}, DType::float32,
                            opts(Framework::pytorch, Profile::current, SummaryMode::statistics, Precision::high));
    check_float(s.max, 2.0);
    check_float(s.min, 1.0);
    CHECK(s.mean.is_null());
    CHECK(s.norm.is_null());
  }

  TEST_CASE("legacy pytorch casts integers and float64 to float32 for all four") {
    const auto o = opts(Framework::pytorch, Profile::legacy);
    auto s = stats_of(std::vector<std::int64_t>{3, 4}, DType::int64, o);
    check_float(s.max, 4.0);
    check_float(s.min, 3.0);
    check_float(s.mean, 3.5);
    check_float(s.norm, 5.0);
    s = stats_of(std::vector<std::int64_t>{(std::int64_t{1} << 62) + 1, 0}, DType::int64, o);
    check_float(s.max, 4611686018427387904.0);
    s = stats_of(std::vector<double>{0.1, 0.2}, DType::float64, o);
    check_float(s.max, static_cast<double>(0.2f));
    check_float(s.mean, static_cast<double>(static_cast<float>((static_cast<double>(0.1f) + static_cast<double>(0.2f)) / 2)));
  }

  TEST_CASE("legacy pytorch precision high computes half tensors in float32") {
    const auto o = opts(Framework::pytorch, Profile::legacy, SummaryMode::statistics, Precision::high);
    const auto s = stats_of(bf16({1.0f, 2.0f, 3.0f}), DType::bfloat16, o);
    check_float(s.norm, static_cast<double>(std::sqrt(14.0f)));
    const auto low = stats_of(bf16({1.0f, 2.0f, 3.0f}), DType::bfloat16, opts(Framework::pytorch, Profile::legacy));
    check_float(low.norm, 3.734375);
  }

  TEST_CASE("float8 statistics are null in current pytorch and float32 in legacy and MindSpore") {
    const std::vector<std::uint8_t> v{0x38, 0xc0};  // e4m3fn: 1.0, -2.0
    auto s = stats_of(v, DType::float8_e4m3fn, opts(Framework::pytorch, Profile::current, SummaryMode::md5));
    check_all_null(s);
    REQUIRE(s.md5);
    CHECK(s.md5->s.size() == 8);
    s = stats_of(v, DType::float8_e4m3fn, opts(Framework::pytorch, Profile::legacy));
    check_float(s.max, 1.0);
    check_float(s.min, -2.0);
    check_float(s.mean, -0.5);
    check_float(s.norm, static_cast<double>(std::sqrt(5.0f)));
    s = stats_of(v, DType::float8_e4m3fn, opts(Framework::mindspore));
    check_float(s.mean, -0.5);
  }

  TEST_CASE("bool tensors report any and all") {
    const std::vector<std::uint8_t> v{0, 1, 0};
    for (Framework f : {Framework::pytorch, Framework::mindspore}) {
      const auto s = stats_of(v, DType::boolean, opts(f));
      REQUIRE(s.max.kind == Scalar::Kind::boolean);
      CHECK(s.max.b);
      CHECK_FALSE(s.min.b);
      CHECK(s.mean.is_null());
      CHECK(s.norm.is_null());
    }
  }

  TEST_CASE("complex tensors report |z| statistics; only MindSpore has a norm") {
    const std::vector<float> z{3.0f, 4.0f, 0.0f, 1.0f};
    auto s = stats_of(z, DType::complex64, opts(), {2});
    check_float(s.max, 5.0);
    check_float(s.min, 1.0);
    check_float(s.mean, 3.0);
    CHECK(s.norm.is_null());
    s = stats_of(z, DType::complex64, opts(Framework::mindspore), {2});
    check_float(s.norm, static_cast<double>(std::sqrt(26.0f)));
  }

  TEST_CASE("empty tensors have null statistics and crc 00000000") {
    const std::vector<float> none;
    auto s = stats_of(none, DType::float32, opts(Framework::pytorch, Profile::current, SummaryMode::md5), {0, 3});
    check_all_null(s);
    REQUIRE(s.md5);
    CHECK(s.md5->s == "00000000");
    s = stats_of(none, DType::float32, opts(Framework::pytorch, Profile::current, SummaryMode::xor_checksum), {0});
    CHECK_FALSE(s.has_value_stats);
    REQUIRE(s.md5);
    CHECK(s.md5->is_null());
    s = stats_of(none, DType::int64, opts(Framework::mindspore), {0});
    check_all_null(s);
    CHECK_FALSE(s.md5);
  }

  TEST_CASE("xor checksum of bool [[F,F,F],[T,T,T]] is 0x0000010101000000") {
    const auto s = stats_of(std::vector<std::uint8_t>{0, 0, 0, 1, 1, 1}, DType::boolean,
                            opts(Framework::pytorch, Profile::current, SummaryMode::xor_checksum), {2, 3});
    CHECK_FALSE(s.has_value_stats);
    REQUIRE(s.md5);
    CHECK(s.md5->s == "0x0000010101000000");
  }

  TEST_CASE("xor checksum of 0-dim tensors is the value itself") {
    const auto o = opts(Framework::pytorch, Profile::current, SummaryMode::xor_checksum);
    auto s = stats_of(std::vector<float>{3.25f}, DType::float32, o, {});
    check_float(*s.md5, 3.25);
    s = stats_of(std::vector<std::int64_t>{-1}, DType::int64, o, {});
    CHECK(s.md5->s == "0xffffffffffffffff");
    s = stats_of(std::vector<std::int32_t>{5}, DType::int32, o, {});
    CHECK(s.md5->s == "0x0000000000000005");
    s = stats_of(std::vector<std::uint8_t>{1}, DType::boolean, o, {});
    CHECK(s.md5->s == "0x0000000000000001");
    s = stats_of(std::vector<std::uint8_t>{0}, DType::boolean, o, {});
    CHECK(s.md5->s == "0x0000000000000000");
  }

  TEST_CASE("xor mode gives float8 tensors a null md5 (rule 4 precedes rule 5)") {
    const auto s = stats_of(std::vector<std::uint8_t>{0x38, 0xc0}, DType::float8_e5m2,
                            opts(Framework::pytorch, Profile::current, SummaryMode::xor_checksum));
    CHECK_FALSE(s.has_value_stats);
    REQUIRE(s.md5);
    CHECK(s.md5->is_null());
  }

  TEST_CASE("the moments behind the statistics can be returned for tolerance checks") {
    const std::vector<float> v{-1.5f, 0.25f, 2.0f};
    const std::int64_t shape[] = {3};
    Moments m;
    const auto s = compute_leaf_stats(tensor::TensorView{DType::float32, shape, std::as_bytes(std::span(v))}, opts(), &m);
    CHECK(m.count == 3);
    CHECK(m.sum == 0.75);
    CHECK(m.sum_abs == 3.75);
    check_float(s.mean, 0.25);
    CHECK(statistic_dtype(DType::bfloat16, opts()) == DType::bfloat16);
    CHECK(statistic_dtype(DType::int64, opts(Framework::pytorch, Profile::legacy)) == DType::float32);
    CHECK(statistic_dtype(DType::complex64, opts(Framework::mindspore)) == DType::float32);
    CHECK(statistic_dtype(DType::bfloat16, opts(Framework::mindspore, Profile::current, SummaryMode::statistics,
                                                Precision::high)) == DType::float32);
  }

  TEST_CASE("NaN and infinities follow torch's propagation rules") {
    auto s = stats_of(std::vector<float>{1.0f, std::nanf(""), 2.0f}, DType::float32, opts());
    check_float(s.max, k_nan);
    check_float(s.min, k_nan);
    check_float(s.mean, k_nan);
    check_float(s.norm, k_nan);
    const float inf = std::numeric_limits<float>::infinity();
    s = stats_of(std::vector<float>{1.0f, inf}, DType::float32, opts());
    check_float(s.max, k_inf);
    check_float(s.min, 1.0);
    check_float(s.mean, k_inf);
    check_float(s.norm, k_inf);
    s = stats_of(std::vector<float>{-inf, 1.0f}, DType::float32, opts());
    check_float(s.min, -k_inf);
    check_float(s.mean, -k_inf);
    check_float(s.norm, k_inf);
    s = stats_of(std::vector<float>{-inf, inf}, DType::float32, opts());
    check_float(s.mean, k_nan);
    check_float(s.norm, k_inf);
  }

  TEST_CASE("MindSpore bf16 saved as float32 is rounded as bf16 and hashed as float32") {
    StatsOptions o = opts(Framework::mindspore, Profile::current, SummaryMode::md5);
    o.reported_dtype = DType::bfloat16;
    const std::vector<float> stored{1.0f, 2.0f, 3.0f};
    const auto s = stats_of(stored, DType::float32, o);
    check_float(s.max, 3.0);
    check_float(s.mean, 2.0);
    check_float(s.norm, 3.734375);
    REQUIRE(s.md5);
    const auto crc_of_float32 = s.md5->s;
    // the same tensor held as bf16 bytes hashes as its float32 conversion
    StatsOptions raw = opts(Framework::mindspore, Profile::current, SummaryMode::md5);
    const auto t = stats_of(bf16({1.0f, 2.0f, 3.0f}), DType::bfloat16, raw);
    CHECK(t.md5->s == crc_of_float32);
    check_float(t.norm, 3.734375);
    // PyTorch hashes the raw bf16 bits
    const auto p = stats_of(bf16({1.0f, 2.0f, 3.0f}), DType::bfloat16, opts(Framework::pytorch, Profile::current, SummaryMode::md5));
    CHECK(p.md5->s != crc_of_float32);
  }

  TEST_CASE("MindSpore casts integers and float64 to float32 for all four") {
    const auto s = stats_of(std::vector<std::int32_t>{3430, 0}, DType::int32, opts(Framework::mindtorch));
    check_float(s.max, 3430.0);
    check_float(s.min, 0.0);
    check_float(s.mean, 1715.0);
    check_float(s.norm, 3430.0);
  }

  TEST_CASE("statistics streamed from a file equal those computed in memory, with threads") {
    msdump::testing::TempDir dir;
    const std::size_t n = (9u << 20) / 2 + 12345;  // > 8 MiB of bf16: split across threads
    const auto data = stats::testing::random_elements(DType::bfloat16, n, 77);
    const std::string header = "0123456789";  // elements start at an odd offset
    {
      std::ofstream out(dir / "t.bin", std::ios::binary);
      out << header;
      out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    }
    auto file = FileSource::open((dir / "t.bin").string());
    REQUIRE(file);
    tensor::TensorInfo info;
    info.dtype = DType::bfloat16;
    info.shape = {static_cast<std::int64_t>(n)};
    info.strides = {1};
    info.data_offset = header.size();
    info.storage_bytes = data.size();
    for (SummaryMode mode : {SummaryMode::statistics, SummaryMode::md5, SummaryMode::xor_checksum}) {
      StatsOptions o = opts(Framework::pytorch, Profile::current, mode);
      const tensor::TensorView view{DType::bfloat16, info.shape, data};
      const auto expected = compute_leaf_stats(view, o);
      for (int threads : {1, 2, 3}) {
        CAPTURE(threads);
        o.threads = threads;
        ReadBuffer buffer;
        o.file_read = FileRead::pread;
        const auto from_file = compute_leaf_stats(**file, info, o, &buffer);
        REQUIRE(from_file);
        o.file_read = FileRead::mmap;
        const auto mapped = compute_leaf_stats(**file, info, o, &buffer);
        REQUIRE(mapped);
        o.file_read = FileRead::automatic;  // the default: mmap above k_mmap_min_bytes
        const auto automatic = compute_leaf_stats(**file, info, o, &buffer);
        REQUIRE(automatic);
        const auto in_memory = compute_leaf_stats(view, o);
        for (const auto* s : {&*from_file, &*mapped, &*automatic, &in_memory}) {
          CHECK(s->max.identical(expected.max));
          CHECK(s->min.identical(expected.min));
          CHECK(s->mean.identical(expected.mean));
          CHECK(s->norm.identical(expected.norm));
          CHECK(s->md5.has_value() == expected.md5.has_value());
          if (s->md5) CHECK(s->md5->identical(*expected.md5));
        }
      }
    }
  }

  TEST_CASE("a read error while streaming a tensor fails the statistics") {
    const std::vector<std::byte> data(3u << 20, std::byte{1});
    FlakySource src(data, 2u << 20);
    tensor::TensorInfo info;
    info.dtype = DType::uint8;
    info.shape = {static_cast<std::int64_t>(data.size())};
    info.strides = {1};
    info.storage_bytes = data.size();
    const auto r = compute_leaf_stats(src, info, opts());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::io);
    CHECK(r.error().message == "flaky.bin: read failed at byte 2097152");
  }

  TEST_CASE("a tensor beyond the end of its source is an error") {
    const std::vector<float> v{1.0f, 2.0f};
    MemorySource src(std::as_bytes(std::span(v)), "x.npy");
    tensor::TensorInfo info;
    info.shape = {3};
    info.strides = {1};
    const auto r = compute_leaf_stats(src, info, opts());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::invalid_input);
    CHECK(r.error().message == "x.npy: tensor bytes [0, 12) lie beyond the end of the data (8 bytes)");
  }
}
