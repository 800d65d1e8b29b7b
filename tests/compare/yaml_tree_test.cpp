#include "compare/yaml_tree.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("yaml tree: a mapping with positions") {
    auto r = read_yaml("a: b\nc:\n  - 1\n  - x\n", "m.yaml");
    REQUIRE(r);
    CHECK(r->kind == YamlNode::Kind::map);
    REQUIRE(r->items.size() == 4);
    CHECK(r->items[0].text == "a");
    CHECK(r->items[1].text == "b");
    CHECK(r->items[2].line == 2);
    CHECK(r->items[3].kind == YamlNode::Kind::sequence);
    CHECK(r->items[3].items[1].text == "x");
    CHECK(r->items[3].items[1].line == 4);
    CHECK(r->items[3].items[1].column == 5);
  }
  TEST_CASE("yaml tree: an empty text is a null document") {
    auto r = read_yaml("", "m.yaml");
    REQUIRE(r);
    CHECK(r->kind == YamlNode::Kind::null);
    r = read_yaml("~\n", "m.yaml");
    REQUIRE(r);
    CHECK(r->kind == YamlNode::Kind::null);
  }
  TEST_CASE("yaml tree: syntax errors name the file and position") {
    auto r = read_yaml("a: [1, 2\n", "bad.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "bad.yaml:2:1: not valid YAML: end of sequence flow not found");
    r = read_yaml("a: b\n c: d\n", "bad.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "bad.yaml:2:3: not valid YAML: illegal map value");
  }
  TEST_CASE("yaml tree: aliases are refused (no alias bombs)") {
    const std::string bomb =
        "a: &a [x, x, x, x, x, x, x, x, x]\n"
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n";
    auto r = read_yaml(bomb, "bomb.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "bomb.yaml:2:8: aliases (*name) are not accepted in a mapping file");
  }
  TEST_CASE("yaml tree: deep nesting, many nodes, huge files and a second document are refused") {
    auto r = read_yaml(std::string(10000, '[') + std::string(10000, ']'), "deep.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "deep.yaml:1:33: nested deeper than 32 levels");
    std::string many = "[";
    for (int i = 0; i < 1'000'001; ++i) many += "1,";
    many += "1]";
    r = read_yaml(many, "many.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "many.yaml:1:2000000: more than 1000000 YAML nodes");
    r = read_yaml(std::string(k_yaml_max_bytes + 1, ' '), "huge.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "huge.yaml: 16777217 bytes, more than a mapping file may have (16777216 bytes)");
    r = read_yaml("a: b\n---\nc: d\n", "two.yaml");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "two.yaml:3:1: a second YAML document; a mapping file holds one");
  }
}
