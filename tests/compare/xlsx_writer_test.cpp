#include "compare/xlsx_writer.h"

#include <doctest/doctest.h>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "compare/writer_test_table.h"
#include "core/byte_source.h"
#include "tensor/zip_directory.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;
using compare::testing::VectorTable;
namespace fs = std::filesystem;

namespace {

// The text of the archive member `name` (stored or deflated), or "<missing>".
std::string zip_member(const std::string& path, const std::string& name) {
  auto src = FileSource::open(path);
  REQUIRE(src);
  auto dir = tensor::read_zip_directory(**src);
  REQUIRE(dir);
  const tensor::ZipEntry* e = dir->find(name);
  if (e == nullptr) return "<missing>";
  auto local = (*src)->read_vector(e->local_header_offset, 30);
  REQUIRE(local);
  const auto u16 = [&](std::size_t at) {
    const auto byte = [&](std::size_t i) { return std::to_integer<std::size_t>((*local)[i]); };
    return byte(at) | byte(at + 1) << 8;
  };
  auto data = (*src)->read_vector(e->local_header_offset + 30 + u16(26) + u16(28), e->compressed_size);
  REQUIRE(data);
  if (e->method == 0) return std::string(reinterpret_cast<const char*>(data->data()), data->size());
  REQUIRE(e->method == 8);
  std::string out(e->uncompressed_size, '\0');
  z_stream z{};
  REQUIRE(inflateInit2(&z, -MAX_WBITS) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(data->data());
  z.avail_in = static_cast<uInt>(data->size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  REQUIRE(rc == Z_STREAM_END);
  return out;
}

// The <sheetData> element of a worksheet's XML.
std::string sheet_data(const std::string& xml) {
  const auto begin = xml.find("<sheetData>");
  const auto end = xml.find("</sheetData>");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  return xml.substr(begin, end + 12 - begin);
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("write_xlsx writes typed cells under a bold header") {
    msdump::testing::TempDir dir;
    const double inf = std::numeric_limits<double>::infinity();
    const VectorTable table({"Name", "Max diff", "Count", "Consistent", "Err_message"},
                            {{Cell::text("-x<&>"), Cell::floating(2.5), Cell::integer(-15), Cell::boolean(true),
                              Cell::text("[\"error: x\"]")},
                             {Cell::text("=SUM(A1)"), Cell::floating(inf), Cell::floating(-inf),
                              Cell::boolean(false), Cell::floating(std::nan(""))}});
    const auto path = (dir / "compare_result.xlsx").string();
    auto r = write_xlsx(table, path);
    REQUIRE(r);
    CHECK(r->path == path);
    CHECK(r->sheets == std::vector<std::string>{"Sheet1"});
    CHECK(r->truncated_cells == 0);
    CHECK(zip_member(path, "xl/workbook.xml").find("<sheet name=\"Sheet1\" sheetId=\"1\"") != std::string::npos);
    CHECK(zip_member(path, "xl/styles.xml").find("<b/>") != std::string::npos);
    // texts inline (constant-memory mode), the header in style 1 (bold), =SUM(A1) a string
    CHECK(sheet_data(zip_member(path, "xl/worksheets/sheet1.xml")) ==
          "<sheetData><row r=\"1\"><c r=\"A1\" s=\"1\" t=\"inlineStr\"><is><t>Name</t></is></c>"
          "<c r=\"B1\" s=\"1\" t=\"inlineStr\"><is><t>Max diff</t></is></c>"
          "<c r=\"C1\" s=\"1\" t=\"inlineStr\"><is><t>Count</t></is></c>"
          "<c r=\"D1\" s=\"1\" t=\"inlineStr\"><is><t>Consistent</t></is></c>"
          "<c r=\"E1\" s=\"1\" t=\"inlineStr\"><is><t>Err_message</t></is></c></row>"
          "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>-x&lt;&amp;&gt;</t></is></c><c r=\"B2\"><v>2.5</v></c>"
          "<c r=\"C2\"><v>-15</v></c><c r=\"D2\" t=\"b\"><v>1</v></c>"
          "<c r=\"E2\" t=\"inlineStr\"><is><t>[\"error: x\"]</t></is></c></row>"
          "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t>=SUM(A1)</t></is></c>"
          "<c r=\"B3\" t=\"inlineStr\"><is><t>inf</t></is></c><c r=\"C3\" t=\"inlineStr\"><is><t>-inf</t></is></c>"
          "<c r=\"D3\" t=\"b\"><v>0</v></c></row></sheetData>");
    // nothing but the workbook is left in the directory
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}) == 1);
  }
  TEST_CASE("write_xlsx splits more rows than rows_per_sheet into sheets part_0, part_1, ...") {
    msdump::testing::TempDir dir;
    const VectorTable table({"n"}, {{Cell::integer(0)}, {Cell::integer(1)}, {Cell::integer(2)}});
    const auto path = (dir / "parts.xlsx").string();
    auto r = write_xlsx(table, path, XlsxOptions{2, Overwrite::yes});
    REQUIRE(r);
    CHECK(r->sheets == std::vector<std::string>{"part_0", "part_1"});
    const std::string workbook = zip_member(path, "xl/workbook.xml");
    CHECK(workbook.find("<sheet name=\"part_0\" sheetId=\"1\"") != std::string::npos);
    CHECK(workbook.find("<sheet name=\"part_1\" sheetId=\"2\"") != std::string::npos);
    const std::string head = "<row r=\"1\"><c r=\"A1\" s=\"1\" t=\"inlineStr\"><is><t>n</t></is></c></row>";
    CHECK(sheet_data(zip_member(path, "xl/worksheets/sheet1.xml")) ==
          "<sheetData>" + head + "<row r=\"2\"><c r=\"A2\"><v>0</v></c></row>" +
              "<row r=\"3\"><c r=\"A3\"><v>1</v></c></row></sheetData>");
    CHECK(sheet_data(zip_member(path, "xl/worksheets/sheet2.xml")) ==
          "<sheetData>" + head + "<row r=\"2\"><c r=\"A2\"><v>2</v></c></row></sheetData>");
  }
  TEST_CASE("write_xlsx cuts texts beyond Excel's cell limit at a character boundary") {
    msdump::testing::TempDir dir;
    std::string long_text;
    for (int i = 0; i < 40000; ++i) long_text += "\u00e9";
    const VectorTable table({"t"}, {{Cell::text(long_text)}, {Cell::text("short")}});
    const auto path = (dir / "long.xlsx").string();
    auto r = write_xlsx(table, path);
    REQUIRE(r);
    CHECK(r->truncated_cells == 1);
    const std::string data = sheet_data(zip_member(path, "xl/worksheets/sheet1.xml"));
    CHECK(data.find("<t>" + long_text.substr(0, 2 * k_xlsx_max_text_chars) + "</t>") != std::string::npos);
    CHECK(data.find("<t>short</t>") != std::string::npos);
  }
  TEST_CASE("write_xlsx errors name the file and leave nothing behind") {
    msdump::testing::TempDir dir;
    const VectorTable table({"n"}, {{Cell::integer(0)}});
    auto r = write_xlsx(table, dir.path().string());
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'" + dir.path().string() + "' is a directory");
    const auto path = (dir / "x.xlsx").string();
    REQUIRE(write_xlsx(table, path));
    r = write_xlsx(table, path, XlsxOptions{k_xlsx_rows_per_sheet, Overwrite::no});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::exists);
    CHECK(r.error().message == "'" + path + "' exists (use --force to replace it)");
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}) == 1);
  }
  TEST_CASE("xlsx_sheet_names") {
    CHECK(xlsx_sheet_names(0, 5) == std::vector<std::string>{"Sheet1"});
    CHECK(xlsx_sheet_names(5, 5) == std::vector<std::string>{"Sheet1"});
    CHECK(xlsx_sheet_names(11, 5) == std::vector<std::string>{"part_0", "part_1", "part_2"});
  }
}
