#include "pyjson/plain_reader.h"

#include <doctest/doctest.h>

#include <string>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

using namespace msdump;
using namespace msdump::pyjson;

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("plain reader: the Value parse_json gives, one reader for many texts") {
    const char* texts[] = {
        R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 8], "requires_grad": true, "source": {"file": "blob.bin", "offset": 298424}})",
        R"({"type": "torch.Tensor", "dtype": "torch.int64", "shape": [], "requires_grad": false, "source": null})",
        R"([1E-5, 1.00, -0, 0, -0.0, 0.1e1, 1e400, -1e400, 1e-400, 5e-324, 2.5E+3, 1e16, 123456789012345678.5])",
        R"([12345678901234567890123, -9223372036854775808, -9223372036854775809, 9223372036854775807, 999999999999999999, -999999999999999999])",
        R"( [ NaN , Infinity,-Infinity, true, false, null, "", "x y", [], {}, [[]], {"a": {}} ] )",
        R"({"a": 1, "a": [2, {"b": "c"}], "d": {"e": [1, 2, 3, 4, 5, 6, 7, 8, 9]}})",
        R"({"a": "now a string", "d": 3})",
        R"({})",
        R"("just a string")",
        R"(-12)",
        R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 8], "requires_grad": true, "source": {"file": "blob.bin", "offset": 298424}})",
    };
    PlainReader reader;
    for (const char* t : texts) {
      CAPTURE(t);
      auto want = parse_json(t);
      REQUIRE(want);
      auto got = reader.read(t);
      REQUIRE(got);
      CHECK((*got)->identical(*want));
      CHECK(*to_python_json(**got) == *to_python_json(*want));
    }
  }
}
