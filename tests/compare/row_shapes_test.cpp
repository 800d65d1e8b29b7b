// RowShapes against EntryTextRows: every entry of every dump.json in testdata, and fixed-seed
// variants of them (number tokens replaced within and across integer / float, the name's
// counters changed, other names), are read both ways. Where RowShapes has a plan for an entry,
// its rows (names, dtypes, statistic types, states) and md5 flag must be what EntryTextRows reads
// off the text, and pass 2's whole rows made from the plan (read_planned_rows) what read_rows
// makes, every member (a plan declines exactly where read_rows declines); entries without a plan
// are read and learned, as pass 1 does. Broken texts of learned shapes must find no plan unless
// they are valid. index_dump gives the same index with and without shapes, and EntryFetcher the
// same rows. The tests also require that plans are used at all.

#include "compare/row_shapes.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "compare/dump_index.h"
#include "compare/plain_entries.h"
#include "compare/row_test_checks.h"
#include "core/byte_source.h"
#include "pyjson/number_tokens.h"
#include "pyjson/plain_scanner.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;
using compare::testing::check_same_row;

namespace {

struct Entry {
  std::string name;
  std::string text;
};

bool valid_plain(std::string_view text) {
  return pyjson::PlainScanner<>(text.data(), text.data() + text.size()).whole_value();
}

// The raw texts of the entries with a direction of every dump.json in testdata that are valid
// plain JSON (as pass 1 reads them).
std::vector<Entry> testdata_entries() {
  std::vector<Entry> out;
  for (const auto& f : std::filesystem::recursive_directory_iterator(msdump::testing::testdata("")))
    if (f.is_regular_file() && f.path().filename() == "dump.json")
      compare::testing::each_plain_entry(f.path(), [&out](std::string_view name, std::string_view value) {
        out.push_back({std::string(name), std::string(value)});
      });
  return out;
}

std::size_t g_whole_planned = 0;  // entries whose whole rows a plan made (read_both_ways)

// Pass 2's whole rows from `plan` against read_rows'.
void check_whole_rows(const RowShapePlan& plan, const Entry& e) {
  static std::vector<Row> reused;  // (the rows of the entries before, overwritten in place)
  EntryTextRows reader;
  std::vector<Row> expected;
  const bool read = reader.read_rows(e.name, e.text, expected);
  if (!plan.full) return;
  if (!read_planned_rows(plan, e.name, e.text, reused)) {
    CHECK_FALSE(read);  // (the same conversion declines)
    reused.clear();
    return;
  }
  ++g_whole_planned;
  REQUIRE(read);
  REQUIRE(reused.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) check_same_row(reused[i], expected[i]);
}

// Reads `e` as pass 1 does (the plan, else EntryTextRows and learn). Where a plan is found,
// checks it against EntryTextRows' reading, pass 1's rows and pass 2's; returns whether one was.
bool read_both_ways(RowShapes& shapes, const Entry& e) {
  CAPTURE(e.name);
  CAPTURE(e.text);
  const RowShapePlan* plan = shapes.find(e.name, e.text);
  EntryTextRows reader;
  bool md5 = false;
  const bool read = valid_plain(e.text) && reader.read(e.name, e.text, md5);
  if (plan == nullptr) {
    if (read) {
      const RowShapePlan* learned = shapes.learn(e.name, e.text, reader, md5);
      if (learned != nullptr) check_whole_rows(*learned, e);
    }
    return false;
  }
  check_whole_rows(*plan, e);
  REQUIRE(read);  // a plan is only ever found for valid text the reader reads
  CHECK(plan->has_md5 == md5);
  REQUIRE(plan->rows.size() == reader.rows().size());
  for (std::size_t i = 0; i < plan->rows.size(); ++i) {
    const auto& p = plan->rows[i];
    const auto& r = reader.rows()[i];
    CHECK(e.name + p.suffix == reader.name(r));
    CHECK(p.dtype == r.dtype);
    CHECK(p.stat_kinds == r.stat_kinds);
    CHECK(p.state == r.state);
  }
  return true;
}

std::string random_token(std::mt19937_64& rng, bool integer) {
  static const char* k_ints[] = {"0", "-0", "1", "-1", "7", "64", "1000000", "9007199254740993", "123456789012345678901234"};
  static const char* k_floats[] = {"0.0", "-0.0", "1.5", "-2.5e-07", "3.4028234663852886e+38", "1e-45", "65504.0", "1E5", "1e400"};
  return integer ? k_ints[rng() % std::size(k_ints)] : k_floats[rng() % std::size(k_floats)];
}

// `name` with each run of digits replaced by another number.
std::string recounted(std::mt19937_64& rng, const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size();) {
    if (name[i] < '0' || name[i] > '9') {
      out += name[i++];
      continue;
    }
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    out += std::to_string(rng() % 120);
  }
  return out;
}

std::string random_name(std::mt19937_64& rng, const std::string& name) {
  static const char* k[] = {"Functional.relu.{}.forward", "Torch.add.{}.backward", "Module.fc.Linear.forward.{}",
                            "Module.fc.Linear.backward.{}", "Module.fc{}.Linear.parameters_grad", "Module.src.Dst.forward.{}",
                            "Distributed.send.{}.forward", "Module.parameters_grad.A.forward.{}", "Tensor.__add__.{}.forward"};
  if (rng() % 2 == 0) return recounted(rng, name);
  return fmt::format(fmt::runtime(k[rng() % std::size(k)]), rng() % 50);
}

// A variant of `e`: its number tokens replaced (most by one of the same kind), and sometimes its
// name changed.
Entry variant(std::mt19937_64& rng, const Entry& e) {
  Entry out{e.name, ""};
  const char* cut = e.text.data();
  pyjson::for_each_number_token(e.text, [&](const pyjson::NumberText& n) {
    out.text.append(cut, n.begin);
    const bool integer = n.int_end == n.end;
    const auto p = rng() % 20;  // most kept or of the same kind, one in 20 of the other
    if (p < 12) out.text.append(n.begin, n.end);
    else out.text += random_token(rng, p < 19 ? integer : !integer);
    cut = n.end;
    return true;
  });
  out.text.append(cut, e.text.data() + e.text.size());
  if (rng() % 3 == 0) out.name = random_name(rng, e.name);
  return out;
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("row shapes: testdata entries take the rows EntryTextRows reads") {
    const auto entries = testdata_entries();
    REQUIRE(entries.size() > 5000);
    RowShapes shapes(std::make_shared<RowShapeStore>());
    std::size_t planned = 0;
    for (const Entry& e : entries) planned += read_both_ways(shapes, e) ? 1 : 0;
    MESSAGE("entries " << entries.size() << ", read by their shape " << planned << ", shapes " << shapes.shapes()
                        << ", whole rows from plans " << g_whole_planned);
    CHECK(planned > entries.size() / 4);
    CHECK(g_whole_planned > entries.size() / 4);
  }

  TEST_CASE("row shapes: variants (numbers of either kind, names recounted and changed)") {
    const auto entries = testdata_entries();
    REQUIRE(!entries.empty());
    RowShapes shapes(std::make_shared<RowShapeStore>());
    std::mt19937_64 rng(11);
    std::size_t planned = 0, renamed_planned = 0;
    const std::size_t whole_before = g_whole_planned;
    for (int round = 0; round < 6000; ++round) {
      const Entry& e = entries[rng() % entries.size()];
      const Entry v = variant(rng, e);
      const bool p = read_both_ways(shapes, v);
      planned += p ? 1 : 0;
      renamed_planned += p && v.name != e.name ? 1 : 0;
    }
    CHECK(planned > 1000);
    CHECK(renamed_planned > 200);
    CHECK(g_whole_planned - whole_before > 1000);
  }

  TEST_CASE("row shapes: broken texts of learned shapes find a plan only when they are valid") {
    const auto entries = testdata_entries();
    REQUIRE(!entries.empty());
    RowShapes shapes(std::make_shared<RowShapeStore>());
    for (const Entry& e : entries) read_both_ways(shapes, e);
    std::mt19937_64 rng(5);
    static constexpr char k_bytes[] = "0123456789.eE+-\" ,:{}[]xN\\";
    std::size_t planned = 0, refused = 0;
    for (int round = 0; round < 20000; ++round) {
      const Entry& e = entries[rng() % entries.size()];
      Entry b = e;
      const int changes = 1 + static_cast<int>(rng() % 3);
      for (int c = 0; c < changes; ++c) {
        const std::size_t at = rng() % b.text.size();
        if (rng() % 4 == 0) b.text.erase(at, 1);
        else if (rng() % 4 == 0) b.text.insert(at, 1, k_bytes[rng() % (sizeof k_bytes - 1)]);
        else b.text[at] = k_bytes[rng() % (sizeof k_bytes - 1)];
      }
      if (!valid_plain(b.text)) {
        CAPTURE(b.text);
        CHECK(shapes.find(b.name, b.text) == nullptr);
        ++refused;
        continue;
      }
      planned += read_both_ways(shapes, b) ? 1 : 0;
    }
    CHECK(planned > 100);   // changed digits that are still number tokens of the same kind
    CHECK(refused > 1000);  // most changes break the text
  }

  TEST_CASE("row shapes: rows named after data_name and long entries are never learned") {
    const std::string tensor = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.5, "Min": -1, "Mean": 0.5, "Norm": 2.0)";
    RowShapes shapes(std::make_shared<RowShapeStore>());
    const Entry named{"Torch.add.0.forward", R"({"input_args": [)" + tensor + R"(, "data_name": "Torch.add.0.forward.input.0.pt"}]})"};
    CHECK_FALSE(read_both_ways(shapes, named));
    CHECK_FALSE(read_both_ways(shapes, named));
    CHECK(shapes.shapes() == 0);
    std::string long_text = R"({"input_args": [)";
    while (long_text.size() <= RowShapes::k_max_entry_bytes) long_text += tensor + "}, ";
    long_text += tensor + "}]}";
    const Entry long_entry{"Torch.add.1.forward", long_text};
    CHECK_FALSE(read_both_ways(shapes, long_entry));
    CHECK_FALSE(read_both_ways(shapes, long_entry));
    CHECK(shapes.shapes() == 0);
    const Entry plain{"Torch.add.2.forward", R"({"input_args": [)" + tensor + "}]}"};
    CHECK_FALSE(read_both_ways(shapes, plain));
    CHECK(read_both_ways(shapes, plain));
    CHECK(read_both_ways(shapes, {"Torch.add.17.forward", plain.text}));
    CHECK_FALSE(read_both_ways(shapes, {"Torch.sub.2.forward", plain.text}));
    CHECK(shapes.shapes() == 2);
  }

  TEST_CASE("row shapes: whole rows where a value's cells overwrite the statistics, and values no plan repeats") {
    struct Case {
      std::string name, text;
      bool whole;  // the plan makes the whole rows
    };
    const std::string stats = R"("Max": 1.5, "Min": -1, "Mean": 0.25, "Norm": 2.0)";
    const Case cases[] = {
        {"Torch.add.0.forward", R"({"input_args": [{"type": "torch.Tensor", "dtpe": "torch.float32", "shape": [2, 3], )" + stats + "}]}", true},
        {"Torch.add.0.forward", R"({"input_args": [{"type": "int", "value": 7, )" + stats + R"(}, {"type": "float", "value": 2.5}, {"type": "bool", "value": true}]})", true},
        {"Torch.add.0.forward", R"({"input_args": [{"type": "torch.Size", "value": [2, 3], )" + stats + R"(}, {"type": "slice", "value": [1, 2, null]}, {"type": "ellipsis", "value": 3}]})", true},
        {"Torch.add.0.forward", R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.int8", "shape": [4], "md5": 12, )" + stats + "}]}", true},
        {"Torch.add.0.forward", R"({"input_args": [{"type": "list", "value": [1, 2.5, "a"]}]})", true},
        {"Distributed.send.0.forward", R"({"input_kwargs": {"dst": {"type": "int", "value": 1, )" + stats + "}}}", false},
        {"Distributed.send.0.forward", R"({"input_kwargs": {"dst": {"type": "int", )" + stats + "}}}", true},
        {"Distributed.send.0.forward", R"({"input_kwargs": {"group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1]}}})", false},
    };
    for (const auto& c : cases) {
      CAPTURE(c.text);
      RowShapes shapes(std::make_shared<RowShapeStore>());
      CHECK_FALSE(read_both_ways(shapes, {c.name, c.text}));
      const std::size_t before = g_whole_planned;
      std::string other;  // the same shape, other numbers
      const char* cut = c.text.data();
      pyjson::for_each_number_token(c.text, [&](const pyjson::NumberText& n) {
        other.append(cut, n.begin).append(n.int_end == n.end ? "42" : "0.125");
        cut = n.end;
        return true;
      });
      other.append(cut, c.text.data() + c.text.size());
      CHECK(read_both_ways(shapes, {c.name, other}));
      CHECK((g_whole_planned > before) == c.whole);
    }
  }

  TEST_CASE("row shapes: the store holds at most its bytes, and the process shares one") {
    auto small = std::make_shared<RowShapeStore>(0);
    RowShapes shapes(small);
    const Entry e{"Torch.add.2.forward", R"({"input_args": [{"type": "int", "value": 1}]})"};
    CHECK_FALSE(read_both_ways(shapes, e));
    CHECK_FALSE(read_both_ways(shapes, e));
    CHECK(small->size() == 0);
    CHECK(RowShapeStore::shared() == RowShapeStore::shared());
  }

  TEST_CASE("row shapes: match recognises a text of a plan's shape, run by run and token by token") {
    RowShapes shapes(std::make_shared<RowShapeStore>());
    const std::string learned = "{\n \"input_args\": [{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2, 3],\n  \"Max\": 1.5, \"Min\": -1, \"Mean\": 0.25, \"Norm\": 2.0}]\n}";
    CHECK_FALSE(read_both_ways(shapes, {"Torch.add.0.forward", learned}));
    pyjson::Newlines nl;
    const auto end_of = [&](const std::string& name, const std::string& text, std::size_t window) {
      nl = {};
      const char* e = shapes.match(name, text.data(), text.data() + std::min(window, text.size()), nl);
      return e == nullptr ? std::string::npos : static_cast<std::size_t>(e - text.data());
    };
    const std::string other = "{\n \"input_args\": [{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [20, 300],\n  \"Max\": 1e5, \"Min\": -0, \"Mean\": -0.125, \"Norm\": 22.75}]\n}, \"next\": 1";
    const std::size_t value_end = other.find("}, \"next\"") + 1;
    CHECK(end_of("Torch.add.17.forward", other, other.size()) == value_end);
    CHECK(shapes.matched() != nullptr);
    CHECK(nl.count == 3);
    CHECK(nl.last == other.data() + other.rfind('\n', value_end));
    CHECK(end_of("Torch.sub.17.forward", other, other.size()) == std::string::npos);  // another head
    CHECK(end_of("Torch.add.17.forward", other, value_end - 1) == std::string::npos);  // cut short
    std::string changed = other;
    changed[changed.find("float32") + 5] = '1';  // a byte of a run
    CHECK(end_of("Torch.add.17.forward", changed, changed.size()) == std::string::npos);
    for (const char* token : {"1.", "01", "2.5", "-", "1e+", "Infinity"}) {  // not a number token, or a float for an integer
      std::string t = other;
      t.replace(t.find("20"), 2, token);
      CAPTURE(t);
      CHECK(end_of("Torch.add.17.forward", t, t.size()) == std::string::npos);
    }
  }

  TEST_CASE("row shapes: the same errors, at the same lines, with and without shapes") {
    // Each testdata dump.json cut short, with a byte broken, or with a leaf flatten fails on in
    // its last entries: entries before the damage are recognised by their shape (no bracket
    // pass), and the error names the same line and column.
    std::size_t files = 0, errors = 0;
    std::mt19937_64 rng(3);
    for (const auto& f : std::filesystem::recursive_directory_iterator(msdump::testing::testdata(""))) {
      if (!f.is_regular_file() || f.path().filename() != "dump.json") continue;
      const std::string whole = msdump::testing::slurp(f.path());
      if (whole.size() < 2000) continue;
      ++files;
      for (int round = 0; round < 6; ++round) {
        std::string text = whole;
        const std::size_t at = text.size() / 2 + rng() % (text.size() / 2);
        if (round % 3 == 0) {
          text.resize(at);
        } else if (round % 3 == 1) {
          text[at] = "x]}\"0-"[rng() % 6];
        } else {  // valid JSON, a leaf flatten fails on: the error names the entry's line
          const auto shape = text.rfind("\"shape\": [");
          if (shape == std::string::npos) continue;
          text.replace(shape, 10, "\"shape\": 3, \"s\": [");
        }
        CAPTURE(f.path().string());
        CAPTURE(at);
        const MemorySource src(as_bytes(text), "dump.json");
        MatchOptions options;
        RowKeyer a_keyer(true, options, false), b_keyer(true, options, false);
        auto with = index_dump(src, "dump.json", a_keyer, std::make_shared<RowShapeStore>());
        auto without = index_dump(src, "dump.json", b_keyer, std::make_shared<RowShapeStore>(0));
        REQUIRE(with.ok() == without.ok());
        if (!with) {
          CHECK(with.error().message == without.error().message);
          ++errors;
          continue;
        }
        REQUIRE(with->error.has_value() == without->error.has_value());
        if (with->error) {
          CHECK(with->error->message == without->error->message);
          ++errors;
        }
        CHECK(with->keys == without->keys);
      }
    }
    CHECK(files > 10);
    CHECK(errors > files);
  }

  TEST_CASE("row shapes: index_dump and EntryFetcher give the same index and rows with and without shapes") {
    std::size_t files = 0, planned_entries = 0;
    for (const auto& f : std::filesystem::recursive_directory_iterator(msdump::testing::testdata(""))) {
      if (!f.is_regular_file() || f.path().filename() != "dump.json") continue;
      CAPTURE(f.path().string());
      const std::string text = msdump::testing::slurp(f.path());
      const MemorySource src(as_bytes(text), "dump.json");
      MatchOptions options;
      RowKeyer with_keyer(true, options, false), without_keyer(true, options, false);
      const auto store = std::make_shared<RowShapeStore>();
      auto with = index_dump(src, "dump.json", with_keyer, store);
      auto without = index_dump(src, "dump.json", without_keyer, std::make_shared<RowShapeStore>(0));
      REQUIRE(with.ok() == without.ok());
      if (!with) {
        CHECK(with.error().message == without.error().message);
        continue;
      }
      ++files;
      CHECK(with->error.has_value() == without->error.has_value());
      if (with->error) CHECK(with->error->message == without->error->message);
      CHECK(with->has_md5 == without->has_md5);
      CHECK(with->keys == without->keys);
      CHECK(with->stat_kinds == without->stat_kinds);
      REQUIRE(with->dtypes.size() == without->dtypes.size());
      for (std::size_t r = 0; r < with->dtypes.size(); ++r)
        CHECK(with->dtype_names[with->dtypes[r]] == without->dtype_names[without->dtypes[r]]);
      REQUIRE(with->entries.size() == without->entries.size());
      for (std::size_t i = 0; i < with->entries.size(); ++i) {
        const auto &a = with->entries[i], &b = without->entries[i];
        CHECK(a.offset == b.offset);
        CHECK(a.plain_value == b.plain_value);
        CHECK(a.length == b.length);
        CHECK(a.first_row == b.first_row);
        CHECK(a.digest == b.digest);
        CHECK(b.plan == nullptr);
        planned_entries += a.plan != nullptr && a.plan->full ? 1 : 0;
      }
      // Pass 2: the same rows, made from the plans and read again.
      EntryFetcher with_fetch(src, *with), without_fetch(src, *without);
      for (std::uint32_t i = 0; i < with->entries.size(); ++i) {
        auto a = with_fetch.read(i);
        auto b = without_fetch.read(i);
        REQUIRE(a.ok() == b.ok());
        if (!a) continue;
        REQUIRE(a->rows.size() == b->rows.size());
        for (std::size_t r = 0; r < a->rows.size(); ++r) check_same_row(a->rows[r], b->rows[r]);
      }
    }
    CHECK(files > 20);
    CHECK(planned_entries > 1000);
  }
}
