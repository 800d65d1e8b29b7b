#pragma once
// Opening a file named from inside a directory: a capture's source.file, an msprobe dump's
// data_name. The kernel resolves the name beneath a descriptor of the directory, in the same
// call that opens it, so there is no window between a check and the open, and no symbolic link
// anywhere along the name is followed (not the file, not a subdirectory such as
// dump_tensor_data/): a link is refused, wherever it points. The directory itself is the user's
// argument and is opened by its name, links in it followed.
//
// Where the kernel has it, one openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
// RESOLVE_NO_MAGICLINKS) call; where it has not (before Linux 5.6, or a seccomp filter refusing
// the call: ENOSYS, EPERM, EINVAL), a walk: each directory of the name opened with
// openat(O_NOFOLLOW | O_DIRECTORY) from the previous one, then the file with O_NOFOLLOW.
// The file is opened non-blocking (a FIFO never waits for a writer) and must be a regular file.

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/byte_source.h"
#include "core/result.h"

namespace msdump {

struct BeneathOptions {
  // false: always the walk (tests cover it on kernels that have openat2).
  bool use_openat2 = true;
  // Tests: called in the walk after each directory of the name is opened, with the name's
  // part up to it, so a swap of what follows can be staged at a known point.
  std::function<void(std::string_view walked)> after_directory;
};

// Opens `name`, a relative path, read-only beneath `dir`; the file is named "<dir>/<name>" in
// messages ("<name>" when `dir` is "."). "." and empty components are skipped.
// invalid_input (naming the path, the directory and why): `name` is empty or absolute, has a
// ".." component, or a symbolic link is met along it. io_error: `dir` cannot be opened, the
// file or one of its directories is missing or unreadable, a directory of the name is not a
// directory, the file is not a regular file.
Result<std::unique_ptr<FileSource>> open_beneath(const std::string& dir, std::string_view name,
                                                 const BeneathOptions& options = {});

// Whether open_beneath opens with openat2: the last call it made succeeded (false before the
// first, and for good once the kernel refused it). For diagnostics and tests.
bool beneath_uses_openat2();

// How `name` beneath `dir` is named in messages.
std::string beneath_path(const std::string& dir, std::string_view name);

}  // namespace msdump
