// Holds the statistics engine to torch's own results on the committed tensor fixtures
// (testdata/good/tensors/manifest.json, written by testdata/gen/gen_tensor_fixtures.py with
// torch 1.13 CPU): checksums and Max/Min exactly, Mean/Norm within docs/tensor-formats.md §4.6,
// and the sums against the generator's exact (Decimal) mean and norm.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/byte_source.h"
#include "stats/float_convert.h"
#include "stats/leaf_stats.h"
#include "stats/tolerance.h"
#include "tensor/tensor_reader.h"
#include "manifest_json.h"
#include "stats_test_util.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::stats;

namespace {

Scalar to_scalar(const stats::testing::Json& j) {
  using K = stats::testing::Json::Kind;
  switch (j.kind) {
    case K::boolean: return Scalar::boolean(j.b);
    case K::integer: return Scalar::integer(j.i);
    case K::unsigned_integer: return Scalar::unsigned_integer(j.u);
    case K::floating: return Scalar::floating(j.d);
    default: return Scalar::null();
  }
}

double number(const stats::testing::Json& j) { return to_scalar(j).kind == Scalar::Kind::floating ? j.d : static_cast<double>(j.i); }

// The dtype torch reduces complex values in.
DType value_dtype(DType d) {
  if (d == DType::complex64) return DType::float32;
  if (d == DType::complex128) return DType::float64;
  return d;
}

}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("statistics of the tensor fixtures agree with the torch manifest") {
    const auto dir = msdump::testing::testdata("good/tensors");
    const auto text = msdump::testing::slurp(dir / "manifest.json");
    REQUIRE_FALSE(text.empty());
    const auto manifest = stats::testing::JsonParser(text).parse();
    int checked = 0;
    for (const auto& [name, entry] : manifest.fields) {
      const std::string& fixture = name;  // clang 15 cannot capture a structured binding in CAPTURE's lambda
      CAPTURE(fixture);
      REQUIRE_MESSAGE(std::filesystem::exists(dir / name), "listed in manifest.json but missing");
      const DType dtype = *dtype_from_name(entry["dtype"].s);
      auto file = FileSource::open((dir / name).string());
      REQUIRE(file);
      tensor::ReadOptions ro;
      ro.dtype_hint = dtype;
      auto info = tensor::read_tensor_info(**file, ro);
      REQUIRE_MESSAGE(info, info.error().message);
      REQUIRE(info->dtype == dtype);
      auto loaded = tensor::load_tensor(**file, *info);
      REQUIRE(loaded);
      const AccumulatorOptions all{.values = true, .crc32 = true, .xor_checksum = true};
      const Moments m = compute_moments(dtype, loaded->data, all);
      REQUIRE(m.count == static_cast<std::uint64_t>(entry["numel"].i));

      // checksums of the contiguous native bytes
      char crc[16];
      std::snprintf(crc, sizeof crc, "%08x", static_cast<unsigned>(*m.crc32));
      CHECK(entry["crc32"].s == crc);
      char xor_hex[24];
      std::snprintf(xor_hex, sizeof xor_hex, "0x%016llx", static_cast<unsigned long long>(*m.xor_checksum));
      CHECK(entry["xor"].s == xor_hex);

      // the rules' Max/Min through the streaming entry point equal torch.max/min exactly
      StatsOptions o;
      const auto leaf = compute_leaf_stats(**file, *info, o);
      REQUIRE(leaf);
      if (!entry["torch_max"].is_null() && dtype_info(dtype).kind != DTypeKind::complex) {
        CHECK(same_extreme(leaf->max, to_scalar(entry["torch_max"])));
        CHECK(same_extreme(leaf->min, to_scalar(entry["torch_min"])));
      }
      if (m.count == 0) {
        CHECK(leaf->max.is_null());
        ++checked;
        continue;
      }

      // Mean/Norm computed once-rounded in the result dtype vs torch's (1.13 CPU) results
      const DType t = value_dtype(dtype);
      const bool floating = dtype_info(t).kind == DTypeKind::floating;
      if (floating && !entry["torch_mean"].is_null() && dtype_info(dtype).kind != DTypeKind::complex) {
        const double expected = round_to_dtype(m.sum / static_cast<double>(m.count), t);
        const auto c = check_statistic(StatKind::mean, number(entry["torch_mean"]), expected, t, m);
        CHECK_MESSAGE(c.agreement != Agreement::fail, c.reason);
      }
      if (floating && !entry["torch_norm"].is_null()) {
        const double expected = round_to_dtype(std::sqrt(m.sum_sq), t);
        const auto c = check_statistic(StatKind::norm, number(entry["torch_norm"]), expected, t, m);
        CHECK_MESSAGE(c.agreement != Agreement::fail, c.reason);
      }

      // the double sums against the generator's exact mean and norm
      const double scale = m.sum_abs / static_cast<double>(m.count);
      const double rel = dtype_info(dtype).kind == DTypeKind::complex && dtype == DType::complex64 ? 1e-6 : 1e-14;
      if (!entry["ref_mean"].is_null()) {
        const double mean = m.sum / static_cast<double>(m.count);
        CHECK_MESSAGE(stats::testing::close(mean, number(entry["ref_mean"]), scale, rel), mean);
      }
      if (!entry["ref_norm"].is_null()) {
        const double norm = std::sqrt(m.sum_sq);
        CHECK_MESSAGE(stats::testing::close(norm, number(entry["ref_norm"]), norm, rel), norm);
      }
      ++checked;
    }
    CHECK(checked >= 60);
  }
}
