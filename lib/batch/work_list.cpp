#include "batch/work_list.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>

#include "dump/dump_paths.h"

namespace msdump::batch {
namespace {

namespace fs = std::filesystem;

bool is_input_dir(const fs::path& d) {
  std::error_code ec;
  return fs::is_regular_file(d / "trace.jsonl", ec) || fs::is_regular_file(d / dump::k_dump_json, ec);
}

void fill_step_rank(WorkItem& item) {
  for (const auto& part : fs::path(item.key)) {
    const std::string s = part.string();
    auto digits_after = [&](std::string_view prefix) {
      return s.size() > prefix.size() && s.starts_with(prefix) &&
             std::all_of(s.begin() + static_cast<std::ptrdiff_t>(prefix.size()), s.end(), ::isdigit);
    };
    if (digits_after("step")) item.step = s;
    else if (digits_after("rank") || digits_after("proc")) item.rank = s;
  }
  item.group = item.rank.empty() ? item.key : fs::path(item.key).parent_path().string();
}

}  // namespace

Result<std::vector<WorkItem>> discover(const std::vector<std::string>& roots) {
  std::vector<WorkItem> items;
  for (const auto& root : roots) {
    std::error_code ec;
    if (!fs::exists(root, ec)) return io_error(fmt::format("'{}': no such file or directory", root));
    const std::size_t before = items.size();
    auto add = [&](const fs::path& p, std::string relative) {
      WorkItem it;
      it.input = p.string();
      it.root = root;
      it.relative = std::move(relative);
      it.key = it.relative.empty() ? root : (fs::path(root) / it.relative).string();
      fill_step_rank(it);
      items.push_back(std::move(it));
    };
    if (fs::is_regular_file(root, ec) || is_input_dir(root)) {
      add(root, "");
      continue;
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) return io_error(fmt::format("cannot read '{}': {}", root, ec.message()));
    for (; it != end; it.increment(ec)) {
      if (ec) return io_error(fmt::format("cannot read '{}': {}", root, ec.message()));
      if (it->is_symlink(ec)) {  // never follow links out of the tree
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_directory(ec) || !is_input_dir(it->path())) continue;
      add(it->path(), it->path().lexically_relative(root).string());
      it.disable_recursion_pending();  // an input directory is a leaf of the tree
    }
    if (items.size() == before)
      return invalid_input(fmt::format("'{}': no dump.json or trace.jsonl found below it", root));
  }
  std::sort(items.begin(), items.end(), [](const WorkItem& a, const WorkItem& b) { return a.key < b.key; });
  items.erase(std::unique(items.begin(), items.end(), [](const WorkItem& a, const WorkItem& b) { return a.key == b.key; }),
              items.end());
  return items;
}

Result<std::vector<std::string>> read_path_list(std::istream& in, const std::string& name) {
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    out.push_back(line.substr(start));
  }
  if (in.bad()) return io_error(fmt::format("reading '{}' failed", name));
  if (out.empty()) return invalid_input(fmt::format("'{}': no paths listed", name));
  return out;
}

Result<Shard> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  auto num = [](std::string_view v, std::size_t& out) {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && p == v.data() + v.size() && !v.empty();
  };
  if (slash == std::string::npos || !num(std::string_view(text).substr(0, slash), s.index) ||
      !num(std::string_view(text).substr(slash + 1), s.count) || s.count == 0 || s.index >= s.count)
    return invalid_input(fmt::format("--shard: expected K/N with 0 <= K < N, got \"{}\"", text));
  return s;
}

std::vector<WorkItem> select_shard(const std::vector<WorkItem>& items, const Shard& shard) {
  std::vector<WorkItem> out;
  std::size_t group = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0 && items[i].group != items[i - 1].group) ++group;  // sorted by key: a group is contiguous
    if (group % shard.count == shard.index) out.push_back(items[i]);
  }
  return out;
}

}  // namespace msdump::batch
