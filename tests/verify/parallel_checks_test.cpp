// The parallel entry checks (parallel_checks.h on dump/entry_workers.h) against the
// one-entry-at-a-time pass: the same findings (every field, in order), summary and entry names,
// for any number of threads, on every dump.json in testdata, on a generated dump of many chunks
// with findings scattered through it, and on broken copies (which the parallel pass hands back
// to the other).

#include "verify/parallel_checks.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdio>
#include <span>
#include <filesystem>
#include <string>
#include <vector>

#include "test_util.h"
#include "verify/verify.h"

using namespace msdump;
using namespace msdump::verify;

namespace {

std::string describe(const VerifyReport& r) {
  std::string s = fmt::format("{} {} {} {} {} {} {} {} {} {}\n", to_string(r.summary.framework), r.summary.task,
                              r.summary.level, r.summary.entries, r.summary.leaves, r.summary.tensors_checked,
                              r.summary.errors, r.summary.warnings, r.summary.dropped, r.summary.bytes);
  for (const auto& [k, n] : r.summary.by_kind) s += fmt::format("{}={} ", k, n);
  s += r.summary.profile ? std::string(to_string(*r.summary.profile)) : "undetermined";  // (the evidence of both passes)
  s += "\n";
  for (const Finding& f : r.findings)
    s += fmt::format("{}|{}|{}|{}|{}|{}|{}|{}:{}\n", static_cast<int>(f.severity), to_string(f.kind), f.entry, f.pointer,
                     f.expected, f.actual, f.message, f.file, f.line);
  for (const auto& n : r.entry_names) s += n + "\n";
  return s;
}

std::string verify_text(VerifyOptions o, bool parallel, int threads) {
  o.parallel_entries = parallel;
  o.threads = threads;
  o.keep_entry_names = true;
  auto r = verify_dump(o);
  REQUIRE(r);
  return describe(*r);
}

// Every way of running the parallel pass gives what the one-entry-at-a-time pass gives.
void check_same(const VerifyOptions& o) {
  const std::string reference = verify_text(o, false, 1);
  for (const int threads : {1, 2, 3, 5}) {
    CAPTURE(threads);
    CHECK(verify_text(o, true, threads) == reference);
  }
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  FILE* f = std::fopen(p.string().c_str(), "wb");
  REQUIRE(f != nullptr);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

// A current-profile PyTorch mix dump of `n` API entries (json.dump(indent=1) layout), with
// findings scattered through it: a wrong dtype every 97th entry, Min above Max every 131st, a
// repeated entry name, a repeated key, an entry name with escapes, an entry that is a number.
std::string generated_dump(int n) {
  std::string s = "{\n \"task\": \"statistics\",\n \"level\": \"mix\",\n \"framework\": \"pytorch\",\n \"dump_data_dir\": null,\n \"data\": {";
  for (int i = 0; i < n; ++i) {
    s += i == 0 ? "\n" : ",\n";
    std::string name = fmt::format("Torch.add.{}.forward", i);
    if (i == 1500) name = "Torch.add.7.forward";                 // a name seen before
    if (i == 1700) name = "Torch.a\\\"d\\\\d.1700.forward";       // escapes in the name
    if (i == 1800) {
      s += "  \"Torch.mul.0.forward\": 5";  // not an object: the schema's finding
      continue;
    }
    const char* dtype = i % 97 == 13 ? "torch.float99" : "torch.float32";
    const double max = 1.5 + i, min = i % 131 == 7 ? 9e9 : -0.25;
    s += fmt::format("  \"{}\": {{\n   \"input_args\": [\n    {{\n     \"type\": \"torch.Tensor\",\n     \"dtype\": \"{}\",\n"
                     "     \"shape\": [\n      2,\n      3\n     ],\n     \"Max\": {},\n     \"Min\": {},\n     \"Mean\": 0.5,\n"
                     "     \"Norm\": 3.25,\n     \"requires_grad\": false{}\n    }}\n   ],\n   \"input_kwargs\": {{}},\n"
                     "   \"output\": [\n    {{\n     \"type\": \"int\",\n     \"value\": {}\n    }}\n   ]\n  }}",
                     name, dtype, max, min, i == 2100 ? ",\n     \"dtype\": \"torch.float32\"" : "", i);
  }
  s += "\n }\n}";
  return s;
}

}  // namespace

TEST_SUITE("msdump::verify") {
  TEST_CASE("entry workers: the same report as one entry at a time, for every dump.json in testdata") {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(testing::source_dir() / "testdata")) {
      if (!e.is_regular_file() || e.path().filename() != "dump.json") continue;
      CAPTURE(e.path().string());
      ++files;
      VerifyOptions o;
      o.path = e.path().string();
      o.check_tensors = false;  // (with tensor files the entries are checked one at a time anyway)
      check_same(o);
    }
    CHECK(files >= 50);
  }

  TEST_CASE("entry workers: the same report with a given profile, on dumps of older generations") {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(testing::source_dir() / "testdata/generations")) {
      if (!e.is_regular_file() || e.path().filename() != "dump.json") continue;
      ++files;
      for (const Profile p : {Profile::current, Profile::legacy}) {
        CAPTURE(e.path().string());
        CAPTURE(to_string(p));
        VerifyOptions o;
        o.path = e.path().string();
        o.profile = p;
        check_same(o);
      }
    }
    CHECK(files >= 7);
  }

  TEST_CASE("entry workers: the same report on a dump of many chunks, with caps, warn-only and broken copies") {
    testing::TempDir dir;
    const std::string text = generated_dump(3000);
    REQUIRE(text.size() > 8 * dump::EntryWorkers::k_chunk_bytes);
    VerifyOptions o;
    o.path = (dir / "dump.json").string();
    write_file(o.path, text);
    const std::string reference = verify_text(o, false, 1);
    CHECK(reference.find("torch.float99") != std::string::npos);
    CHECK(reference.find("entry name appears more than once") != std::string::npos);
    CHECK(reference.find("appears more than once\n") == std::string::npos);
    check_same(o);
    o.max_findings = 5;
    o.warn_only = {FindingKind::schema};
    check_same(o);
    o.max_findings = 0;
    o.warn_only.clear();
    // Broken at 3 points: a missing ':' inside an entry, a bracket too many, cut short. The
    // parallel pass gives up and the report is the one-at-a-time pass's (with its json finding).
    for (const double at : {0.3, 0.6, 0.9}) {
      std::string broken = text;
      const std::size_t p = broken.find("\"Norm\":", static_cast<std::size_t>(at * static_cast<double>(text.size())));
      REQUIRE(p != std::string::npos);
      std::string missing_colon = broken;
      missing_colon[p + 6] = ' ';
      write_file(o.path, missing_colon);
      check_same(o);
      std::string extra_bracket = broken;
      extra_bracket.insert(p, "[");
      write_file(o.path, extra_bracket);
      check_same(o);
      write_file(o.path, broken.substr(0, p));
      check_same(o);
      CHECK(verify_text(o, true, 2).find("unexpected end of input") != std::string::npos);
    }
  }
}
