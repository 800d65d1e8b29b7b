#include "compare/dump_index.h"

#include <doctest/doctest.h>

#include <fstream>

#include "core/byte_source.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

const char* k_tensor = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0})";

std::string dump_text() {
  return std::string(R"({"task": "statistics", "level": "L1", "framework": "pytorch", "data": {
 "Torch.add.0.forward": {"input_args": [)") + k_tensor + "," + k_tensor + R"(], "output": [)" + k_tensor + R"(]},
 "Torch.add.1": {"output": [1]},
 "Torch.add.1.backward": {"input": [], "output": []},
 "Torch.add.0.backward": {"input": [)" + k_tensor + R"(], "output": [null]}
}})";
}

// Pass 1 over `text` (bench side, no mappings).
DumpIndex index_of(const std::string& text) {
  MemorySource src(as_bytes(text), "dump.json");
  MatchOptions options;
  RowKeyer keyer(false, options, false);
  auto index = index_dump(src, "dump.json", keyer);
  REQUIRE(index);
  return std::move(*index);
}

// dump_text() indexed, then `was` replaced by `now` (same length): the fetcher's error for
// entry `entry` read from the changed text.
Error error_after_change(std::string_view was, std::string_view now, std::uint32_t entry) {
  std::string text = dump_text();
  const DumpIndex index = index_of(text);
  text.replace(text.find(was), was.size(), now);
  MemorySource after(as_bytes(text), "dump.json");
  EntryFetcher fetch(after, index);
  auto rows = fetch.fetch(entry);
  REQUIRE_FALSE(rows);
  return rows.error();
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("dump index: entry ranges and row keys in pass 1, the same rows again in pass 2") {
    const std::string text = dump_text();
    MemorySource src(as_bytes(text), "dump.json");
    MatchOptions options;
    RowKeyer keyer(false, options, false);
    auto index = index_dump(src, "dump.json", keyer);
    REQUIRE(index);
    CHECK(index->task == "statistics");
    CHECK_FALSE(index->error);
    REQUIRE(index->entries.size() == 3);  // Torch.add.1 has no direction: no entry
    CHECK(index->rows() == 5);
    CHECK(index->entry_rows(0) == 3);
    CHECK(index->entry_rows(1) == 0);
    CHECK(index->entry_rows(2) == 2);
    CHECK(index->entry_of_row(3) == 2);
    // The row-less backward entry still counts: Torch.add.0.backward is the second backward of
    // Torch.add, so its rows are keyed as call 1.
    CHECK(index->keys[3] == hash_key("Torch.add.1.backward.input.0"));
    CHECK(index->dtype_names[index->dtypes[4]] == "None");
    EntryFetcher fetch(src, *index);
    auto last = fetch.fetch(2);
    REQUIRE(last);
    CHECK((*last)->name == "Torch.add.0.backward");
    REQUIRE((*last)->rows.size() == 2);
    CHECK((*last)->rows[0].name == "Torch.add.0.backward.input.0");
    CHECK((*last)->rows[0].stats[0] == Cell::floating(1.0));
    auto first = fetch.fetch(0);
    REQUIRE(first);
    CHECK((*first)->rows.size() == 3);
  }

  TEST_CASE("dump index: pass 2 reads entries with escapes (full parse) as it reads plain ones") {
    // The first entry's data_name has an escape (no plain read), the second is plain, the third
    // has a plain value under a key with an escape (pass 1 found its value plain; its key is not).
    const std::string text = R"({"task": "statistics", "level": "L1", "data": {
 "Torch.add.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2],
   "Max": 1.5, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "data_name": "Torch.add.0.forward.input.\u0030.pt"}]},
 "Torch.mul.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2],
   "Max": 2.5, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "data_name": "Torch.mul.0.forward.input.0.pt"}]},
 "Torch.\u0073ub.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2],
   "Max": 3.5, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "data_name": "Torch.sub.0.forward.input.0.pt"}]}
}})";
    MemorySource src(as_bytes(text), "dump.json");
    const DumpIndex index = index_of(text);
    REQUIRE(index.entries.size() == 3);
    CHECK(index.entries[2].plain_value);
    auto whole = read_dump_rows(src, "dump.json");
    REQUIRE(whole);
    CHECK(whole->entries[2] == "Torch.sub.0.forward");
    EntryFetcher fetch(src, index);
    for (std::uint32_t e = 0; e < 3; ++e) {
      auto rows = fetch.read(e);
      REQUIRE(rows);
      REQUIRE(rows->rows.size() == 1);
      CHECK(rows->name == whole->entries[e]);
      CHECK(rows->rows[0].name == whole->rows[e].name);
      CHECK(rows->rows[0].data_name == whole->rows[e].data_name);
      CHECK(rows->rows[0].stats[0] == whole->rows[e].stats[0]);
    }
    CHECK(whole->rows[0].data_name == "Torch.add.0.forward.input.0.pt");
  }

  TEST_CASE("dump index: rows read again into reused buffers are the rows of a fresh read") {
    // A real dump (many entries of different shapes): every entry read into one reused name and
    // row vector, and fetched in an order that pushes cached entries out while one is still held
    // (its buffers must not be reused) and reads others into pushed-out ones.
    const std::string text = msdump::testing::slurp(msdump::testing::testdata("compare/cnn_2rank/L1_statistics/npu/step0/rank0/dump.json"));
    MemorySource src(as_bytes(text), "dump.json");
    const DumpIndex index = index_of(text);
    auto whole = read_dump_rows(src, "dump.json");
    REQUIRE(whole);
    const auto entries = static_cast<std::uint32_t>(index.entries.size());
    REQUIRE(entries > 20);
    const auto check_entry = [&](std::uint32_t e, const std::string& name, const std::vector<Row>& rows) {
      INFO("entry " << e);
      CHECK(name == whole->entries[e]);
      REQUIRE(rows.size() == index.entry_rows(e));
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const Row& want = whole->rows[index.entries[e].first_row + k];
        CHECK(rows[k].name == want.name);
        CHECK(rows[k].dtype == want.dtype);
        CHECK(rows[k].shape == want.shape);
        CHECK(rows[k].requires_grad == want.requires_grad);
        CHECK(rows[k].md5 == want.md5);
        CHECK(rows[k].data_name == want.data_name);
        CHECK(rows[k].tensor == want.tensor);
        for (std::size_t i = 0; i < 4; ++i) CHECK(rows[k].stats[i].str() == want.stats[i].str());
      }
    };
    EntryFetcher fetch(src, index);
    std::string name;
    std::vector<Row> rows;
    for (std::uint32_t e = 0; e < entries; ++e) {
      REQUIRE(fetch.read(e, name, rows));
      check_entry(e, name, rows);
    }
    auto held = fetch.fetch(0);
    REQUIRE(held);
    for (std::uint32_t round = 0; round < 2; ++round)
      for (std::uint32_t e = entries; e-- > 0;) {
        auto f = fetch.fetch(e);
        REQUIRE(f);
        check_entry(e, (*f)->name, (*f)->rows);
      }
    check_entry(0, (*held)->name, (*held)->rows);
  }

  TEST_CASE("dump index: a plain entry changed in place (same rows) is caught by its digest") {
    const Error e = error_after_change("\"Max\": 1.0", "\"Max\": 9.0", 0);  // the same rows, one value changed
    CHECK(e.code == ErrorCode::internal);
  }

  TEST_CASE("dump index: a plain value changed in place to hold an escape is caught by its digest") {
    // Pass 1 found the value plain, so pass 2 does not look for escapes in it again: the digest
    // must catch the change (same length, same rows).
    const Error e = error_after_change("torch.Tensor", R"(torch\tensor)", 0);
    CHECK(e.code == ErrorCode::internal);
  }

  TEST_CASE("dump index: an entry that no longer reads as indexed is an internal error naming the file") {
    const Error e = error_after_change("\"output\": [null]", "\"output\": [1, 2]", 2);
    CHECK(e.code == ErrorCode::internal);
    CHECK(e.message.starts_with("'dump.json': entry at byte "));
  }

  TEST_CASE("dump index: the header is read from a file through a small window that grows for a long member") {
    // read_dump_header reads a file through a 64 KiB window: a member longer than that (a long
    // dump_data_dir) must still be read whole, and the members after it too.
    testing::TempDir dir;
    const std::string long_dir(200'000, 'd');
    const std::string text = R"({"task": "statistics", "dump_data_dir": ")" + long_dir +
                             R"(", "framework": "mindspore", "level": "L0", "data": {"Cell.a.forward.0": {"input_args": []}}})";
    const auto path = (dir.path() / "dump.json").string();
    std::ofstream(path) << text;
    auto src = FileSource::open(path);
    REQUIRE(src);
    auto h = read_dump_header(**src, path);
    REQUIRE(h);
    CHECK(h->task == "statistics");
    CHECK(h->framework == "mindspore");
    CHECK(h->level == "L0");
  }
}
