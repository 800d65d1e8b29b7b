#include "tensor/pickle_reader.h"

#include <doctest/doctest.h>

#include "core/byte_source.h"

using namespace msdump;
using namespace msdump::tensor;
using Kind = PickleValue::Kind;
using namespace std::string_literals;

namespace {

Result<void> allow_all(std::string_view, std::string_view) { return {}; }

Result<Pickle> parse(const std::string& bytes, const PickleGlobalCheck& check = allow_all) {
  return read_pickle(as_bytes(bytes), check);
}

std::string error_of(const std::string& bytes) {
  auto r = parse(bytes);
  REQUIRE_FALSE(r);
  return r.error().message;
}

std::string s(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out += static_cast<char>(b);
  return out;
}

}  // namespace

TEST_SUITE("msdump::tensor") {
  TEST_CASE("pickle: containers, ints, floats, strings and the memo") {
    // {'a': 1, 'b': [-2, 3.5, None, True]} built with protocol-2 opcodes
    const std::string p = "\x80\x02}q\x00(X\x01\x00\x00\x00"s + "aK\x01X\x01\x00\x00\x00"s + "b]q\x01(J\xfe\xff\xff\xff"s +
                          "G@\x0c\x00\x00\x00\x00\x00\x00N\x88"s + "eu."s;
    auto r = parse(p);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    const PickleValue& root = *r->root;
    REQUIRE(root.kind == Kind::dict);
    REQUIRE(root.items.size() == 4);
    CHECK(root.items[0]->text == "a");
    CHECK(root.items[1]->integer == 1);
    const PickleValue& list = *root.items[3];
    REQUIRE(list.kind == Kind::list);
    REQUIRE(list.items.size() == 4);
    CHECK(list.items[0]->integer == -2);
    CHECK(list.items[1]->floating == 3.5);
    CHECK(list.items[2]->kind == Kind::none);
    CHECK(list.items[3]->boolean);
    CHECK(r->end == p.size());
    CHECK(describe(root) == "a dict");
    CHECK(describe(list) == "a list");
  }

  TEST_CASE("pickle: LONG1 of every width, and values wider than int64") {
    auto long1 = [](std::initializer_list<int> raw) {
      std::string p = "\x80\x02\x8a";
      p += static_cast<char>(raw.size());
      p += s(raw);
      p += '.';
      return p;
    };
    CHECK(parse(long1({}))->root->integer == 0);
    CHECK(parse(long1({0xff}))->root->integer == -1);
    CHECK(parse(long1({0x00, 0x00, 0x00, 0x80, 0x00}))->root->integer == 2147483648LL);
    CHECK(parse(long1({0x00, 0xac, 0x42, 0x06, 0x01}))->root->integer == 4400000000LL);
    CHECK(parse(long1({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00}))->root->integer == INT64_MAX);
    auto wide = parse(long1({0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19}));
    CHECK(wide->root->kind == Kind::big_integer);
    CHECK(wide->root->text.size() == 10);
    CHECK(describe(*wide->root) == "an int wider than 64 bits");
    CHECK(parse(long1({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00}))->root->kind == Kind::big_integer);
  }

  TEST_CASE("pickle: globals, REDUCE and persistent ids build unevaluated nodes") {
    const std::string p =
        "\x80\x02"s + "ctorch._utils\n_rebuild_tensor_v2\nq\x00(X\x01\x00\x00\x00"s + "0QK\x00tR."s;
    auto r = parse(p);
    REQUIRE(r);
    const PickleValue& call = *r->root;
    CHECK(call.kind == Kind::call);
    CHECK(call.global_name() == "torch._utils._rebuild_tensor_v2");
    CHECK(describe(call) == "a call to 'torch._utils._rebuild_tensor_v2'");
    REQUIRE(call.items[1]->items.size() == 2);
    CHECK(call.items[1]->items[0]->kind == Kind::persistent);
    const std::string ordered = "\x80\x02" "ccollections\nOrderedDict\n)R}bX\x01\x00\x00\x00"s + "kK\x01s."s;
    auto od = parse(ordered);
    REQUIRE_MESSAGE(od, (od ? "" : od.error().message));
    CHECK(describe(*od->root) == "an OrderedDict");
  }

  TEST_CASE("pickle: protocol 4 opcodes") {
    const std::string p = "\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x05torch\x94\x8c\x05"s +
                          "float\x94\x93\x94h\x02\x86."s;
    auto r = parse(p);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    REQUIRE(r->root->kind == Kind::tuple);
    CHECK(r->root->items[0] == r->root->items[1]);
    CHECK(r->root->items[0]->global_name() == "torch.float");
  }

  TEST_CASE("pickle: the global check decides before anything enters the tree") {
    auto deny = [](std::string_view module, std::string_view name) -> Result<void> {
      return invalid_input("no " + std::string(module) + "." + std::string(name));
    };
    auto r = parse("\x80\x02" "cos\nsystem\n.", deny);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "no os.system");
    auto stack = parse("\x80\x04\x8c\x02os\x8c\x06system\x93.", deny);
    REQUIRE_FALSE(stack);
    CHECK(stack.error().message == "no os.system");
  }

  TEST_CASE("pickle: malformed input names the defect and offset") {
    CHECK(error_of("") == "pickle: ends without STOP");
    CHECK(error_of("\x80\x02K") == "pickle: truncated BININT1 at offset 2");
    CHECK(error_of("\x80\x02X\xff\xff\xff\x7f" "abc.") == "pickle: truncated BINUNICODE at offset 2");
    CHECK(error_of("\x80\x02" "cos\nsys") == "pickle: truncated GLOBAL at offset 2");
    CHECK(error_of("\x80\x02h\x05."s) == "pickle: memo key 5 is not defined (BINGET) at offset 2");
    CHECK(error_of("\x80\x02t.") == "pickle: TUPLE without MARK at offset 2");
    CHECK(error_of("\x80\x02\x85.") == "pickle: stack underflow in TUPLE1 at offset 2");
    CHECK(error_of("\x80\x02(.") == "pickle: STOP with an empty stack at offset 3");
    CHECK(error_of("\x80\x02K\x01K\x02R.") == "pickle: REDUCE on an int at offset 6");
    CHECK(error_of("\x80\x02K\x01K\x02" "a.") == "pickle: APPEND on an int at offset 6");
    CHECK(parse("\x80\x02K\x01q\x00.ZZ"s)->end == 7);
    CHECK(error_of("\x80\x02}(K\x01u.") == "pickle: SETITEMS with an odd number of items at offset 6");
    CHECK(error_of("\x80\x02\x00."s) == "pickle: unsupported opcode 0x00 at offset 2");
    CHECK(parse("\x80\x02" "cos\nsystem\n)R.")->root->kind == Kind::call);
    CHECK(error_of("\x80\x09.") == "pickle: protocol 9 is not supported");
  }
}
