#include "pyjson/container_skip.h"

#include <doctest/doctest.h>

#include <initializer_list>
#include <ios>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace msdump::pyjson;

namespace {

// The scalar walk skip_container replaces: brackets counted outside strings, strings from
// quote to quote. nullptr when the container does not close inside the text.
const char* reference_skip(const char* p, const char* end) {
  std::size_t depth = 0;
  bool in_string = false;
  for (; p != end; ++p) {
    const char c = *p;
    if (c == '"') {
      in_string = !in_string;
    } else if (in_string) {
      continue;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {  // depth >= 1: the walk starts at '{' or '['
      return p + 1;
    }
  }
  return nullptr;
}

// Random container text: nested objects and arrays, strings with brackets in them, numbers and
// literals. Plain (what skip_container takes): strings without escapes, with or without a space
// after ','. With `escapes`: strings also hold \", even runs of backslashes, \n and \u escapes,
// and `lines` lays the text out as json.dump(indent=1) does.
struct Shape {
  bool escapes = false;
  bool lines = false;
};

void random_value(std::mt19937_64& rng, std::string& out, int depth, Shape shape = {}) {
  const auto kind = rng() % (depth > 6 ? 3 : 5);
  if (kind == 0) {
    out += '"';
    for (auto n = rng() % 70; n > 0; --n) {
      const auto r = shape.escapes ? rng() % 12 : 4;
      if (r == 0) out += "\\\"";
      else if (r == 1) out.append(2 * (1 + rng() % 4), '\\');  // an even run: backslashes only
      else if (r == 2) out += "\\n";
      else if (r == 3) out += "\\u005b";
      else out += "ab{}[],: x"[rng() % 10];
    }
    out += '"';
  } else if (kind == 1) {
    out += std::to_string(static_cast<long long>(rng() % 100000) - 50000);
  } else if (kind == 2) {
    out += rng() % 2 ? "true" : shape.escapes ? "-Infinity" : "NaN";
  } else {
    const bool object = kind == 3;
    out += object ? '{' : '[';
    const auto n = rng() % 6;
    for (decltype(rng()) i = 0; i < n; ++i) {
      if (i > 0) out += shape.escapes || rng() % 2 ? "," : ", ";
      if (shape.lines) out += '\n' + std::string(static_cast<std::size_t>(depth + 1), ' ');
      if (object) out += (shape.escapes ? "\"k\\\"]" : "\"k]") + std::to_string(i) + "\": ";
      random_value(rng, out, depth + 1, shape);
    }
    if (shape.lines && n > 0) out += '\n' + std::string(static_cast<std::size_t>(depth), ' ');
    out += object ? '}' : ']';
  }
}

// The scalar walk for skip_json_container: as reference_skip, a backslash taking the next byte
// with it, newlines counted up to the end.
SkippedContainer reference_json_skip(const char* p, const char* end) {
  SkippedContainer out;
  std::size_t depth = 0;
  bool in_string = false;
  for (; p != end; ++p) {
    const char c = *p;
    if (c == '\n') {
      ++out.newlines;
      out.last_newline = p;
    }
    // (A backslash takes the next byte with it anywhere: in valid JSON only strings hold one.)
    if (c == '\\' && p + 1 != end) {
      ++p;
      if (*p == '\n') {
        ++out.newlines;
        out.last_newline = p;
      }
    } else if (in_string) {
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      out.end = p + 1;
      return out;
    }
  }
  return SkippedContainer{};
}

// A random container (random_value), sometimes followed by one of `tails`, then damaged in a
// quarter of the cases each: cut short, one byte changed to one of `damage` (then only bounds
// matter, and the scalar walk still defines the answer). Empty when the damage removed the
// opening bracket.
std::string damaged_container(std::mt19937_64& rng, Shape shape, std::initializer_list<const char*> tails,
                              std::string_view damage) {
  std::string text;
  do {
    text.clear();
    random_value(rng, text, 0, shape);
  } while (text[0] != '{' && text[0] != '[');
  if (rng() % 2) text += tails.begin()[rng() % tails.size()];
  if (rng() % 4 == 0) text.resize(1 + rng() % text.size());
  if (rng() % 4 == 0) text[rng() % text.size()] = damage[rng() % damage.size()];
  if (text[0] != '{' && text[0] != '[') return {};
  return text;
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("container skip: the end of the container, brackets in strings ignored, across 64-byte blocks") {
    const std::string a = R"({"a": "}]", "b": [1, {"c": "[["}], "d": {}} , "rest": 1)";
    const char* e = skip_container(a.data(), a.data() + a.size());
    REQUIRE(e != nullptr);
    CHECK(std::string(a.data(), e) == R"({"a": "}]", "b": [1, {"c": "[["}], "d": {}})");
    const std::string unclosed = R"([1, [2, "]"], 3)";
    CHECK(skip_container(unclosed.data(), unclosed.data() + unclosed.size()) == nullptr);
    CHECK(skip_container(unclosed.data(), unclosed.data()) == nullptr);
    // a string that spans a block boundary, and a container that ends exactly at one
    std::string long_string = "[\"" + std::string(100, '}') + "\"]";
    CHECK(skip_container(long_string.data(), long_string.data() + long_string.size()) ==
          long_string.data() + long_string.size());
    std::string sixty_four = "[" + std::string(62, ' ') + "]";
    REQUIRE(sixty_four.size() == 64);
    CHECK(skip_container(sixty_four.data(), sixty_four.data() + 64) == sixty_four.data() + 64);
  }

  TEST_CASE("container skip: the same end as the scalar walk on random containers; inside any bytes") {
    std::mt19937_64 rng(64);
    int bad = 0;
    for (int round = 0; round < 20000 && bad < 5; ++round) {
      const std::string text = damaged_container(rng, Shape{}, {", \"tail\": [1]}", "]"}, "{}[]\" ");
      if (text.empty()) continue;
      const std::vector<char> exact(text.begin(), text.end());  // ASan sees reads past the end
      const char* b = exact.data();
      const char* got = skip_container(b, b + exact.size());
      const char* want = reference_skip(b, b + exact.size());
      if (got != want) {
        ++bad;
        FAIL_CHECK(text << ": got " << (got ? got - b : -1) << ", want " << (want ? want - b : -1));
      }
    }
    CHECK(bad == 0);
  }

  TEST_CASE("json container skip: escaped quotes stay in their string; newlines counted to the end") {
    const std::string a = "{\"a\": \"x\\\"}\",\n \"b\\\\\": [1,\n  2]\n} ,\n 7";
    const SkippedContainer s = skip_json_container(a.data(), a.data() + a.size());
    REQUIRE(s.end != nullptr);
    CHECK(std::string(a.data(), s.end) == "{\"a\": \"x\\\"}\",\n \"b\\\\\": [1,\n  2]\n}");
    CHECK(s.newlines == 3);
    CHECK(s.last_newline == a.data() + a.rfind("\n}"));
    // an escape run that crosses a block boundary: 63 bytes, then the backslash at byte 63
    std::string cross = "[\"" + std::string(61, 'x') + "\\\"]\"]";
    REQUIRE(cross[63] == '\\');
    const SkippedContainer c = skip_json_container(cross.data(), cross.data() + cross.size());
    CHECK(c.end == cross.data() + cross.size());
    CHECK(c.newlines == 0);
    CHECK(c.last_newline == nullptr);
    const std::string open = "[\"\\\"]";  // the quote is escaped: the string never closes
    CHECK(skip_json_container(open.data(), open.data() + open.size()).end == nullptr);
  }

  TEST_CASE("json container skip: the same end and newlines as the scalar walk on random escaped text") {
    std::mt19937_64 rng(65);
    int bad = 0;
    for (int round = 0; round < 20000 && bad < 5; ++round) {
      const std::string text =
          damaged_container(rng, Shape{true, rng() % 2 == 0}, {",\n \"tail\": [1]\n}"}, "{}[]\"\\\n ");
      if (text.empty()) continue;
      const std::vector<char> exact(text.begin(), text.end());
      const char* b = exact.data();
      const SkippedContainer got = skip_json_container(b, b + exact.size());
      const SkippedContainer want = reference_json_skip(b, b + exact.size());
      if (got.end != want.end || (want.end != nullptr && (got.newlines != want.newlines || got.last_newline != want.last_newline))) {
        ++bad;
        FAIL_CHECK(text << ": got " << (got.end ? got.end - b : -1) << "/" << got.newlines << ", want "
                        << (want.end ? want.end - b : -1) << "/" << want.newlines);
      }
    }
    CHECK(bad == 0);
  }

  TEST_CASE("escaped bytes: the byte after each odd run of backslashes, runs across blocks carried") {
    // Against a walk over the bits, on masks from sparse to all ones (runs of every length, runs
    // that end at bit 63 and go on in the next block), each with carry in and without.
    auto walk = [](std::uint64_t backslash, bool& carry) {
      std::uint64_t escaped = 0;
      for (int i = 0; i < 64; ++i) {
        if (carry) {
          escaped |= std::uint64_t{1} << i;
          carry = false;
        } else if ((backslash >> i) & 1u) {
          carry = true;
        }
      }
      return escaped;
    };
    std::mt19937_64 rng(1204);
    for (int round = 0; round < 200000; ++round) {
      std::uint64_t m = rng();
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) m = rng() % 2 ? m & rng() : m | rng();
      if (round < 64) m = ~std::uint64_t{0} << round;
      for (bool carry_in : {false, true}) {
        bool a = carry_in, b = carry_in;
        const std::uint64_t got = detail::escaped_bytes(m, a), want = walk(m, b);
        REQUIRE_MESSAGE(got == want, std::hex << m << " carry " << carry_in);
        REQUIRE(a == b);
      }
    }
  }

  TEST_CASE("newlines_in: the count and the last newline of any text, 64 bytes at a time and the tail") {
    std::mt19937_64 rng(66);
    for (int round = 0; round < 2000; ++round) {
      std::string text(rng() % 300, ' ');
      for (auto& c : text) c = "a\n \""[rng() % 4];
      const std::vector<char> exact(text.begin(), text.end());  // (no bytes past the end)
      const char* b = exact.data();
      const Newlines got = newlines_in(b, b + exact.size());
      std::size_t count = 0;
      const char* last = nullptr;
      for (const char* p = b; p != b + exact.size(); ++p)
        if (*p == '\n') ++count, last = p;
      CHECK(got.count == count);
      CHECK(got.last == last);
    }
  }
}
