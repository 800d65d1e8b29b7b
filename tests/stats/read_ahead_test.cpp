#include "stats/read_ahead.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "stats/leaf_stats.h"

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
    std::copy_n(m_bytes.begin() + static_cast<std::ptrdiff_t>(offset), out.size(), out.begin());
    return {};
  }

 private:
  std::span<const std::byte> m_bytes;
  std::uint64_t m_fail_at;
  std::string m_name = "flaky.bin";
};

std::vector<std::byte> counting_bytes(std::size_t n) {
  std::vector<std::byte> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<std::byte>(k * 7 + k / 251);
  return v;
}

}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("read-ahead hands out the range in order through reused windows") {
    const auto data = counting_bytes(100000);
    FlakySource src(data, data.size());
    std::vector<std::vector<std::byte>> storage(3, std::vector<std::byte>(4096));
    std::vector<std::span<std::byte>> windows(storage.begin(), storage.end());
    ReadAhead reader(src, 123, 99999, windows);
    std::vector<std::byte> got;
    for (;;) {
      auto chunk = reader.next();
      REQUIRE(chunk);
      if (chunk->empty()) break;
      CHECK(chunk->size() <= 4096);
      got.insert(got.end(), chunk->begin(), chunk->end());
    }
    CHECK(got == std::vector<std::byte>(data.begin() + 123, data.begin() + 99999));
  }

  TEST_CASE("read-ahead reports the source's read error") {
    const auto data = counting_bytes(100000);
    FlakySource src(data, 50000);
    std::vector<std::vector<std::byte>> storage(2, std::vector<std::byte>(8192));
    ReadAhead reader(src, 0, data.size(), {storage[0], storage[1]});
    std::size_t seen = 0;
    for (;;) {
      auto chunk = reader.next();
      if (!chunk) {
        CHECK(chunk.error().message == "flaky.bin: read failed at byte 49152");
        break;
      }
      REQUIRE_FALSE(chunk->empty());
      seen += chunk->size();
    }
    CHECK(seen == 49152);
  }

  TEST_CASE("a read error while streaming a large tensor fails the statistics") {
    const auto data = counting_bytes(6u << 20);
    FlakySource src(data, 5u << 20);
    tensor::TensorInfo info;
    info.dtype = DType::uint8;
    info.shape = {static_cast<std::int64_t>(data.size())};
    info.strides = {1};
    info.storage_bytes = data.size();
    const auto r = compute_leaf_stats(src, info, StatsOptions{});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::io);
    CHECK(r.error().message == "flaky.bin: read failed at byte 5242880");
  }
}
