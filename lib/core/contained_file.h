#pragma once
// Opening a file that must stay inside a directory: a tensor file named by a capture's
// source.file or a dump's data_name. Links are followed, but the file they resolve to must lie
// inside the directory; it is checked by name before the open (nothing outside is ever opened)
// and again on the open descriptor (a link swapped in between is caught). Special files are
// refused without blocking: a FIFO is opened non-blocking and anything but a regular file
// (FIFO, directory, device, socket) is an error naming the path.

#include <memory>
#include <string>

#include "core/byte_source.h"
#include "core/result.h"

namespace msdump {

// Whether `path`, once every link is resolved, lies inside `dir` (links in `dir` itself
// resolved too). invalid_input (naming both paths) when it lies outside; io_error when the path
// cannot be resolved (missing, a dangling link, an unreadable directory).
Result<void> check_resolved_inside(const std::string& path, const std::string& dir);

// The same on an open descriptor (via /proc/self/fd); a no-op without /proc.
Result<void> check_opened_inside(int fd, const std::string& path, const std::string& dir);

// Opens `path` read-only after both checks. invalid_input when it resolves outside `dir`;
// io_error when it is missing, unreadable or not a regular file.
Result<std::unique_ptr<FileSource>> open_file_inside(const std::string& path, const std::string& dir);

}  // namespace msdump
