#include "core/beneath.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const char* text) { std::ofstream(p, std::ios::binary) << text; }

// A directory "in" with "a.bin" and "sub/b.bin", next to an "outside" file it must never reach.
struct Dirs {
  testing::TempDir tmp;
  fs::path in = tmp / "in";
  fs::path outside = tmp / "outside.bin";
  Dirs() {
    fs::create_directories(in / "sub");
    write_file(in / "a.bin", "abcd");
    write_file(in / "sub" / "b.bin", "xyz");
    write_file(outside, "efgh");
  }
  std::string p(const std::string& name) const { return (in / name).string(); }
  std::string dir() const { return in.string(); }
};

// The message of opening `name` beneath `dir` ("ok: <size>" when it opened), by one method.
std::string outcome(const std::string& dir, const std::string& name, bool openat2) {
  BeneathOptions o;
  o.use_openat2 = openat2;
  auto r = open_beneath(dir, name, o);
  if (r) return "ok: " + std::to_string((*r)->size()) + " " + (*r)->name();
  return std::string(r.error().code == ErrorCode::invalid_input ? "invalid: " : "io: ") + r.error().message;
}

const char* method_name(bool openat2) { return openat2 ? "openat2" : "walk"; }

// Whether this kernel (and seccomp filter) lets a process call openat2 at all.
bool kernel_has_openat2() {
  struct open_how how {};
  how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  const long fd = ::syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
  if (fd < 0) return false;
  ::close(static_cast<int>(fd));
  return true;
}

}  // namespace

TEST_SUITE("msdump::core") {
  TEST_CASE("open_beneath: both methods give the same answers") {
    Dirs d;
    for (bool openat2 : {true, false}) {
      CAPTURE(method_name(openat2));
      CHECK(outcome(d.dir(), "a.bin", openat2) == "ok: 4 " + d.p("a.bin"));
      // Where the kernel has openat2, the first method is really openat2, not a silent walk.
      if (openat2 && kernel_has_openat2()) CHECK(beneath_uses_openat2());
      if (openat2 && !kernel_has_openat2()) MESSAGE("openat2 is unavailable here: both runs walk");
      CHECK(outcome(d.dir(), "sub/b.bin", openat2) == "ok: 3 " + d.p("sub/b.bin"));
      CHECK(outcome(d.dir(), "./sub//b.bin", openat2) == "ok: 3 " + d.p("./sub//b.bin"));
      write_file(d.in / "..a.bin", "xy");
      CHECK(outcome(d.dir(), "..a.bin", openat2) == "ok: 2 " + d.p("..a.bin"));

      CHECK(outcome(d.dir(), "../outside.bin", openat2) ==
            "invalid: '../outside.bin' has a '..' component: a file inside '" + d.dir() +
                "' may not name what is outside it");
      CHECK(outcome(d.dir(), "sub/../a.bin", openat2) ==
            "invalid: 'sub/../a.bin' has a '..' component: a file inside '" + d.dir() +
                "' may not name what is outside it");
      CHECK(outcome(d.dir(), d.outside.string(), openat2) == "invalid: '" + d.outside.string() +
                                                                "' is an absolute path: a file inside '" + d.dir() +
                                                                "' is named relative to it");
      CHECK(outcome(d.dir(), "", openat2) == "invalid: an empty name is no file inside '" + d.dir() + "'");
      CHECK(outcome(d.dir(), "./", openat2) == "invalid: './' names no file inside '" + d.dir() + "'");

      CHECK(outcome(d.dir(), "missing.bin", openat2) ==
            "io: cannot open '" + d.p("missing.bin") + "': No such file or directory");
      CHECK(outcome(d.dir(), "nosub/b.bin", openat2) ==
            "io: cannot open '" + d.p("nosub/b.bin") + "': No such file or directory");
      CHECK(outcome(d.dir(), "a.bin/b.bin", openat2) == "io: cannot open '" + d.p("a.bin/b.bin") + "': Not a directory");
      CHECK(outcome((d.tmp / "nodir").string(), "a.bin", openat2) ==
            "io: cannot open the directory '" + (d.tmp / "nodir").string() + "': No such file or directory");
    }
  }

  TEST_CASE("open_beneath: no symbolic link along the name is followed, wherever it points") {
    Dirs d;
    const std::string why = "files inside '" + d.dir() + "' are opened without following links";
    fs::create_symlink("a.bin", d.in / "inside.bin");                  // to a file inside
    fs::create_symlink(d.outside, d.in / "out.bin");                   // to a file outside
    fs::create_symlink("nowhere.bin", d.in / "dangling.bin");          // to nothing
    fs::create_directory_symlink("sub", d.in / "linked_sub");          // a directory inside
    fs::create_directory_symlink(d.tmp.path(), d.in / "up");           // a directory above
    for (bool openat2 : {true, false}) {
      CAPTURE(method_name(openat2));
      for (const char* leaf : {"inside.bin", "out.bin", "dangling.bin"})
        CHECK(outcome(d.dir(), leaf, openat2) == "invalid: '" + d.p(leaf) + "' is a symbolic link: " + why);
      CHECK(outcome(d.dir(), "linked_sub/b.bin", openat2) == "invalid: '" + d.p("linked_sub/b.bin") + "': '" +
                                                                 d.p("linked_sub") + "' is a symbolic link: " + why);
      CHECK(outcome(d.dir(), "up/outside.bin", openat2) ==
            "invalid: '" + d.p("up/outside.bin") + "': '" + d.p("up") + "' is a symbolic link: " + why);
    }
  }

  TEST_CASE("open_beneath: the directory itself may be reached through a link (the user named it)") {
    Dirs d;
    fs::create_directory_symlink(d.in, d.tmp / "via");
    for (bool openat2 : {true, false}) {
      CAPTURE(method_name(openat2));
      CHECK(outcome((d.tmp / "via").string(), "sub/b.bin", openat2) == "ok: 3 " + (d.tmp / "via/sub/b.bin").string());
    }
  }

  TEST_CASE("open_beneath: special files are refused at once, never waited on") {
    Dirs d;
    REQUIRE(::mkfifo(d.p("fifo.bin").c_str(), 0600) == 0);  // no writer: a blocking open would hang
    fs::create_directory(d.in / "dir.bin");
    for (bool openat2 : {true, false}) {
      CAPTURE(method_name(openat2));
      CHECK(outcome(d.dir(), "fifo.bin", openat2) == "io: '" + d.p("fifo.bin") + "' is not a regular file");
      CHECK(outcome(d.dir(), "dir.bin", openat2) == "io: '" + d.p("dir.bin") + "' is not a regular file");
      CHECK(outcome(d.dir(), "sub", openat2) == "io: '" + d.p("sub") + "' is not a regular file");
    }
  }

  TEST_CASE("open_beneath: the walk holds each directory it opened; a link swapped in after is refused") {
    Dirs d;
    const std::string why = "files inside '" + d.dir() + "' are opened without following links";
    BeneathOptions o;
    o.use_openat2 = false;
    std::vector<std::string> walked;
    SUBCASE("the file swapped for a link to outside once its directory is open") {
      o.after_directory = [&](std::string_view w) {
        walked.emplace_back(w);
        fs::remove(d.in / "sub" / "b.bin");
        fs::create_symlink(d.outside, d.in / "sub" / "b.bin");
      };
      auto r = open_beneath(d.dir(), "sub/b.bin", o);
      REQUIRE_FALSE(r);
      CHECK(r.error().code == ErrorCode::invalid_input);
      CHECK(r.error().message == "'" + d.p("sub/b.bin") + "' is a symbolic link: " + why);
    }
    SUBCASE("the opened directory renamed away and a link to outside put in its place") {
      write_file(d.tmp / "b.bin", "outside!");
      o.after_directory = [&](std::string_view w) {
        walked.emplace_back(w);
        fs::rename(d.in / "sub", d.in / "moved");
        fs::create_directory_symlink(d.tmp.path(), d.in / "sub");
      };
      auto r = open_beneath(d.dir(), "sub/b.bin", o);
      REQUIRE(r);
      CHECK((*r)->size() == 3);  // the file of the directory that was opened, not "outside!"
    }
    CHECK(walked == std::vector<std::string>{"sub"});
  }
}
