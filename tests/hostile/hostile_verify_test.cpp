// Hostile inputs to verify: data_name leaving the tensor directory ("..", an absolute path), a
// tensor file that is a link (refused wherever it points: inside the dump, outside, nowhere), a
// FIFO or a directory where a tensor file should be. Each gives a finding on the leaf's data_name (file and line of dump.json,
// JSON pointer, the tensor path in the message), never a hang or a read outside the dump:
// a tensor read outside would count as checked (43 instead of 42) and would find nothing.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "test_util.h"
#include "verify/verify.h"

using namespace msdump;
using namespace msdump::verify;
namespace fs = std::filesystem;

namespace {

// A real msprobe tensor dump (43 tensor files), copied so it can be damaged.
const char* const k_dump = "good/msprobe/cnn_L0_tensor_all_step0";
const char* const k_file = "Module.conv1.Conv2d.forward.0.input.0.pt";
const char* const k_pointer = "/data/Module.conv1.Conv2d.forward.0/input_args/0/data_name";

struct Dump {
  testing::TempDir tmp;
  fs::path rank = tmp / "rank0";
  fs::path tensors = rank / "dump_tensor_data";
  fs::path target = tensors / k_file;
  fs::path outside = tmp / k_file;  // the same tensor, outside the dump

  Dump() {
    fs::copy(testing::testdata(k_dump), rank, fs::copy_options::recursive);
    fs::copy_file(target, outside);
  }
  // The message refusing a link along the leaf's tensor file name.
  std::string link_refused(const fs::path& link) const {
    const std::string why = "' is a symbolic link: files inside '" + rank.string() + "' are opened without following links";
    return link == target ? "'" + target.string() + why : "'" + target.string() + "': '" + link.string() + why;
  }
  // Replaces the leaf's data_name in dump.json.
  void rename_in_json(const std::string& data_name) const {
    std::string text = testing::slurp(rank / "dump.json");
    const std::string from = std::string("\"data_name\": \"") + k_file + "\"";
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), "\"data_name\": \"" + data_name + "\"");
    std::ofstream(rank / "dump.json", std::ios::binary) << text;
  }
  VerifyReport verify() const {
    VerifyOptions o;
    o.path = rank.string();
    auto r = verify_dump(o);
    REQUIRE_MESSAGE(r, r.error().message);
    return std::move(*r);
  }
};

// The findings of `kind` at the leaf's data_name.
std::vector<Finding> at_leaf(const VerifyReport& r, FindingKind kind) {
  std::vector<Finding> out;
  for (const auto& f : r.findings)
    if (f.kind == kind && f.pointer == k_pointer) out.push_back(f);
  return out;
}

// The one `file` finding at the leaf, located in dump.json.
Finding file_finding(const Dump& d, const VerifyReport& r) {
  const auto found = at_leaf(r, FindingKind::file);
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::error);
  CHECK(found[0].entry == "Module.conv1.Conv2d.forward.0");
  CHECK(found[0].file == (d.rank / "dump.json").string());
  CHECK(found[0].line == 7);  // the entry's line
  return found[0];
}

}  // namespace

TEST_SUITE("msdump::hostile") {
  TEST_CASE("verify: the undamaged copy is clean, all 43 tensors read") {
    Dump d;
    const auto r = d.verify();
    CHECK(r.summary.errors == 0);
    CHECK(r.summary.tensors_checked == 43);
  }

  TEST_CASE("verify: data_name may not leave the tensor directory") {
    Dump d;
    SUBCASE("..") {
      d.rename_in_json(std::string("../../") + k_file);
      const auto r = d.verify();
      CHECK(file_finding(d, r).message == "data_name \"../../" + std::string(k_file) + "\" is not a file name inside " +
                                              d.tensors.string());
      CHECK(r.summary.tensors_checked == 42);
    }
    SUBCASE("absolute") {
      d.rename_in_json(d.outside.string());
      const auto r = d.verify();
      CHECK(file_finding(d, r).message ==
            "data_name \"" + d.outside.string() + "\" is not a file name inside " + d.tensors.string());
      CHECK(r.summary.tensors_checked == 42);
    }
  }

  TEST_CASE("verify: a tensor file that is a link is refused, wherever it points") {
    Dump d;
    fs::remove(d.target);
    SUBCASE("to a file inside the dump") {
      fs::copy_file(d.outside, d.rank / k_file);
      fs::create_symlink(fs::path("..") / k_file, d.target);
    }
    SUBCASE("to a file outside the dump") {
      fs::create_symlink(d.outside, d.target);
    }
    SUBCASE("dangling") {
      fs::create_symlink("nowhere.pt", d.target);
    }
    const auto r = d.verify();
    const auto f = file_finding(d, r);
    CHECK(f.message == d.link_refused(d.target));
    CHECK(f.expected == "a file inside " + d.rank.string() + ", no link along its name");
    CHECK(r.summary.tensors_checked == 42);
    CHECK(at_leaf(r, FindingKind::missing).empty());
  }

  TEST_CASE("verify: dump_tensor_data/ itself a link to elsewhere is refused (it is a name inside the dump)") {
    Dump d;
    const fs::path elsewhere = d.tmp / "elsewhere";
    fs::rename(d.tensors, elsewhere);
    fs::create_directory_symlink(elsewhere, d.tensors);
    const auto r = d.verify();
    CHECK(file_finding(d, r).message == d.link_refused(d.tensors));
    CHECK(r.summary.tensors_checked == 0);
    // --tensors names the directory explicitly (the user's own argument): a link to it is followed.
    VerifyOptions o;
    o.path = d.rank.string();
    o.tensors = d.tensors.string();
    auto explicit_dir = verify_dump(o);
    REQUIRE(explicit_dir);
    CHECK(explicit_dir->summary.errors == 0);
    CHECK(explicit_dir->summary.tensors_checked == 43);
  }

  TEST_CASE("verify: a special file where a tensor file should be") {
    Dump d;
    fs::remove(d.target);
    SUBCASE("a FIFO (no writer: must not hang)") {
      REQUIRE(::mkfifo(d.target.c_str(), 0600) == 0);
    }
    SUBCASE("a directory") {
      fs::create_directory(d.target);
    }
    const auto r = d.verify();
    CHECK(file_finding(d, r).message == "'" + d.target.string() + "' is not a regular file");
    CHECK(r.summary.tensors_checked == 42);
    CHECK(at_leaf(r, FindingKind::missing).empty());
  }
}
