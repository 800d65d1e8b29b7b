// CleanShapes: an entry settled by the shape of a clean entry read before must get the answer
// CleanEntryRule's scan gives it (clean or not, and where its value ends), on real entries,
// fixed-seed variants of their numbers and names, byte-changed texts and texts cut short.

#include "anomalies/clean_shapes.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::anomalies;

namespace {

struct Entry {
  std::string name, text;
};

// Every entry of every dump.json in testdata, as the raw stream hands it over.
std::vector<Entry> testdata_entries() {
  std::vector<Entry> out;
  for (const auto& f : std::filesystem::recursive_directory_iterator(msdump::testing::testdata(""))) {
    if (!f.is_regular_file() || f.path().filename() != "dump.json") continue;
    const std::string whole = msdump::testing::slurp(f.path());
    const MemorySource src(as_bytes(whole), f.path().string());
    pyjson::DumpStreamOptions options;
    options.raw_entries = true;
    pyjson::DumpJsonStream stream(src, options);
    pyjson::DumpEvent ev;
    for (auto more = stream.next(ev); more && *more; more = stream.next(ev))
      if (ev.type == pyjson::DumpEvent::Type::entry && ev.is_raw) out.push_back({ev.key, std::string(ev.raw)});
  }
  return out;
}

// `text` (a value, maybe with more text after it) both ways: the same end, or nullptr both.
bool same_answer(CleanShapes& shapes, const CleanEntryRule& rule, const std::string& name, const std::string& text) {
  const char* const b = text.data();
  const char* const e = b + text.size();
  const char* const by_shape = shapes.clean_value(name, b, e);
  const char* const by_scan = rule.clean_value(b, e);
  if (by_shape == by_scan) return true;
  FAIL_CHECK(name << ": " << text << "\n  shapes: " << (by_shape ? by_shape - b : -1) << ", scan: " << (by_scan ? by_scan - b : -1));
  return false;
}

// `text` with its number tokens replaced, in order, by what `next` gives.
template <class Next>
std::string renumbered(const std::string& text, Next&& next) {
  std::string out;
  std::size_t at = 0;
  pyjson::for_each_number_token(text, [&](const pyjson::NumberText& n) {
    out.append(text, at, static_cast<std::size_t>(n.begin - text.data()) - at);
    out += next();
    at = static_cast<std::size_t>(n.end - text.data());
    return true;
  });
  out.append(text, at);
  return out;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("clean shapes: every testdata entry, and variants of its numbers and name, as the scan answers") {
    const auto entries = testdata_entries();
    REQUIRE(entries.size() > 5000);
    const CleanEntryRule rule(1.0);
    CleanShapes shapes(rule);
    std::size_t clean = 0;
    for (const auto& e : entries) {
      CAPTURE(e.name);
      same_answer(shapes, rule, e.name, e.text);
      clean += rule.clean_value(e.text.data(), e.text.data() + e.text.size()) != nullptr;
    }
    CHECK(clean > entries.size() / 2);
    CHECK(shapes.matched() > clean / 2);  // (most real entries repeat a shape)
    CHECK(shapes.shapes() > 50);

    // Numbers of every class, some unclean (NaN, overflow, Max/Min at the limit, big integers),
    // and counters renumbered: the plans of these names are tried, and must decide as the scan.
    const std::array<const char*, 22> pool{"0", "7", "-3", "0.0", "1.5", "-2.25e-3", "65503.9", "65504.0", "-65504", "70000",
                                           "1e5", "3.4e38", "1.7976931348623157e308", "1e308", "1e400", "NaN", "Infinity",
                                           "-Infinity", "123456789012345678", "1234567890123456789", "1E+2", "-0"};
    std::mt19937 rng(20261204);
    const std::size_t matched_before = shapes.matched();
    std::size_t variants = 0;
    for (int i = 0; i < 6000; ++i) {
      const Entry& e = entries[rng() % entries.size()];
      std::string text = renumbered(e.text, [&] {
        return rng() % 16 == 0 ? std::string(pool[rng() % pool.size()]) : fmt::format("{}.{}", rng() % 1000, rng() % 10000);
      });
      std::string name = e.name;
      for (char& c : name)
        if (c >= '0' && c <= '9') c = static_cast<char>('0' + rng() % 10);
      if (rng() % 4 == 0) text += ",\n  \"next\": {}";  // (a value with text after it)
      CAPTURE(e.text);
      same_answer(shapes, rule, name, text);
      ++variants;
    }
    CHECK(variants == 6000);
    CHECK(shapes.matched() - matched_before > 1000);
  }

  TEST_CASE("clean shapes: byte-changed and cut texts of learned shapes are answered as the scan answers") {
    const auto entries = testdata_entries();
    const CleanEntryRule rule(1.0);
    CleanShapes shapes(rule);
    for (const auto& e : entries) shapes.clean_value(e.name, e.text.data(), e.text.data() + e.text.size());
    std::mt19937 rng(42);
    const std::string bytes = "0123456789-+.eE\"{}[],: \nNIafx\\\x80";
    for (int i = 0; i < 20000; ++i) {
      const Entry& e = entries[rng() % entries.size()];
      std::string text = e.text;
      const std::size_t at = rng() % text.size();
      switch (rng() % 4) {
        case 0: text[at] = bytes[rng() % bytes.size()]; break;
        case 1: text.insert(at, 1, bytes[rng() % bytes.size()]); break;
        case 2: text.erase(at, 1); break;
        default: text.resize(at); break;  // cut short: the value does not end in the text
      }
      CAPTURE(e.text);
      same_answer(shapes, rule, e.name, text);
    }
  }

  TEST_CASE("clean shapes: hand cases") {
    const CleanEntryRule rule(1.0);
    CleanShapes shapes(rule);
    const std::string leaf = R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2], "Max": 1.5, "Min": -0.5, "Mean": 0.25, "Norm": 2.0}]})";
    const std::string name = "Torch.add.0.forward";
    REQUIRE(same_answer(shapes, rule, name, leaf));
    REQUIRE(shapes.shapes() == 1);
    // The same shape, other numbers: settled by the shape.
    const auto settle = [&](const std::string& text, const std::string& as = "Torch.add.17.forward") {
      const std::size_t before = shapes.matched();
      same_answer(shapes, rule, as, text);
      return shapes.matched() > before;
    };
    CHECK(settle(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [3], "Max": 12, "Min": -1e-3, "Mean": 1e300, "Norm": 65504.0}]})"));
    // Max/Min at the limit, a NaN, an overflow: not clean, and not by the shape.
    CHECK_FALSE(settle(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [3], "Max": 65504.0, "Min": -0.5, "Mean": 0.25, "Norm": 2.0}]})"));
    CHECK_FALSE(settle(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [3], "Max": NaN, "Min": -0.5, "Mean": 0.25, "Norm": 2.0}]})"));
    CHECK_FALSE(settle(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [3], "Max": 1.0, "Min": -0.5, "Mean": 1e400, "Norm": 2.0}]})"));
    // Broken numbers (the scan refuses them too).
    CHECK_FALSE(settle(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [03], "Max": 1.0, "Min": -0.5, "Mean": 1., "Norm": 2.0}]})"));
    CHECK_FALSE(settle(R"({"output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [3], "Max": 1.0, "Min": -0.5, "Mean": 1.0, "Norm": 2.0-1}]})"));
    // Another name's plans are not tried; a name with other digits shares them.
    CHECK_FALSE(settle(leaf, "Torch.mul.0.forward"));
    CHECK(settle(leaf, "Torch.add.123.forward"));
    // A value cut before its end is never settled, by the shape or the scan.
    CHECK_FALSE(settle(leaf.substr(0, leaf.size() - 1)));
    CHECK_FALSE(settle(leaf.substr(0, leaf.find("1.5") + 2)));
  }

  TEST_CASE("clean shapes: a store that is full learns no more and still answers as the scan") {
    const auto entries = testdata_entries();
    const CleanEntryRule rule(1.0);
    CleanShapes none(rule, 0);
    for (std::size_t i = 0; i < entries.size(); i += 7) same_answer(none, rule, entries[i].name, entries[i].text);
    CHECK(none.shapes() == 0);
    CHECK(none.matched() == 0);
    // clean(): the whole text one value, whitespace around it.
    CleanShapes shapes(rule);
    const std::string v = "{\"a\": [1, 2.5]}";
    CHECK(shapes.clean("Torch.x.0.forward", v));
    CHECK(shapes.clean("Torch.x.1.forward", "{\"a\": [3, 4.5]}\n"));
    CHECK(shapes.matched() == 1);
    CHECK_FALSE(shapes.clean("Torch.x.2.forward", "{\"a\": [3, 4.5]} x"));
  }
}
