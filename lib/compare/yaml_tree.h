#pragma once
// A small YAML reader for the mapping files of compare (-dm, -cm, --api-mapping): one document
// read into an owned tree with positions, through yaml-cpp's event parser (yaml-cpp stays inside
// yaml_tree.cpp). Hostile files fail with a message naming the file, line and column: aliases
// are refused (an alias bomb expands to billions of nodes), as are files over 16 MiB, more than
// 1,000,000 nodes, nesting deeper than 32 levels and a second document.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace msdump::compare {

struct YamlNode {
  enum class Kind : std::uint8_t { null, scalar, sequence, map };
  Kind kind = Kind::null;
  std::string text;             // a scalar's value
  std::vector<YamlNode> items;  // a sequence's items; a map's key, value, key, value, ...
  int line = 1;                 // 1-based position of the node
  int column = 1;
};

inline constexpr std::size_t k_yaml_max_bytes = std::size_t{16} << 20;
inline constexpr std::size_t k_yaml_max_nodes = 1'000'000;
inline constexpr int k_yaml_max_depth = 32;

// Parses `text` (shown as `shown_as` in messages). An empty document is a null node.
Result<YamlNode> read_yaml(std::string_view text, const std::string& shown_as);

// "null", "a string", "a list", "a mapping": what a node is, for messages.
std::string_view describe(YamlNode::Kind kind);

// "<shown_as>:<line>:<column>: <what>"
Error yaml_error(const std::string& shown_as, const YamlNode& at, std::string_view what);

}  // namespace msdump::compare
