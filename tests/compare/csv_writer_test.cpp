#include "compare/csv_writer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "compare/writer_test_table.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;
using compare::testing::VectorTable;
namespace fs = std::filesystem;

namespace {

const double k_inf = std::numeric_limits<double>::infinity();

VectorTable numbered_rows(std::size_t n) {
  std::vector<std::vector<Cell>> rows;
  for (std::size_t i = 0; i < n; ++i) rows.push_back({Cell::integer(static_cast<std::int64_t>(i)), Cell::text("r")});
  return VectorTable({"n", "t"}, std::move(rows));
}

// `inner`'s rows as a view that formats them itself in `format` (row_text), except the rows in
// `fallback`, for which it gives nullopt (the writer then reads their cells).
class PreformattedTable final : public TableView {
 public:
  PreformattedTable(const VectorTable& inner, const RowFormat& format, std::vector<std::size_t> fallback = {})
      : m_inner(inner), m_format(format), m_fallback(std::move(fallback)) {}
  const std::vector<std::string>& header() const override { return m_inner.header(); }
  std::size_t row_count() const override { return m_inner.row_count(); }
  void emit(std::size_t i, CellSink& sink) const override { m_inner.emit(i, sink); }
  const RowFormat* row_format() const override { return &m_format; }
  std::optional<RowText> row_text(std::size_t i) const override {
    if (std::find(m_fallback.begin(), m_fallback.end(), i) != m_fallback.end()) return std::nullopt;
    m_text.len = 0;
    const auto neutralised = m_format.append_row(m_inner, i, m_text);
    return RowText{m_text.text(), neutralised};
  }

 private:
  const VectorTable& m_inner;
  const RowFormat& m_format;
  std::vector<std::size_t> m_fallback;
  mutable TextBuffer m_text;
};

// A format that is not the CSV writer's: its text must never reach a CSV file.
class OtherFormat final : public RowFormat {
 public:
  std::size_t append_row(const TableView&, std::size_t, TextBuffer& out) const override {
    out.bytes.assign("not csv\n");
    out.len = out.bytes.size();
    return 7;
  }
};

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("write_csv copies the lines of a view that formats its rows in csv_row_format") {
    msdump::testing::TempDir dir;
    const VectorTable table({"a", "b", "c"}, {{Cell::text("-x"), Cell::floating(0.5), Cell::text("q,\"r\"")},
                                              {Cell::text(""), Cell::floating(std::nan("")), Cell::integer(3)},
                                              {Cell::text("=1;2"), Cell::floating(-k_inf), Cell::boolean(true)}});
    const auto direct_path = (dir / "direct.csv").string();
    const auto direct = write_csv(table, direct_path);
    REQUIRE(direct);
    REQUIRE(direct->neutralised_cells == 2);
    const std::string want = msdump::testing::slurp(direct_path);
    CHECK(want == "a,b,c\n'-x,0.5,\"q,\"\"r\"\"\"\n,,3\n'=1;2, -inf,True\n");
    const OtherFormat other;
    for (const std::vector<std::size_t>& fallback : {std::vector<std::size_t>{}, std::vector<std::size_t>{0, 2}}) {
      CAPTURE(fallback.size());
      const auto path = (dir / "pre.csv").string();
      const auto r = write_csv(PreformattedTable(table, csv_row_format(), fallback), path);
      REQUIRE(r);
      CHECK(r->neutralised_cells == 2);
      CHECK(msdump::testing::slurp(path) == want);
      // a view in another format: the writer reads its cells
      const auto o = write_csv(PreformattedTable(table, other, fallback), path);
      REQUIRE(o);
      CHECK(o->neutralised_cells == 2);
      CHECK(msdump::testing::slurp(path) == want);
    }
  }
  TEST_CASE("write_csv takes a row's text and count as the view gives them") {
    // (a view's row_text in csv_row_format is taken as it is, not formatted again)
    struct Given final : TableView {
      const VectorTable& inner;
      explicit Given(const VectorTable& t) : inner(t) {}
      const std::vector<std::string>& header() const override { return inner.header(); }
      std::size_t row_count() const override { return inner.row_count(); }
      void emit(std::size_t i, CellSink& sink) const override { inner.emit(i, sink); }
      const RowFormat* row_format() const override { return &csv_row_format(); }
      std::optional<RowText> row_text(std::size_t i) const override {
        if (i == 1) return std::nullopt;
        return RowText{"given\n", 2};
      }
    };
    msdump::testing::TempDir dir;
    const auto path = (dir / "g.csv").string();
    const auto r = write_csv(Given(numbered_rows(3)), path);
    REQUIRE(r);
    CHECK(r->neutralised_cells == 4);
    CHECK(msdump::testing::slurp(path) == "n,t\ngiven\n1,r\ngiven\n");
  }
  TEST_CASE("write_csv renders cells as pandas' to_csv does") {
    msdump::testing::TempDir dir;
    const VectorTable table(
        {"NPU Name", "NPU Tensor Shape", "Max diff", "MaxRelativeErr", "Result", "Err_message", "Consistent"},
        {{Cell::text("Functional.conv2d.0.forward.input.0"), Cell::text("[2, 3, 8, 8]"), Cell::floating(0.0),
          Cell::text("0.0%"), Cell::text("pass"), Cell::text("[]"), Cell::boolean(true)},
         {Cell::text("a\"b"), Cell::text("[4]"), Cell::floating(-1.862645149230957e-09), Cell::floating(k_inf),
          Cell::text("error"), Cell::text("[\"error: x\"]"), Cell::boolean(false)},
         {Cell::text("line\nbreak"), Cell::text("cr\r"), Cell::floating(-k_inf), Cell::floating(std::nan("")),
          Cell::integer(-15), Cell::big_integer("123456789012345678901234567890"), Cell::text("")}});
    const auto path = (dir / "compare_result.csv").string();
    auto r = write_csv(table, path);
    REQUIRE(r);
    CHECK(r->paths == std::vector<std::string>{path});
    CHECK(r->neutralised_cells == 0);
    CHECK(msdump::testing::slurp(path) ==
          "NPU Name,NPU Tensor Shape,Max diff,MaxRelativeErr,Result,Err_message,Consistent\n"
          "Functional.conv2d.0.forward.input.0,\"[2, 3, 8, 8]\",0.0,0.0%,pass,[],True\n"
          "\"a\"\"b\",[4],-1.862645149230957e-09, inf,error,\"[\"\"error: x\"\"]\",False\n"
          "\"line\nbreak\",\"cr\r\", -inf,,-15,123456789012345678901234567890,\n");
  }
  TEST_CASE("write_csv writes a stack cell like msprobe's sample") {
    msdump::testing::TempDir dir;
    const VectorTable table({"Result", "Err_message", "NPU_Stack_Info", "Data_name"},
                            {{Cell::text("pass"), Cell::text("[]"),
                              Cell::text("['File /x/conv.py, line 459, in _conv_forward, \\n return F.conv2d(input, "
                                         "weight, bias, self.stride,', "
                                         "'File /x/m.py, line 808, in <module>, \\n main()']"),
                              Cell::text("['Functional.conv2d.0.forward.input.0.pt', "
                                         "'Functional.conv2d.0.forward.input.0.pt']")},
                             {Cell::text("pass"), Cell::text("[]"), Cell::text("N/A"), Cell::text("['-1', '-1']")}});
    const auto path = (dir / "s.csv").string();
    REQUIRE(write_csv(table, path));
    CHECK(msdump::testing::slurp(path) ==
          "Result,Err_message,NPU_Stack_Info,Data_name\n"
          "pass,[],\"['File /x/conv.py, line 459, in _conv_forward, \\n return F.conv2d(input, weight, bias, "
          "self.stride,', 'File /x/m.py, line 808, in <module>, \\n main()']\","
          "\"['Functional.conv2d.0.forward.input.0.pt', 'Functional.conv2d.0.forward.input.0.pt']\"\n"
          "pass,[],N/A,\"['-1', '-1']\"\n");
  }
  TEST_CASE("write_csv neutralises formula cells with an apostrophe and counts them") {
    msdump::testing::TempDir dir;
    const VectorTable table({"a", "b", "c"}, {{Cell::text("-x"), Cell::text("-inf"), Cell::text("ok;=1,2")},
                                              {Cell::text("\uff20cmd"), Cell::floating(-1.5), Cell::text("-1;-2")}});
    const auto path = (dir / "f.csv").string();
    auto r = write_csv(table, path);
    REQUIRE(r);
    CHECK(r->neutralised_cells == 3);
    CHECK(msdump::testing::slurp(path) == "a,b,c\n'-x,-inf,\"'ok;=1,2\"\n'\uff20cmd,-1.5,-1;-2\n");
  }
  TEST_CASE("write_csv quotes a text for a special byte wherever it is") {
    // The bytes that force quotes are found 16 at a time, the last 16 of a longer text in one
    // load that overlaps the ones before, a shorter text one byte at a time: each special byte
    // at each position of texts of 1 to 40 bytes (';' alone quotes nothing).
    msdump::testing::TempDir dir;
    const auto path = (dir / "each.csv").string();
    for (const char special : {',', '"', '\n', '\r', ';'}) {
      for (std::size_t size = 1; size <= 40; ++size) {
        for (std::size_t at = 0; at < size; ++at) {
          std::string text(size, 'x');
          text[at] = special;
          const VectorTable table({"a"}, {{Cell::text(text)}});
          REQUIRE(write_csv(table, path));
          std::string field = text;
          if (special != ';') {
            if (special == '"') field.insert(at, 1, '"');
            field = "\"" + field + "\"";
          }
          CAPTURE(text);
          CHECK(msdump::testing::slurp(path) == "a\n" + field + "\n");
        }
      }
    }
  }
  TEST_CASE("write_csv finds a ';' formula wherever it is") {
    msdump::testing::TempDir dir;
    const auto path = (dir / "semicolon.csv").string();
    for (std::size_t size = 2; size <= 40; ++size) {
      for (std::size_t at = 0; at + 1 < size; ++at) {
        std::string text(size, 'x');
        text[at] = ';';
        text[at + 1] = '=';
        const VectorTable table({"a"}, {{Cell::text(text)}});
        const auto r = write_csv(table, path);
        REQUIRE(r);
        CAPTURE(text);
        CHECK(r->neutralised_cells == 1);
        CHECK(msdump::testing::slurp(path) == "a\n'" + text + "\n");
      }
    }
  }
  TEST_CASE("write_csv quotes and neutralises long texts as it does short ones") {
    const std::string pad(70, 'x');
    msdump::testing::TempDir dir;
    const VectorTable table({"a", "b", "c", "d", "e"},
                            {{Cell::text(pad), Cell::text(pad + "\"q\"" + pad + "\""), Cell::text(pad + ",c"),
                              Cell::text("=1;" + pad), Cell::text(pad + "\r\n")}});
    const auto path = (dir / "long.csv").string();
    auto r = write_csv(table, path);
    REQUIRE(r);
    CHECK(r->neutralised_cells == 1);
    CHECK(msdump::testing::slurp(path) == "a,b,c,d,e\n" + pad + ",\"" + pad + "\"\"q\"\"" + pad + "\"\"\",\"" + pad +
                                              ",c\",'=1;" + pad + ",\"" + pad + "\r\n\"\n");
  }
  TEST_CASE("write_csv writes a line of one empty field as \"\"") {
    msdump::testing::TempDir dir;
    const VectorTable table({"only"}, {{Cell::text("")}, {Cell::floating(std::nan(""))}, {Cell::text("x")}});
    const auto path = (dir / "one.csv").string();
    REQUIRE(write_csv(table, path));
    CHECK(msdump::testing::slurp(path) == "only\n\"\"\n\"\"\nx\n");
  }
  TEST_CASE("write_csv splits more rows than rows_per_file into parts with the header") {
    msdump::testing::TempDir dir;
    const auto path = (dir / "compare_result_1.csv").string();
    auto r = write_csv(numbered_rows(5), path, CsvOptions{2, Overwrite::yes});
    REQUIRE(r);
    const std::vector<std::string> want = {(dir / "compare_result_1_part_1.csv").string(),
                                           (dir / "compare_result_1_part_2.csv").string(),
                                           (dir / "compare_result_1_part_3.csv").string()};
    CHECK(r->paths == want);
    CHECK_FALSE(fs::exists(path));
    CHECK(msdump::testing::slurp(want[0]) == "n,t\n0,r\n1,r\n");
    CHECK(msdump::testing::slurp(want[1]) == "n,t\n2,r\n3,r\n");
    CHECK(msdump::testing::slurp(want[2]) == "n,t\n4,r\n");
    // exactly rows_per_file rows: one file under the given name
    auto one = write_csv(numbered_rows(2), path, CsvOptions{2, Overwrite::yes});
    REQUIRE(one);
    CHECK(one->paths == std::vector<std::string>{path});
    CHECK(msdump::testing::slurp(path) == "n,t\n0,r\n1,r\n");
  }
  TEST_CASE("write_csv: an empty table is the header line") {
    msdump::testing::TempDir dir;
    const auto path = (dir / "sub" / "e.csv").string();  // missing directories are created
    REQUIRE(write_csv(numbered_rows(0), path));
    CHECK(msdump::testing::slurp(path) == "n,t\n");
  }
  TEST_CASE("write_csv errors name the file") {
    msdump::testing::TempDir dir;
    auto r = write_csv(numbered_rows(1), dir.path().string());
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'" + dir.path().string() + "' is a directory");
    const auto path = (dir / "x.csv").string();
    REQUIRE(write_csv(numbered_rows(1), path));
    r = write_csv(numbered_rows(1), path, CsvOptions{k_csv_rows_per_file, Overwrite::no});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::exists);
    CHECK(r.error().message == "'" + path + "' exists (use --force to replace it)");
    // a failure leaves no file behind: the second part cannot be created over a directory
    fs::create_directory(dir / "p_part_2.csv");
    r = write_csv(numbered_rows(3), (dir / "p.csv").string(), CsvOptions{2, Overwrite::yes});
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'" + (dir / "p_part_2.csv").string() + "' is a directory");
    CHECK_FALSE(fs::exists(dir / "p_part_1.csv"));
  }
  TEST_CASE("csv_part_paths") {
    CHECK(csv_part_paths("d/a.csv", 3, 3) == std::vector<std::string>{"d/a.csv"});
    CHECK(csv_part_paths("d/a.csv", 4, 3) == std::vector<std::string>{"d/a_part_1.csv", "d/a_part_2.csv"});
    CHECK(csv_part_paths("a", 2, 1) == std::vector<std::string>{"a_part_1", "a_part_2"});
  }
}
