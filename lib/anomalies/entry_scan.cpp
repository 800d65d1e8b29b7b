#include "anomalies/entry_scan.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "dump/entry_name.h"
#include "dump/leaf_walk.h"

namespace msdump::anomalies {
namespace {

using pyjson::Value;

enum class SectionRole { input, output, none };

SectionRole role_of(std::string_view section, Direction d) {
  if (d == Direction::parameters_grad) return SectionRole::output;
  if (section == "output") return SectionRole::output;
  if (section == "input_args" || section == "input_kwargs" || section == "parameters" || section == "input")
    return SectionRole::input;
  return SectionRole::none;
}

std::string overflowed_statistics(const Value& leaf, NonFinite& values) {
  std::string names;
  for (const char* key : {"Mean", "Norm"}) {
    const Value* v = leaf.find(key);
    const double* d = v != nullptr ? v->if_float() : nullptr;
    if (d == nullptr || std::isfinite(*d)) continue;
    values.merge(nonfinite_of(*d));
    names += names.empty() ? key : fmt::format(" and {}", key);
  }
  return names;
}

// Walks one section, noting what the scan keeps.
class SectionScan {
 public:
  SectionScan(EntryScan& out, const ScanOptions& o, const std::string& prefix, const std::string& section, SectionRole role)
      : m_out(out), m_options(o), m_prefix(prefix), m_section(section), m_role(role) {}

  void leaf(const Value& leaf, dump::LeafKind kind, const std::vector<std::string>& path) {
    if (m_out.error) return;
    if (kind == dump::LeafKind::value) return value_leaf(leaf, path);
    if (kind != dump::LeafKind::tensor && kind != dump::LeafKind::ndarray) return;
    const StatsVerdict stats = judge_tensor_stats(leaf);
    LeafNote note;
    note.values = stats.values;
    note.dtype = stats.dtype;
    note.max_abs = stats.max_abs;
    if (m_options.tensor_dir) {
      auto counts = count_leaf_file(leaf, *m_options.tensor_dir, m_options.tensor_dir_beneath);
      if (!counts) {
        m_out.error = counts.error().with_context(fmt::format("entry \"{}\"", m_out.name));
        return;
      }
      if (*counts) {
        note.counts = **counts;
        note.values = (*counts)->flags();
        note.max_abs = (*counts)->max_abs;
      }
    }
    if (m_role == SectionRole::input) {
      if (note.values.any() && !m_out.tensor_input) m_out.tensor_input = finish(std::move(note), path);
    } else if (note.values.any()) {
      m_out.outputs.push_back(finish(std::move(note), path));
    } else {
      output_warnings(leaf, stats, std::move(note), path);
    }
  }

 private:
  void value_leaf(const Value& leaf, const std::vector<std::string>& path) {
    LeafNote note;
    note.values = judge_value_leaf(leaf);
    if (!note.values.any()) return;
    note.is_tensor = false;
    if (m_role == SectionRole::input) {
      if (!m_out.argument) m_out.argument = finish(std::move(note), path);
    } else {
      m_out.outputs.push_back(finish(std::move(note), path));
    }
  }

  // A finite output tensor: a statistic that overflowed, a magnitude at the dtype's limit.
  void output_warnings(const Value& leaf, const StatsVerdict& stats, LeafNote note, const std::vector<std::string>& path) {
    if (stats.stat_overflow) {
      LeafNote s = note;
      s.statistic = overflowed_statistics(leaf, s.values);
      m_out.stat_overflows.push_back(finish(std::move(s), path));
    }
    const auto limit = note.dtype ? overflow_limit(*note.dtype) : std::nullopt;
    if (limit && note.max_abs >= *limit * m_options.overflow_fraction)
      m_out.overflow_risks.push_back(finish(std::move(note), path));
  }

  LeafNote finish(LeafNote note, const std::vector<std::string>& path) const {
    note.pointer = dump::leaf_pointer(m_prefix, m_section, path);
    return note;
  }

  EntryScan& m_out;
  const ScanOptions& m_options;
  const std::string& m_prefix;
  const std::string& m_section;
  SectionRole m_role;
};

}  // namespace

std::string_view to_string(Direction d) {
  switch (d) {
    case Direction::forward: return "forward";
    case Direction::backward: return "backward";
    case Direction::parameters_grad: return "parameters_grad";
    case Direction::other: break;
  }
  return "other";
}

Direction direction_of(std::string_view entry_name) {
  const auto n = dump::parse_entry_name(entry_name);
  if (n.is_forward()) return Direction::forward;
  if (n.is_backward()) return Direction::backward;
  if (n.kind == dump::EntryKind::parameters_grad) return Direction::parameters_grad;
  return Direction::other;
}

EntryScan empty_scan(std::string name) {
  EntryScan out;
  out.direction = direction_of(name);
  out.name = std::move(name);
  return out;
}

EntryScan scan_entry(const std::string& name, const Value& entry, const ScanOptions& options) {
  EntryScan out = empty_scan(name);
  if (!entry.is_object()) return out;
  std::string prefix = "/data";
  dump::append_pointer_token(prefix, name);
  std::vector<std::string> path;
  for (const auto& section : entry.as_object()) {
    const SectionRole role = role_of(section.key, out.direction);
    if (role == SectionRole::none) continue;
    SectionScan scan(out, options, prefix, section.key, role);
    dump::walk_leaves(section.value, path, [&](const Value& leaf, dump::LeafKind kind, const std::vector<std::string>& p) {
      scan.leaf(leaf, kind, p);
    });
    if (out.error) break;
  }
  return out;
}

}  // namespace msdump::anomalies
