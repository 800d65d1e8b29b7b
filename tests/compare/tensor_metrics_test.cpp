// Tensor-mode metrics against numpy (testdata/compare/tensor_metrics/expected.json, written by
// tests/compare/gen_tensor_metric_cases.py with msprobe's formulas) and against msprobe's own
// cells for real dumps (testdata/compare/tensor_metrics/cnn_bug_vs_ref/msprobe_rows.json).
// Every cell must be equal, except EucDist (an unrounded float64 norm whose sum numpy adds in
// another order): within 1e-12 relative.

#include "compare/tensor_metrics.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "stats/cpu_dispatch.h"
#include "stats/float_convert.h"
#include "stats/pair_kernel.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

constexpr std::size_t k_euc_dist = 1;
constexpr double k_euc_dist_tolerance = 1e-12;

const std::filesystem::path& fixture_dir() {
  static const std::filesystem::path dir = msdump::testing::testdata("compare/tensor_metrics");
  return dir;
}

pyjson::Value read_json(const std::filesystem::path& p) {
  const std::string text = msdump::testing::slurp(p);
  REQUIRE_MESSAGE(!text.empty(), "missing fixture " << p.string());
  auto v = pyjson::parse_json(text);
  REQUIRE_MESSAGE(v, v.error().message);
  return std::move(*v);
}

TensorMetrics metrics_of(const std::string& dir, const std::string& npu, const std::string& bench) {
  auto n = load_compare_tensor(dir, npu);
  REQUIRE_MESSAGE(n, n.error().message);
  auto b = load_compare_tensor(dir, bench);
  REQUIRE_MESSAGE(b, b.error().message);
  return compute_tensor_metrics(*n, *b);
}

bool close(double got, double want, double rel) {
  if (std::isinf(want) || want == 0.0) return got == want;
  return std::fabs(got - want) <= rel * std::fabs(want);
}

// Compares our cells with the expected ones: a string is a text cell, a number a float cell.
void check_cells(const TensorMetrics& got, const pyjson::Array& want) {
  REQUIRE(want.size() == 6);
  for (std::size_t c = 0; c < 6; ++c) {
    CAPTURE(c);
    const Cell& cell = got.cells[c];
    if (const std::string* text = want[c].if_string()) {
      CHECK(cell.is_text());
      CHECK(cell.as_text() == *text);
      continue;
    }
    const double w = want[c].is_float() ? want[c].as_float() : static_cast<double>(want[c].as_int());
    REQUIRE(cell.kind() == Cell::Kind::floating);
    CAPTURE(cell.str());
    if (c == k_euc_dist) CHECK(close(cell.as_float(), w, k_euc_dist_tolerance));
    else CHECK(std::bit_cast<std::uint64_t>(cell.as_float()) == std::bit_cast<std::uint64_t>(w));
  }
}

tensor::Tensor make_tensor(DType dtype, tensor::Shape shape, const void* data, std::size_t bytes) {
  tensor::Tensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(bytes);
  std::memcpy(t.data.data(), data, bytes);
  return t;
}

tensor::Tensor f32_tensor(const std::vector<float>& v) {
  return make_tensor(DType::float32, {static_cast<std::int64_t>(v.size())}, v.data(), v.size() * 4);
}

// Sets the SIMD tier for a scope.
struct TierScope {
  explicit TierScope(stats::SimdTier t) { REQUIRE(stats::use_simd_tier(t).ok()); }
  ~TierScope() { (void)stats::use_simd_tier(before); }
  stats::SimdTier before = stats::simd_tier();
};

bool same_sums(const stats::PairSums& a, const stats::PairSums& b) {
  const auto same = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  return same(a.dot, b.dot) && same(a.npu_sq, b.npu_sq) && same(a.bench_sq, b.bench_sq) && same(a.diff_sq, b.diff_sq) &&
         same(a.max_abs_diff, b.max_abs_diff) && same(a.max_relative, b.max_relative) &&
         a.below_thousandth == b.below_thousandth && a.below_five_thousandths == b.below_five_thousandths &&
         a.non_finite == b.non_finite && a.non_finite_mismatch == b.non_finite_mismatch;
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("tensor metrics agree with numpy on the generated cases") {
    const pyjson::Value doc = read_json(fixture_dir() / "expected.json");
    const pyjson::Value* cases = doc.find("cases");
    REQUIRE(cases != nullptr);
    REQUIRE(cases->as_array().size() >= 50);
    const std::string dir = (fixture_dir() / "cases").string();
    for (const pyjson::Value& c : cases->as_array()) {
      const std::string name = c.find("name")->as_string();
      CAPTURE(name);
      check_cells(metrics_of(dir, c.find("npu")->as_string(), c.find("bench")->as_string()), c.find("cells")->as_array());
    }
  }

  TEST_CASE("tensor metrics reproduce msprobe's cells for real dumps of the cnn_bug_vs_ref pair") {
    const std::filesystem::path base = fixture_dir() / "cnn_bug_vs_ref";
    const pyjson::Value doc = read_json(base / "msprobe_rows.json");
    const pyjson::Array& rows = doc.find("rows")->as_array();
    REQUIRE(rows.size() == 11);
    for (const pyjson::Value& row : rows) {
      const std::string name = row.find("name")->as_string();
      CAPTURE(name);
      auto n = load_compare_tensor((base / "npu").string(), row.find("npu")->as_string());
      REQUIRE(n);
      auto b = load_compare_tensor((base / "bench").string(), row.find("bench")->as_string());
      REQUIRE(b);
      const TensorMetrics m = compute_tensor_metrics(*n, *b);
      const pyjson::Array& csv = row.find("cells")->as_array();  // the CSV's texts
      for (std::size_t c = 0; c < 6; ++c) {
        CAPTURE(c);
        const std::string& want = csv[c].as_string();
        if (c == k_euc_dist && m.cells[c].kind() == Cell::Kind::floating)
          CHECK(close(m.cells[c].as_float(), std::strtod(want.c_str(), nullptr), k_euc_dist_tolerance));
        else
          CHECK(m.cells[c].str() == want);
      }
    }
  }

  TEST_CASE("uniform_metrics repeats one text in all six cells") {
    const TensorMetrics m = uniform_metrics(k_shape_unmatched);
    for (const Cell& c : m.cells) CHECK(c == Cell::text("shape unmatched"));
  }

  TEST_CASE("bfloat16 and float8 are compared as float32, squeezed shapes decide") {
    // 1.5, -2, 0.25, 448 in float8_e4m3fn and in float32
    const std::uint8_t f8[] = {0x3c, 0xc0, 0x28, 0x7e};
    const std::uint16_t bf16[] = {0x3fc0, 0xc000, 0x3e80, 0x43e0};
    const auto f8_t = make_tensor(DType::float8_e4m3fn, {1, 4}, f8, sizeof f8);
    const auto bf16_t = make_tensor(DType::bfloat16, {4, 1}, bf16, sizeof bf16);
    const auto f32_t = f32_tensor({1.5f, -2.0f, 0.25f, 448.0f});
    const auto bench = f32_tensor({1.5f, -2.0f, 0.0f, 440.0f});
    const TensorMetrics want = compute_tensor_metrics(f32_t, bench);
    CHECK(want.cells[3] == Cell::floating(2097152.0));  // 0.25 against 0: 0.25 / eps32
    for (const auto* t : {&f8_t, &bf16_t}) {
      const TensorMetrics got = compute_tensor_metrics(*t, bench);
      for (std::size_t c = 0; c < 6; ++c) CHECK(got.cells[c] == want.cells[c]);
    }
    CHECK(compute_tensor_metrics(f8_t, f32_tensor({1, 2, 3})).cells[0] == Cell::text("shape unmatched"));
  }

  TEST_CASE("load_compare_tensor names the file it cannot read and refuses links") {
    msdump::testing::TempDir tmp;
    const std::string dir = tmp.path().string();
    auto missing = load_compare_tensor(dir, "x.pt");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "cannot open '" + dir + "/x.pt': No such file or directory");
    std::ofstream(tmp.path() / "junk.pt") << "not a tensor";
    auto junk = load_compare_tensor(dir, "junk.pt");
    REQUIRE_FALSE(junk);
    CHECK(junk.error().message == "unknown tensor format for '" + dir + "/junk.pt' (tried: pt, npy)");
    REQUIRE(::symlink((fixture_dir() / "cases" / "f32_random.npu.npy").c_str(), (tmp.path() / "link.npy").c_str()) == 0);
    auto link = load_compare_tensor(dir, "link.npy");
    REQUIRE_FALSE(link);
    CHECK(link.error().message == "'" + dir + "/link.npy' is a symbolic link: files inside '" + dir +
                                    "' are opened without following links");
    auto up = load_compare_tensor(dir, "../x.pt");
    REQUIRE_FALSE(up);
    CHECK(up.error().message == "'../x.pt' has a '..' component: a file inside '" + dir + "' may not name what is outside it");
  }

  TEST_CASE("the pair kernel gives bit-identical sums on every SIMD tier") {
    std::mt19937_64 rng(7);
    std::normal_distribution<float> normal;
    const std::size_t count = 100'003;  // blocks and a partial lane group
    std::vector<float> n(count), b(count);
    std::vector<std::uint16_t> h(count);
    std::vector<std::int64_t> ints(count);
    for (std::size_t i = 0; i < count; ++i) {
      n[i] = normal(rng);
      b[i] = i % 9 == 0 ? 0.0f : n[i] * (1.0f + 1e-3f * normal(rng));
      h[i] = static_cast<std::uint16_t>(rng() & 0x7bff);  // finite halves of both signs
      ints[i] = static_cast<std::int64_t>(rng() % 2001) - 1000;
    }
    const auto bytes = [](const auto& v) { return std::as_bytes(std::span(v)); };
    const auto run_all = [&] {
      using P = stats::PairPrecision;
      return std::vector<stats::PairSums>{
          stats::pair_sums(DType::float32, bytes(n), DType::float32, bytes(b), count, P::float32),
          stats::pair_sums(DType::float16, bytes(h), DType::float32, bytes(b), count, P::float32),
          stats::pair_sums(DType::int64, bytes(ints), DType::float32, bytes(n), count, P::float64)};
    };
    std::vector<stats::PairSums> base;
    {
      TierScope scope(stats::SimdTier::sse2);
      base = run_all();
    }
    CHECK(base[0].below_thousandth > 0);
    CHECK(base[0].below_five_thousandths > base[0].below_thousandth);
    for (const stats::SimdTier tier : stats::runnable_simd_tiers()) {
      CAPTURE(stats::simd_tier_name(tier));
      TierScope scope(tier);
      const auto got = run_all();
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(same_sums(got[i], base[i]));
    }
  }

  TEST_CASE("the pair kernel's float16 decoding matches the scalar definition") {
    std::vector<std::uint16_t> all(65536);
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
    std::vector<float> same(all.size());
    for (std::size_t i = 0; i < all.size(); ++i) same[i] = stats::half_to_float(all[i]);
    for (const stats::SimdTier tier : stats::runnable_simd_tiers()) {
      CAPTURE(stats::simd_tier_name(tier));
      TierScope scope(tier);
      // identical values: no mismatch, zero differences, every ratio element counted
      const auto s = stats::pair_sums(DType::float16, std::as_bytes(std::span(all)), DType::float32,
                                      std::as_bytes(std::span(same)), all.size(), stats::PairPrecision::float32);
      CHECK(s.non_finite);
      CHECK_FALSE(s.non_finite_mismatch);
      CHECK(s.max_abs_diff == 0.0);
      CHECK(s.diff_sq == 0.0);
      CHECK(s.below_thousandth == all.size());
    }
  }
}
