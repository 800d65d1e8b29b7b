#pragma once
// The files of a dump directory, as msprobe names them (docs/format.md §1), and how a dump is
// found from what the user gives: dump.json itself, or the directory holding it.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace msdump::dump {

inline constexpr std::string_view k_dump_json = "dump.json";
inline constexpr std::string_view k_stack_json = "stack.json";
inline constexpr std::string_view k_construct_json = "construct.json";
inline constexpr std::string_view k_tensor_dir = "dump_tensor_data";  // tensor files of task tensor

// The dump.json a path names: the path itself, or <path>/dump.json for a directory. An io error
// naming the path when there is no such file or directory, or no dump.json in the directory.
Result<std::string> resolve_dump(const std::string& path);

// The tensor directory of the dump whose dump.json lies in `dump_dir`: `given` (the user's
// --tensors) when set, else dump_tensor_data/ beside dump.json. Whether it exists is the
// caller's question.
std::filesystem::path tensor_dir(const std::filesystem::path& dump_dir, const std::optional<std::string>& given);

}  // namespace msdump::dump
