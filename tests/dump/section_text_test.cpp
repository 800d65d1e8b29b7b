#include "dump/section_text.h"

#include <doctest/doctest.h>

#include <string>

#include "dump/leaf_walk.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "trace/event_scan.h"

using namespace msdump;
using namespace msdump::dump;

namespace {

// What a test writes for a tensor leaf: its kind, path and the leaf as parsed.
pyjson::Value marker(const pyjson::Value& leaf, LeafKind kind, const std::vector<std::string>& path) {
  std::string p;
  for (const auto& c : path) append_pointer_token(p, c);
  pyjson::Value m = pyjson::Value::object();
  m.add("kind", pyjson::Value::string(kind == LeafKind::ndarray ? "ndarray" : "tensor"));
  m.add("path", pyjson::Value::string(p));
  m.add("leaf", leaf);
  return m;
}

// parse_json, walk_leaves, JsonWriter::write: what SectionText must reproduce.
std::string by_value(std::string_view text) {
  auto v = pyjson::parse_json(text);
  REQUIRE(v);
  std::vector<std::string> path;
  walk_leaves(*v, path, [](pyjson::Value& leaf, LeafKind kind, const std::vector<std::string>& at) {
    if (kind == LeafKind::tensor || kind == LeafKind::ndarray) leaf = marker(leaf, kind, at);
  });
  auto out = pyjson::to_python_json(*v);
  REQUIRE(out);
  return *out;
}

std::string by_text(std::string_view text) {
  std::string out;
  pyjson::JsonWriter w(out);
  SectionText st;
  auto r = st.write(text, w, [&](std::string_view leaf, LeafKind kind, const std::vector<std::string>& path) -> Result<void> {
    auto v = pyjson::parse_json(leaf);
    if (!v) return v.error();
    w.write(marker(*v, kind, path));
    return {};
  });
  REQUIRE(r);
  REQUIRE(w.finish());
  return out;
}

// The texts must be what the light scan accepts: check that first.
void check(std::string_view section) {
  CAPTURE(section);
  const std::string line = std::string(R"({"kind": "data", "name": "x", "s": )") + std::string(section) + "}";
  trace::ScannedData d;
  REQUIRE(trace::scan_data_line(line, d));
  REQUIRE(d.sections.size() == 1);
  CHECK(by_text(d.sections[0].value) == by_value(d.sections[0].value));
}

}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("section text: the bytes of parse, walk and write") {
    const char* t = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "requires_grad": true})";
    const std::string tensor = t;
    check("null");
    check("3");
    check("-0");
    check("[]");
    check("{}");
    check("[[], {}, [[]], {\"a\": {}}]");
    check(R"("a string with [brackets] {and} 'quotes' and, commas")");
    check("[1E-5, 1.00, -0, -0.0, 0.1e1, 1e400, -1e400, 1e-400, 5e-324, 2.5E+3, 1e16, 1e15, 1.5, 100]");
    check("[12345678901234567890123, -9223372036854775808, -9223372036854775809, 9223372036854775807]");
    check("[NaN, Infinity, -Infinity, true, false, null]");
    check(" [ 1 ,2 , { \"a\" : [ 3 ] , \"b\":4 } ] ");
    check("[" + tensor + ", [" + tensor + ", {\"k\": " + tensor + "}]]");
    check(R"({"type": "int", "value": 3})");
    check(R"({"type": "slice", "value": [)" + tensor + R"(, null, {"x": )" + tensor + "}]}");
    check(R"({"type": 3, "value": )" + tensor + "}");
    check(R"({"type": "torch.Tensor", "type": "int", "value": 1})");
    check(R"({"type": "int", "type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "requires_grad": true})");
    check(R"({"a": 1, "a": )" + tensor + R"(, "a/b~c": [)" + tensor + "]}");
    check(R"([{"class_type": "torch.distributed.P2POp", "op": "isend", "tensor": )" + tensor + R"(, "peer": 1}])");
    check(R"({"tensor": )" + tensor + "}");
    check(R"([{"type": "numpy.ndarray", "dtype": "float32", "shape": [3]}, {"type": "mindspore.Tensor"}])");
    check(R"([{"type": "torch.Size", "value": [2, 3]}, {"type": "str", "value": "torch.Tensor"}])");
  }

  TEST_CASE("section text: a failing leaf stops the walk with its error") {
    std::string out;
    pyjson::JsonWriter w(out);
    SectionText st;
    int calls = 0;
    auto r = st.write(R"([{"type": "torch.Tensor"}, {"type": "torch.Tensor"}])", w,
                      [&](std::string_view, LeafKind, const std::vector<std::string>& path) -> Result<void> {
                        ++calls;
                        return invalid_input("/" + path.back() + ": no");
                      });
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "/0: no");
    CHECK(calls == 1);
  }
}
