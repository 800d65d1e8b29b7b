#include "compare/yaml_tree.h"

#include <fmt/format.h>

#include <istream>
#include <streambuf>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

namespace msdump::compare {
namespace {

// An istream over bytes we do not own (no copy of the file).
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view text) {
    char* p = const_cast<char*>(text.data());  // read only: the get area is never written
    setg(p, p, p + text.size());
  }
};

// Thrown by the builder to stop yaml-cpp at the first refused event; caught in read_yaml.
struct Refused {
  YAML::Mark mark;
  std::string what;
};

class TreeBuilder final : public YAML::EventHandler {
 public:
  YamlNode root;
  bool seen = false;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { add(mark, YamlNode::Kind::null, {}); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Refused{mark, "aliases (*name) are not accepted in a mapping file"};
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string& value) override {
    add(mark, YamlNode::Kind::scalar, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(mark, YamlNode::Kind::sequence);
  }
  void OnSequenceEnd() override { m_open.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(mark, YamlNode::Kind::map);
  }
  void OnMapEnd() override { m_open.pop_back(); }

 private:
  YamlNode* add(const YAML::Mark& mark, YamlNode::Kind kind, std::string text) {
    if (++m_nodes > k_yaml_max_nodes) throw Refused{mark, fmt::format("more than {} YAML nodes", k_yaml_max_nodes)};
    YamlNode node;
    node.kind = kind;
    node.text = std::move(text);
    node.line = mark.line + 1;
    node.column = mark.column + 1;
    if (m_open.empty()) {
      root = std::move(node);
      seen = true;
      return &root;
    }
    auto& items = m_open.back()->items;
    items.push_back(std::move(node));
    return &items.back();
  }
  void open(const YAML::Mark& mark, YamlNode::Kind kind) {
    if (static_cast<int>(m_open.size()) >= k_yaml_max_depth)
      throw Refused{mark, fmt::format("nested deeper than {} levels", k_yaml_max_depth)};
    m_open.push_back(add(mark, kind, {}));  // the parent's items no longer grow while it is open
  }

  std::vector<YamlNode*> m_open;
  std::size_t m_nodes = 0;
};

Error at_mark(const std::string& shown_as, const YAML::Mark& mark, std::string_view what) {
  if (mark.line < 0) return invalid_input(fmt::format("{}: {}", shown_as, what));
  return invalid_input(fmt::format("{}:{}:{}: {}", shown_as, mark.line + 1, mark.column + 1, what));
}

}  // namespace

Result<YamlNode> read_yaml(std::string_view text, const std::string& shown_as) {
  if (text.size() > k_yaml_max_bytes)
    return invalid_input(fmt::format("{}: {} bytes, more than a mapping file may have ({} bytes)", shown_as,
                                     text.size(), k_yaml_max_bytes));
  ViewBuffer buffer(text);
  std::istream in(&buffer);
  TreeBuilder builder;
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder)) return YamlNode{};
    TreeBuilder second;
    if (parser.HandleNextDocument(second))
      return yaml_error(shown_as, second.root, "a second YAML document; a mapping file holds one");
  } catch (const Refused& r) {
    return at_mark(shown_as, r.mark, r.what);
  } catch (const YAML::Exception& e) {
    return at_mark(shown_as, e.mark, fmt::format("not valid YAML: {}", e.msg));
  } catch (const std::exception& e) {
    return invalid_input(fmt::format("{}: not valid YAML: {}", shown_as, e.what()));
  }
  return std::move(builder.root);
}

std::string_view describe(YamlNode::Kind kind) {
  switch (kind) {
    case YamlNode::Kind::null: return "null";
    case YamlNode::Kind::scalar: return "a string";
    case YamlNode::Kind::sequence: return "a list";
    case YamlNode::Kind::map: return "a mapping";
  }
  return "null";
}

Error yaml_error(const std::string& shown_as, const YamlNode& at, std::string_view what) {
  return invalid_input(fmt::format("{}:{}:{}: {}", shown_as, at.line, at.column, what));
}

}  // namespace msdump::compare
