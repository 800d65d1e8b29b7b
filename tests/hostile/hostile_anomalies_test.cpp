// Hostile inputs to anomalies: a tensor file (or dump_tensor_data/ itself) that is a symbolic
// link is refused wherever it points, naming the file and the link, as in convert and verify:
// the counts come from files opened beneath the dump's directory (or beneath the directory given
// with --tensors, as verify does) without following links.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "anomalies/value_counts.h"
#include "pyjson/json_reader.h"
#include "tensor/npy_writer.h"
#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

namespace {

// A dump directory "rank" whose dump_tensor_data/ is to hold x.npy, and a valid x.npy beside it.
struct Rank {
  testing::TempDir tmp;
  fs::path rank = tmp / "rank";
  fs::path tensors = rank / "dump_tensor_data";
  fs::path real = rank / "real.npy";
  Rank() {
    fs::create_directories(tensors);
    tensor::Tensor t;
    t.dtype = DType::float32;
    t.shape = {2};
    t.data.resize(8);
    auto npy = tensor::write_npy(t.view());
    REQUIRE(npy);
    std::ofstream(real, std::ios::binary) << *npy;
  }
  std::string error_of(const fs::path& tensor_dir,
                       anomalies::OpenBeneath beneath = anomalies::OpenBeneath::dump_dir) const {
    auto leaf = *pyjson::parse_json(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "data_name": "x.npy"})");
    auto r = anomalies::count_leaf_file(leaf, tensor_dir.string(), beneath);
    return r ? "ok" : r.error().message;
  }
  std::string why() const {
    return "' is a symbolic link: files inside '" + rank.string() + "' are opened without following links";
  }
};

}  // namespace

TEST_SUITE("msdump::hostile") {
  TEST_CASE("anomalies: a tensor file that is a link, even to a file inside the dump, is refused") {
    Rank r;
    fs::copy_file(r.real, r.tensors / "x.npy");
    CHECK(r.error_of(r.tensors) == "ok");
    fs::remove(r.tensors / "x.npy");
    fs::create_symlink("../real.npy", r.tensors / "x.npy");
    CHECK(r.error_of(r.tensors) == "'" + (r.tensors / "x.npy").string() + r.why());
  }

  TEST_CASE("anomalies: dump_tensor_data/ that is a link is refused") {
    Rank r;
    fs::remove(r.tensors);
    fs::create_directories(r.tmp / "elsewhere");
    fs::copy_file(r.real, r.tmp / "elsewhere" / "x.npy");
    fs::create_directory_symlink(r.tmp / "elsewhere", r.tensors);
    CHECK(r.error_of(r.tensors) == "'" + (r.tensors / "x.npy").string() + "': '" + r.tensors.string() + r.why());
  }

  TEST_CASE("anomalies --tensors DIR: DIR itself may be a link (the user named it), a link inside it may not") {
    Rank r;
    fs::create_directories(r.tmp / "elsewhere");
    fs::copy_file(r.real, r.tmp / "elsewhere" / "x.npy");
    const fs::path given = r.tmp / "given";
    fs::create_directory_symlink(r.tmp / "elsewhere", given);
    CHECK(r.error_of(given, anomalies::OpenBeneath::tensor_dir) == "ok");
    fs::remove(r.tmp / "elsewhere" / "x.npy");
    fs::create_symlink(r.real, r.tmp / "elsewhere" / "x.npy");
    const std::string err = r.error_of(given, anomalies::OpenBeneath::tensor_dir);
    CHECK(err.find("is a symbolic link") != std::string::npos);
    CHECK(err.find((given / "x.npy").string()) != std::string::npos);
  }
}
