#include "compare/row_match.h"

#include <doctest/doctest.h>

#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/json_reader.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

using Pairs = std::vector<std::optional<std::uint32_t>>;

// Appends the rows `entry` + suffix (in order) to `d`.
void add(DumpRows& d, const std::string& entry, std::initializer_list<const char*> suffixes,
         const std::string& dtype = "torch.float32") {
  d.entries.push_back(entry);
  for (const char* s : suffixes) {
    Row r;
    r.name = entry + s;
    r.entry = static_cast<std::uint32_t>(d.entries.size() - 1);
    r.dtype = dtype;
    d.rows.push_back(r);
  }
}

DumpRows dump(const std::string& framework = "pytorch") {
  DumpRows d;
  d.framework = framework;
  d.task = "statistics";
  return d;
}

// "npu row name -> bench row name" for every NPU row ("" when unpaired), to assert readably.
std::vector<std::string> pairing(const DumpRows& npu, const DumpRows& bench, const MatchResult& m) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < npu.rows.size(); ++i)
    out.push_back(npu.rows[i].name + " -> " + (m.bench_of[i] ? bench.rows[*m.bench_of[i]].name : std::string()));
  return out;
}

// The fuzzy algorithm as written (docs/compare.md), quadratic, on fuzzy keys: the reference
// the linear implementation must agree with.
Pairs naive_fuzzy(const std::vector<std::string>& n, const std::vector<std::string>& b) {
  Pairs out(n.size());
  std::vector<std::uint32_t> qn, qb;
  for (std::uint32_t i = 0; i < std::max(n.size(), b.size()); ++i) {
    if (i < n.size()) qn.push_back(i);
    if (i < b.size()) qb.push_back(i);
    if (qn.empty() != qb.empty()) break;
    if (qn.empty()) continue;
    std::optional<std::pair<std::size_t, std::size_t>> hit;
    for (std::size_t j = 0; j + 1 < qb.size() && !hit; ++j)
      if (n[qn.back()] == b[qb[j]]) hit = {qn.size() - 1, j};
    if (!hit && n[qn.back()] == b[qb.back()]) hit = {qn.size() - 1, qb.size() - 1};
    for (std::size_t j = 0; j + 1 < qn.size() && !hit; ++j)
      if (n[qn[j]] == b[qb.back()]) hit = {j, qb.size() - 1};
    if (!hit) continue;
    out[qn[hit->first]] = qb[hit->second];
    qn.erase(qn.begin(), qn.begin() + static_cast<std::ptrdiff_t>(hit->first) + 1);
    qb.erase(qb.begin(), qb.begin() + static_cast<std::ptrdiff_t>(hit->second) + 1);
  }
  return out;
}

// The pair of §5.1: one extra Tensor.__mul__ call at the start of the NPU forward.
void mul_pair(DumpRows& npu, DumpRows& bench) {
  for (int i = 0; i < 4; ++i) add(npu, "Tensor.__mul__." + std::to_string(i) + ".forward", {".input.0", ".output.0"});
  for (int i = 3; i >= 0; --i) add(npu, "Tensor.__mul__." + std::to_string(i) + ".backward", {".input.0", ".output.0"});
  for (int i = 0; i < 3; ++i) add(bench, "Tensor.__mul__." + std::to_string(i) + ".forward", {".input.0", ".output.0"});
  for (int i = 2; i >= 0; --i) add(bench, "Tensor.__mul__." + std::to_string(i) + ".backward", {".input.0", ".output.0"});
}

DumpRows read_rows(const std::string& rel) {
  const std::string text = testing::slurp(testing::testdata(rel));
  const MemorySource src(std::as_bytes(std::span(text.data(), text.size())), rel);
  auto rows = read_dump_rows(src, rel);
  REQUIRE(rows);
  return std::move(*rows);
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("exact pairing: backward rows pair by backward order, forward rows by name") {
    auto npu = dump(), bench = dump();
    mul_pair(npu, bench);
    const auto m = match_rows(npu, bench, {});
    CHECK(pairing(npu, bench, m) == std::vector<std::string>{
              "Tensor.__mul__.0.forward.input.0 -> Tensor.__mul__.0.forward.input.0",
              "Tensor.__mul__.0.forward.output.0 -> Tensor.__mul__.0.forward.output.0",
              "Tensor.__mul__.1.forward.input.0 -> Tensor.__mul__.1.forward.input.0",
              "Tensor.__mul__.1.forward.output.0 -> Tensor.__mul__.1.forward.output.0",
              "Tensor.__mul__.2.forward.input.0 -> Tensor.__mul__.2.forward.input.0",
              "Tensor.__mul__.2.forward.output.0 -> Tensor.__mul__.2.forward.output.0",
              "Tensor.__mul__.3.forward.input.0 -> ",
              "Tensor.__mul__.3.forward.output.0 -> ",
              "Tensor.__mul__.3.backward.input.0 -> Tensor.__mul__.2.backward.input.0",
              "Tensor.__mul__.3.backward.output.0 -> Tensor.__mul__.2.backward.output.0",
              "Tensor.__mul__.2.backward.input.0 -> Tensor.__mul__.1.backward.input.0",
              "Tensor.__mul__.2.backward.output.0 -> Tensor.__mul__.1.backward.output.0",
              "Tensor.__mul__.1.backward.input.0 -> Tensor.__mul__.0.backward.input.0",
              "Tensor.__mul__.1.backward.output.0 -> Tensor.__mul__.0.backward.output.0",
              "Tensor.__mul__.0.backward.input.0 -> ",
              "Tensor.__mul__.0.backward.output.0 -> "});
    CHECK(m.bench_only.empty());
  }
  TEST_CASE("exact pairing: module backward rows, the first bench row of a key, bench-only rows") {
    auto npu = dump(), bench = dump();
    add(npu, "Module.fc.Linear.forward.2", {".input.0", ".parameters.weight", ".output.0"});
    add(npu, "Module.fc.Linear.backward.5", {".input.0"});
    add(npu, "Module.fc.Linear.parameters_grad.0", {".weight"});
    add(bench, "Module.fc.Linear.forward.0", {".input.0"});
    add(bench, "Module.fc.Linear.forward.2", {".input.0", ".output.0", ".input.0"});
    add(bench, "Module.fc.Linear.backward.0", {".input.0"});
    add(bench, "Module.fc.Linear.parameters_grad.0", {".weight"});
    const auto m = match_rows(npu, bench, {});
    CHECK(m.bench_of == Pairs{1, std::nullopt, 2, 4, 5});
    CHECK(m.bench_only == std::vector<std::uint32_t>{0, 3});
  }
  TEST_CASE("exact pairing: rows named alike (the items of a parameters_grad list) pair in order") {
    auto npu = dump(), bench = dump();
    add(npu, "Module.fc.Linear.parameters_grad.0", {".weight", ".extra", ".extra", ".extra"});
    add(bench, "Module.fc.Linear.parameters_grad.0", {".extra", ".weight", ".extra"});
    const auto m = match_rows(npu, bench, {});
    // msprobe joins every ".extra" row with every other (six rows); each is paired once here.
    CHECK(m.bench_of == Pairs{1, 0, 2, std::nullopt});
    CHECK(m.bench_only.empty());
    // A key of one bench row pairs with every NPU row of the key.
    auto npu2 = dump(), bench2 = dump();
    add(npu2, "Module.fc.Linear.parameters_grad.0", {".extra", ".extra"});
    add(bench2, "Module.fc.Linear.parameters_grad.0", {".extra"});
    CHECK(match_rows(npu2, bench2, {}).bench_of == Pairs{0, 0});
  }
  TEST_CASE("dtype gate: float16/float32/bfloat16 pair among themselves, anything else must be equal") {
    CHECK(dtypes_pair("torch.bfloat16", "torch.float32", false));
    CHECK(dtypes_pair("torch.float16", "torch.bfloat16", false));
    CHECK(dtypes_pair("BFloat16", "Float32", false));
    CHECK_FALSE(dtypes_pair("torch.float64", "torch.bfloat16", false));
    CHECK_FALSE(dtypes_pair("Float32", "torch.float32", false));
    CHECK_FALSE(dtypes_pair("<class 'float'>", "<class 'int'>", false));
    CHECK(dtypes_pair("<class 'float'>", "<class 'float'>", false));
    CHECK(dtypes_pair("None", "None", false));
    CHECK_FALSE(dtypes_pair("torch.int64", "torch.int32", false));
    // cross-framework: by family
    CHECK(dtypes_pair("Float32", "torch.float32", true));
    CHECK(dtypes_pair("BFloat16", "torch.float64", true));
    CHECK(dtypes_pair("Int64", "torch.int32", true));
    CHECK(dtypes_pair("UInt8", "<class 'int'>", true));
    CHECK(dtypes_pair("Bool", "torch.bool", true));
    CHECK(dtypes_pair("Complex64", "torch.complex128", true));
    CHECK_FALSE(dtypes_pair("Bool", "torch.int8", true));
    CHECK_FALSE(dtypes_pair("Float32", "torch.int32", true));
    CHECK_FALSE(dtypes_pair("torch.Size", "None", true));
  }
  TEST_CASE("dtype gate: applied to pairs, and by family across frameworks") {
    auto npu = dump(), bench = dump();
    add(npu, "Functional.linear.0.forward", {".input.0"}, "torch.bfloat16");
    add(npu, "Functional.linear.1.forward", {".input.0"}, "torch.float64");
    add(npu, "Functional.linear.2.forward", {".input.0"}, "<class 'int'>");
    add(bench, "Functional.linear.0.forward", {".input.0"}, "torch.float32");
    add(bench, "Functional.linear.1.forward", {".input.0"}, "torch.bfloat16");
    add(bench, "Functional.linear.2.forward", {".input.0"}, "<class 'int'>");
    auto m = match_rows(npu, bench, {});
    CHECK(m.bench_of == Pairs{0, std::nullopt, 2});
    CHECK(m.bench_only == std::vector<std::uint32_t>{1});
    npu.framework = "mindspore";
    m = match_rows(npu, bench, {});
    CHECK(m.bench_of == Pairs{0, 1, 2});
    CHECK(cross_framework(npu, bench));
    npu.framework = "mindtorch";
    CHECK(cross_framework(npu, bench));
    bench.framework = "mindspore";
    CHECK_FALSE(cross_framework(npu, bench));
  }
  TEST_CASE("fuzzy keys drop the call counter") {
    CHECK(fuzzy_key("Tensor.__mul__.3.forward.input.0") == "Tensor.__mul__.forward.input.0");
    CHECK(fuzzy_key("Functional.linear.12.backward.output.0") == "Functional.linear.backward.output.0");
    CHECK(fuzzy_key("Module.mlp.fc1.Linear.forward.0.input.0") == "Module.mlp.fc1.forward.0.input.0");
    CHECK(fuzzy_key("Module.fc1.Linear.parameters_grad.0.weight") == "Module.fc1.Linear.parameters_grad.0.weight");
    CHECK(fuzzy_key("Module.feedforward.Linear.forward.0.input.0") == "Module.forward.Linear.forward.0.input.0");
    CHECK(fuzzy_key("forward.x") == "forward.x");
  }
  TEST_CASE("fuzzy pairing: a shifted sequence pairs with its true counterparts") {
    auto npu = dump(), bench = dump();
    add(npu, "Functional.linear.0.forward", {".input.0", ".output.0"});
    add(npu, "Tensor.__mul__.0.forward", {".input.0", ".output.0"});  // the extra call
    add(npu, "Functional.relu.0.forward", {".input.0", ".output.0"});
    add(npu, "Tensor.__mul__.1.forward", {".input.0", ".output.0"});
    add(npu, "Functional.gelu.0.forward", {".input.0", ".output.0"});
    add(bench, "Functional.linear.0.forward", {".input.0", ".output.0"});
    add(bench, "Functional.relu.0.forward", {".input.0", ".output.0"});
    add(bench, "Tensor.__mul__.0.forward", {".input.0", ".output.0"});
    add(bench, "Functional.gelu.0.forward", {".input.0", ".output.0"});
    MatchOptions fuzzy;
    fuzzy.fuzzy = true;
    const auto m = match_rows(npu, bench, fuzzy);
    CHECK(pairing(npu, bench, m) == std::vector<std::string>{
              "Functional.linear.0.forward.input.0 -> Functional.linear.0.forward.input.0",
              "Functional.linear.0.forward.output.0 -> Functional.linear.0.forward.output.0",
              "Tensor.__mul__.0.forward.input.0 -> ",
              "Tensor.__mul__.0.forward.output.0 -> ",
              "Functional.relu.0.forward.input.0 -> Functional.relu.0.forward.input.0",
              "Functional.relu.0.forward.output.0 -> Functional.relu.0.forward.output.0",
              "Tensor.__mul__.1.forward.input.0 -> Tensor.__mul__.0.forward.input.0",
              "Tensor.__mul__.1.forward.output.0 -> Tensor.__mul__.0.forward.output.0",
              "Functional.gelu.0.forward.input.0 -> Functional.gelu.0.forward.input.0",
              "Functional.gelu.0.forward.output.0 -> Functional.gelu.0.forward.output.0"});
    CHECK(m.bench_only.empty());
    // exact pairing pairs the extra call with the bench call instead
    const auto e = match_rows(npu, bench, {});
    CHECK(e.bench_of[2] == std::optional<std::uint32_t>{4});
    CHECK_FALSE(e.bench_of[6]);
  }
  TEST_CASE("fuzzy pairing: an unshifted pair equals exact pairing") {
    auto npu = dump(), bench = dump();
    for (auto* d : {&npu, &bench}) {
      add(*d, "Module.conv1.Conv2d.forward.0", {".input.0", ".parameters.weight", ".output.0"});
      for (int i = 0; i < 3; ++i) add(*d, "Tensor.__mul__." + std::to_string(i) + ".forward", {".input.0", ".input.1", ".output.0"});
      for (int i = 2; i >= 0; --i) add(*d, "Tensor.__mul__." + std::to_string(i) + ".backward", {".input.0", ".output.0"});
      add(*d, "Module.conv1.Conv2d.backward.0", {".input.0", ".output.0"});
      add(*d, "Module.conv1.Conv2d.parameters_grad.0", {".weight", ".bias"});
    }
    MatchOptions fuzzy;
    fuzzy.fuzzy = true;
    const auto f = match_rows(npu, bench, fuzzy);
    const auto e = match_rows(npu, bench, {});
    CHECK(f.bench_of == e.bench_of);
    for (std::uint32_t i = 0; i < npu.rows.size(); ++i) CHECK(f.bench_of[i] == std::optional<std::uint32_t>{i});
  }
  TEST_CASE("fuzzy pairing equals the queue algorithm as written, on random sequences") {
    std::mt19937 rng(1234);
    for (int round = 0; round < 300; ++round) {
      auto npu = dump(), bench = dump();
      const int kinds = 1 + round % 5;
      auto fill = [&](DumpRows& d, int n) {
        for (int i = 0; i < n; ++i)
          add(d, "Tensor.op" + std::to_string(rng() % kinds) + "." + std::to_string(i) + ".forward", {".input.0"});
      };
      fill(npu, static_cast<int>(rng() % 30));
      fill(bench, static_cast<int>(rng() % 30));
      std::vector<std::string> nk, bk;
      for (const auto& r : npu.rows) nk.push_back(fuzzy_key(r.name));
      for (const auto& r : bench.rows) bk.push_back(fuzzy_key(r.name));
      MatchOptions fuzzy;
      fuzzy.fuzzy = true;
      CAPTURE(round);
      CHECK(match_rows(npu, bench, fuzzy).bench_of == naive_fuzzy(nk, bk));
    }
  }
  TEST_CASE("exact pairing through the bucket table equals a linear search, keys of one or several rows") {
    // Reference: a key's single bench row pairs every NPU row of the key; of several, the k-th
    // NPU row of the key takes the k-th. Hashes are drawn from a few values (duplicates) and
    // from skewed top bits (crowded and empty buckets), k_no_key included; the values sit in
    // the bits a sorted key keeps (SortedKeys::k_key_bits: the low 32 carry its row).
    std::mt19937_64 rng(99);
    for (int round = 0; round < 400; ++round) {
      const int n_bench = static_cast<int>(rng() % 40), n_npu = static_cast<int>(rng() % 40);
      const std::uint64_t values = 1 + rng() % 20;
      const int skew = static_cast<int>(rng() % 64);
      auto draw = [&] {
        const std::uint64_t v = rng() % values;
        if (v == 0) return k_no_key;
        return KeyHash{(v * 0x9E3779B97F4A7C15ULL) >> skew, v << 32};
      };
      std::vector<KeyHash> bench(n_bench), npu(n_npu);
      for (auto& k : bench) k = draw();
      for (auto& k : npu) k = draw();
      Pairs expected(npu.size());
      std::vector<bool> taken(bench.size(), false);
      for (std::size_t i = 0; i < npu.size(); ++i) {
        if (npu[i] == k_no_key) continue;
        std::vector<std::uint32_t> rows;
        for (std::uint32_t j = 0; j < bench.size(); ++j)
          if (bench[j] == npu[i]) rows.push_back(j);
        if (rows.size() == 1) expected[i] = rows[0];
        for (std::size_t r = 0; rows.size() > 1 && r < rows.size(); ++r)
          if (!taken[rows[r]]) {
            expected[i] = rows[r];
            taken[rows[r]] = true;
            break;
          }
      }
      CAPTURE(round);
      CHECK(pair_hashed(npu, bench, false) == expected);
      auto sorted = sort_keys(bench);
      CHECK(sorted.bucket.size() >= sorted.keyed.size() + 1);  // about one key a bucket, or fewer
      CHECK(pair_sorted(npu, sorted) == expected);
    }
  }
  TEST_CASE("fuzzy pairing stays fast when the sides never pair") {
    auto npu = dump(), bench = dump();
    for (int i = 0; i < 200'000; ++i) {
      add(npu, "Tensor.a" + std::to_string(i) + ".0.forward", {".input.0"});
      add(bench, "Tensor.b" + std::to_string(i) + ".0.forward", {".input.0"});
    }
    MatchOptions fuzzy;
    fuzzy.fuzzy = true;
    const auto m = match_rows(npu, bench, fuzzy);  // quadratic would be 4e10 key tests
    CHECK(m.bench_only.size() == 200'000);
  }
  TEST_CASE("data mapping: mapped rows pair as written, backward rows are renumbered on both sides") {
    auto npu = dump(), bench = dump();
    add(npu, "Tensor.__mul__.1.forward", {".input.0"}, "<class 'float'>");
    add(npu, "Functional.linear.4.backward", {".input.0"});
    add(npu, "Functional.linear.2.backward", {".input.0"});
    add(npu, "Tensor.__mul__.7.backward", {".input.0"});
    add(bench, "Tensor.__mul__.0.forward", {".input.0"}, "torch.float32");
    add(bench, "Functional.linear.1.backward", {".input.0"});
    add(bench, "Functional.linear.0.backward", {".input.0"});
    add(bench, "Tensor.__mul__.9.backward", {".input.0"});
    add(bench, "Tensor.__mul__.5.backward", {".input.0"});
    auto dm = parse_data_mapping(
        "Tensor.__mul__.1.forward.input.0: Tensor.__mul__.0.forward.input.0\n"
        "Tensor.__mul__.7.backward.input.0: Tensor.__mul__.5.backward.input.0\n",
        "dm.yaml");
    REQUIRE(dm);
    MatchOptions o;
    o.data_mapping = &*dm;
    const auto m = match_rows(npu, bench, o);
    // row 0: mapped, dtype gate off; rows 1-2: backward order as in exact mode (msprobe pairs
    // npu linear.4 with bench linear.0 here); row 3: the mapped name is renumbered like the bench's
    // (the first Tensor.__mul__ backward of each side), so it pairs with bench __mul__.9.
    CHECK(m.bench_of == Pairs{0, 1, 2, 3});
    CHECK(m.bench_only == std::vector<std::uint32_t>{4});
    o.fuzzy = true;  // a data mapping takes precedence
    CHECK(match_rows(npu, bench, o).bench_of == Pairs{0, 1, 2, 3});
  }
  TEST_CASE("cell mapping: Cell names pair with Module names, backward rows renumbered on both sides") {
    auto npu = dump("mindspore"), bench = dump();
    add(npu, "Cell.net.fc.Dense.forward.0", {".input.0", ".output.0"}, "Float32");
    add(npu, "Cell.net.fc.Dense.backward.3", {".input.0"}, "Float32");
    add(npu, "Cell.net.fc.Dense.backward.1", {".input.0"}, "Float32");
    add(npu, "Functional.relu.0", {".input.0"}, "Float32");  // no direction: unmatchable
    add(bench, "Module.net.fc.Linear.forward.0", {".input.0", ".output.0"});
    add(bench, "Module.net.fc.Linear.backward.0", {".input.0"});
    add(bench, "Module.net.fc.Linear.backward.1", {".input.0"});
    add(bench, "Functional.relu.0", {".input.0"});
    auto cm = parse_cell_mapping("Dense: Linear\n", "cm.yaml");
    REQUIRE(cm);
    MatchOptions o;
    o.cell_mapping = &*cm;
    const auto m = match_rows(npu, bench, o);
    CHECK(m.bench_of == Pairs{0, 1, 2, 3, std::nullopt});
    CellMapping none;
    o.cell_mapping = &none;
    CHECK(match_rows(npu, bench, o).bench_of == Pairs{std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  }
  TEST_CASE("api mapping: MindSpore names pair with PyTorch names, only across frameworks") {
    auto npu = dump("mindspore"), bench = dump();
    add(npu, "Mint.add.0.forward", {".input.0", ".input.1", ".output.0"}, "Float32");
    add(npu, "Functional.concat.0.forward", {".input.0.0", ".output.0"}, "BFloat16");
    add(npu, "Mint.where.0.forward", {".input.0", ".input.1", ".input.2"}, "Float32");
    add(bench, "Torch.add.0.forward", {".input.0", ".input.1", ".output.0"});
    add(bench, "Torch.cat.0.forward", {".input.0.0", ".output.0"});
    add(bench, "Torch.where.0.forward", {".input.0", ".input.1", ".input.2"});
    MatchOptions o;
    const auto plain = match_rows(npu, bench, o);
    CHECK(plain.bench_of == Pairs(8));
    auto am = parse_api_mapping("- {ms_api: Mint.where, pt_api: Torch.where, ms_args: [0, 1], pt_args: [1, 0]}\n",
                                "am.yaml");
    REQUIRE(am);
    o.api_mapping = &*am;
    const auto m = match_rows(npu, bench, o);
    CHECK(m.bench_of == Pairs{0, 1, 2, 3, 4, 6, 5, std::nullopt});
    CHECK(m.bench_only == std::vector<std::uint32_t>{7});
    // fuzzy keys after the translation; the queue algorithm does not pair swapped arguments
    o.fuzzy = true;
    CHECK(match_rows(npu, bench, o).bench_of == Pairs{0, 1, 2, 3, 4, std::nullopt, 5, std::nullopt});
    npu.framework = "pytorch";  // same framework: names as they are
    o.fuzzy = false;
    CHECK(match_rows(npu, bench, o).bench_of == Pairs(8));
  }
  TEST_CASE("fuzzy pairing of a real pair with one extra call equals the recorded expectation") {
    // testdata/compare/cnn_extra_call: the NPU run calls relu once more; EXPECTED_FUZZY.json
    // lists every NPU row with its bench partner in each table mode.
    const auto expected = pyjson::parse_json(testing::slurp(testing::testdata("compare/cnn_extra_call/EXPECTED_FUZZY.json")));
    REQUIRE(expected);
    for (const char* run : {"L1_statistics", "L1_md5", "L1_tensor"}) {
      CAPTURE(run);
      const auto npu = read_rows(std::string("compare/cnn_extra_call/") + run + "/npu/step0/rank0/dump.json");
      const auto bench = read_rows(std::string("compare/cnn_extra_call/") + run + "/bench/step0/rank0/dump.json");
      MatchOptions fuzzy;
      fuzzy.fuzzy = true;
      const auto got = pairing(npu, bench, match_rows(npu, bench, fuzzy));
      std::vector<std::string> want;
      for (const auto& item : expected->find("runs")->find(run)->as_array()) {
        const auto* b = item.find("bench");
        want.push_back(item.find("npu")->as_string() + " -> " + (b->is_null() ? std::string() : b->as_string()));
      }
      CHECK(got == want);
    }
  }
}
