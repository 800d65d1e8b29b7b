// Hostile inputs to convert: tensor paths that leave the input directory (via "..", an absolute
// path) or have a symlink along them (refused wherever it points), special files where tensors
// should be, and trace lines nested too deep.
// Each test builds its input in a fresh temporary directory next to an "outside" file that
// convert must never read.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "convert/convert.h"
#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

namespace {

// A 3x4 float32 tensor file.
const char* const k_tensor = "good/tensors/f32.pt";

struct Layout {
  testing::TempDir tmp;
  fs::path in = tmp / "in";
  fs::path out = tmp / "out";
  fs::path outside = tmp / "outside.pt";  // a valid tensor outside the input

  Layout() {
    fs::create_directories(in);
    fs::copy_file(testing::testdata(k_tensor), outside);
  }
  void write(const fs::path& p, const std::string& text) const {
    std::ofstream f(p, std::ios::binary);
    f << text;
    REQUIRE(f.good());
  }
  // "<in>/<file:line>: ", how convert prefixes a message about an input line.
  std::string at(const std::string& file_line) const { return (in / file_line).string() + ": "; }
  // The end of the message refusing a link inside the input.
  std::string no_links() const { return ": files inside '" + in.string() + "' are opened without following links"; }
  Result<convert::ConvertReport> convert(std::optional<Task> task = std::nullopt) const {
    convert::ConvertOptions o;
    o.input = in.string();
    o.output = out.string();
    o.task = task;
    return convert::convert_one(o);
  }
};

std::string leaf(const std::string& location_key, const std::string& location) {
  return "{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [3, 4], \"requires_grad\": false, \"" +
         location_key + "\": " + location + "}";
}

// A capture whose one data event reads `file`.
void write_capture(const Layout& l, const std::string& file) {
  l.write(l.in / "trace.jsonl",
          "{\"format\": \"msdump-trace\", \"version\": 1, \"framework\": \"pytorch\", \"level\": \"L1\"}\n"
          "{\"kind\": \"data\", \"name\": \"Torch.add.0.forward\", \"input_args\": [" +
              leaf("source", "{\"file\": \"" + file + "\"}") + "], \"input_kwargs\": {}}\n");
}

// An msprobe tensor dump whose one leaf names `data_name`.
void write_dump(const Layout& l, const std::string& data_name) {
  fs::create_directories(l.in / "dump_tensor_data");
  l.write(l.in / "dump.json",
          "{\"task\": \"tensor\", \"level\": \"L1\", \"framework\": \"pytorch\", \"dump_data_dir\": \"x\", \"data\": {\n"
          "\"Torch.add.0.forward\": {\"input_args\": [" +
              leaf("data_name", "\"" + data_name + "\"") + "], \"input_kwargs\": {}}}}\n");
}

// Problems of a report, one string each.
std::vector<std::string> problems(const convert::ConvertReport& r) {
  std::vector<std::string> out;
  for (const auto& p : r.problems) out.push_back(p.to_string());
  return out;
}

std::string error_of(const Result<convert::ConvertReport>& r) { return r ? "ok" : r.error().message; }

}  // namespace

TEST_SUITE("msdump::hostile") {
  TEST_CASE("a capture's source.file may not leave the capture") {
    Layout l;
    SUBCASE("..") {
      write_capture(l, "../outside.pt");
      CHECK(error_of(l.convert()) == l.at("trace.jsonl:2") + "/input_args/0/source/file: \"../outside.pt\" must be a relative path inside the capture");
    }
    SUBCASE("absolute") {
      write_capture(l, l.outside.string());
      CHECK(error_of(l.convert()) == l.at("trace.jsonl:2") + "/input_args/0/source/file: \"" + l.outside.string() +
                                         "\" must be a relative path inside the capture");
    }
    SUBCASE("symlink") {
      fs::create_symlink(l.outside, l.in / "link.pt");
      write_capture(l, "link.pt");
      CHECK(error_of(l.convert()) ==
            l.at("trace.jsonl:2") + "/input_args/0: '" + l.in.string() + "/link.pt' is a symbolic link" + l.no_links());
    }
    SUBCASE("symlinked subdirectory") {
      fs::create_directory_symlink(l.tmp.path(), l.in / "up");
      write_capture(l, "up/outside.pt");
      CHECK(error_of(l.convert()) == l.at("trace.jsonl:2") + "/input_args/0: '" + l.in.string() + "/up/outside.pt': '" +
                                         l.in.string() + "/up' is a symbolic link" + l.no_links());
    }
  }

  TEST_CASE("an msprobe dump's data_name may not leave dump_tensor_data/") {
    Layout l;
    SUBCASE("..") {
      write_dump(l, "../../outside.pt");
      CHECK(error_of(l.convert()) ==
            l.at("dump.json:2") + "/input_args/0/data_name: \"../../outside.pt\" is not a file name inside dump_tensor_data/");
    }
    SUBCASE("absolute") {
      write_dump(l, l.outside.string());
      CHECK(error_of(l.convert()) == l.at("dump.json:2") + "/input_args/0/data_name: \"" + l.outside.string() +
                                         "\" is not a file name inside dump_tensor_data/");
    }
    SUBCASE("symlink in dump_tensor_data") {
      write_dump(l, "x.pt");
      fs::create_symlink(l.outside, l.in / "dump_tensor_data" / "x.pt");
      CHECK(error_of(l.convert()) == l.at("dump.json:2") + "/input_args/0: '" + l.in.string() +
                                         "/dump_tensor_data/x.pt' is a symbolic link" + l.no_links());
    }
    SUBCASE("dump_tensor_data itself a symlink") {
      fs::create_directory(l.tmp / "elsewhere");
      fs::copy_file(l.outside, l.tmp / "elsewhere" / "x.pt");
      fs::create_directory_symlink(l.tmp / "elsewhere", l.in / "dump_tensor_data");
      write_dump(l, "x.pt");
      CHECK(error_of(l.convert()) == l.at("dump.json:2") + "/input_args/0: '" + l.in.string() +
                                         "/dump_tensor_data/x.pt': '" + l.in.string() +
                                         "/dump_tensor_data' is a symbolic link" + l.no_links());
    }
    // Nothing was written next to the input, and the outside file is untouched.
    CHECK(testing::slurp(l.outside) == testing::slurp(testing::testdata(k_tensor)));
    CHECK_FALSE(fs::exists(l.out / "dump_tensor_data" / "outside.pt"));
  }

  TEST_CASE("a FIFO where a tensor should be is a problem, not a hang") {
    Layout l;
    write_dump(l, "x.pt");
    REQUIRE(::mkfifo((l.in / "dump_tensor_data" / "x.pt").c_str(), 0600) == 0);
    auto r = l.convert(Task::statistics);
    REQUIRE_MESSAGE(r, error_of(r));
    const auto found = problems(*r);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == l.at("dump.json:2") + "Torch.add.0.forward: /input_args/0: '" + l.in.string() +
                           "/dump_tensor_data/x.pt' is not a regular file");
  }

  TEST_CASE("a directory where a tensor should be is a problem naming it") {
    Layout l;
    write_dump(l, "x.pt");
    fs::create_directory(l.in / "dump_tensor_data" / "x.pt");
    auto r = l.convert(Task::statistics);
    REQUIRE_MESSAGE(r, error_of(r));
    const auto found = problems(*r);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == l.at("dump.json:2") + "Torch.add.0.forward: /input_args/0: '" + l.in.string() +
                           "/dump_tensor_data/x.pt' is not a regular file");
  }

  TEST_CASE("a tensor file linked to a file inside the input is refused too, and nothing is linked") {
    Layout l;
    write_dump(l, "x.pt");
    fs::copy_file(l.outside, l.in / "real.pt");
    fs::create_symlink("../real.pt", l.in / "dump_tensor_data" / "x.pt");
    for (auto task : {Task::tensor, Task::statistics}) {
      const std::string task_text(to_string(task));
      CAPTURE(task_text);
      CHECK(error_of(l.convert(task)) == l.at("dump.json:2") + "/input_args/0: '" + l.in.string() +
                                             "/dump_tensor_data/x.pt' is a symbolic link" + l.no_links());
      CHECK_FALSE(fs::exists(fs::symlink_status(l.out / "dump_tensor_data" / "Torch.add.0.forward.input.0.pt")));
      fs::remove_all(l.out);
    }
  }

  TEST_CASE("--task tensor hard-links the regular file it opened, never a link") {
    Layout l;
    write_dump(l, "x.pt");
    const auto source = l.in / "dump_tensor_data" / "x.pt";
    fs::copy_file(l.outside, source);
    auto r = l.convert(Task::tensor);
    REQUIRE_MESSAGE(r, error_of(r));
    CHECK(problems(*r).empty());
    CHECK(r->tensor_files == 1);
    const auto written = l.out / "dump_tensor_data" / "Torch.add.0.forward.input.0.pt";
    struct stat from {}, to {};
    REQUIRE(::lstat(source.c_str(), &from) == 0);
    REQUIRE(::lstat(written.c_str(), &to) == 0);
    CHECK(S_ISREG(to.st_mode));
    CHECK(to.st_ino == from.st_ino);
    CHECK(to.st_dev == from.st_dev);
    CHECK(to.st_nlink == 2);
  }

  TEST_CASE("a trace line nested 100000 deep fails with its line number") {
    Layout l;
    l.write(l.in / "trace.jsonl",
            "{\"format\": \"msdump-trace\", \"version\": 1, \"framework\": \"pytorch\", \"level\": \"L1\"}\n" +
                std::string(100000, '[') + std::string(100000, ']') + "\n");
    CHECK(error_of(l.convert()) == l.at("trace.jsonl:2") + "line 1, column 513: nesting deeper than 512 levels");
  }
}
