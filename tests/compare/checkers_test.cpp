#include "compare/checkers.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "compare/stats_diff.h"

using namespace msdump;
using namespace msdump::compare;

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();

Cell t(const char* s) { return Cell::text(s); }
Cell f(double v) { return Cell::floating(v); }
Cell i(std::int64_t v) { return Cell::integer(v); }

std::string entry_of(const std::string& row_name) {
  for (const char* part : {".input.", ".output.", ".parameters."}) {
    if (const auto at = row_name.find(part); at != std::string::npos) return row_name.substr(0, at);
  }
  return row_name.substr(0, row_name.rfind('.'));
}

Row row(const std::string& name, const std::string& dtype, const std::string& shape, const std::string& requires_grad,
        std::array<Cell, 4> stats) {
  Row r;
  r.name = name;
  r.state = name.find(".output.") != std::string::npos ? RowState::output : RowState::input;
  r.dtype = dtype;
  r.shape = shape;
  r.requires_grad = requires_grad;
  r.stats = std::move(stats);
  r.tensor = dtype.rfind("torch.", 0) == 0;
  r.data_name = r.tensor ? name + ".pt" : "-1";
  return r;
}

Row fp32(const std::string& name, std::array<Cell, 4> stats, const std::string& shape = "[2, 4]") {
  return row(name, "torch.float32", shape, "True", std::move(stats));
}

// A compare table built by hand: NPU rows, their bench partners, metrics by mode.
struct Fixture {
  DumpRows npu;
  DumpRows bench;
  Table table;

  explicit Fixture(Mode mode) {
    table.mode = mode;
    table.npu = &npu;
    table.bench = &bench;
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;

  // Adds an NPU row and its partner (none: unmatched); summary metrics come from stats_diff.
  std::size_t add(Row n, std::optional<Row> b, std::vector<Cell> metrics = {}) {
    const std::string entry = entry_of(n.name);
    std::uint32_t index = 0;
    while (index < npu.entries.size() && npu.entries[index] != entry) ++index;
    if (index == npu.entries.size()) npu.entries.push_back(entry);
    n.entry = index;
    TableRow tr;
    tr.npu = static_cast<std::uint32_t>(npu.rows.size());
    npu.rows.push_back(std::move(n));
    if (b) {
      tr.bench = static_cast<std::uint32_t>(bench.rows.size());
      bench.rows.push_back(std::move(*b));
    }
    if (table.mode == Mode::summary && metrics.empty()) {
      const auto cells = stats_diff(npu.rows.back(), tr.bench ? &bench.rows.back() : nullptr);
      metrics.assign(cells.begin(), cells.end());
    }
    tr.metrics = std::move(metrics);
    table.rows.push_back(std::move(tr));
    return table.rows.size() - 1;
  }
  // Same row on both sides.
  std::size_t same(const Row& r) { return add(r, r); }

  void run(bool msprobe_only = true) { run_checkers(table, CheckerOptions{msprobe_only}); }

  // "<result> [message | message ...]" of row k.
  std::string verdict(std::size_t k) const {
    const TableRow& r = table.rows[k];
    std::string out = r.result == Level::pass ? "pass" : r.result == Level::warning ? "warning" : "error";
    for (const std::string_view m : r.messages) out.append(" | ").append(m);
    return out;
  }
  std::string metric(std::size_t k, std::size_t column) const { return table.rows[k].metrics[column].str(); }
};

std::vector<Cell> tensor_metrics(Cell cosine, Cell one_thousandth) {
  return {std::move(cosine), f(0.1), f(0.01), f(0.02), std::move(one_thousandth), f(1.0)};
}

std::vector<Cell> all_six(const char* text) { return std::vector<Cell>(6, t(text)); }

const std::string k_dtype_err(k_msg_dtype);
const std::string k_warn(k_msg_norm_rel_warn);

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("checkers: rows of a real msprobe statistics table (cnn_2rank rank0 step0)") {
    // NPU bf16 autocast against fp32; every number below is copied from msprobe's table.
    Fixture fx(Mode::summary);
    const auto bf16 = [](const std::string& name, std::array<Cell, 4> s, const std::string& shape,
                         const std::string& grad = "True") {
      return row(name, "torch.bfloat16", shape, grad, std::move(s));
    };
    const auto f32 = [](const std::string& name, std::array<Cell, 4> s, const std::string& shape,
                        const std::string& grad = "True") { return row(name, "torch.float32", shape, grad, std::move(s)); };
    const std::string conv = "Functional.conv2d.0.forward.";
    const auto c_in0 = fx.same(f32(conv + "input.0",
                                   {f(3.029174327850342), f(-2.767547130584717), f(-0.08519717305898666), f(19.644771575927734)},
                                   "[2, 3, 8, 8]", "False"));
    fx.same(row(conv + "input.3.0", "<class 'int'>", "[]", "N/A", {i(1), i(1), i(1), i(1)}));
    const auto c_out0 =
        fx.add(bf16(conv + "output.0", {f(1.0703125), f(-1.65625), f(-0.10546875), f(11.1875)}, "[2, 4, 8, 8]"),
               f32(conv + "output.0",
                   {f(1.0715593099594116), f(-1.6564431190490723), f(-0.10559054464101791), f(11.21119213104248)},
                   "[2, 4, 8, 8]"));
    const std::string relu = "Functional.relu.1.forward.";
    const auto r_in0 =
        fx.add(bf16(relu + "input.0", {f(1.046875), f(-1.09375), f(0.029296875), f(4.875)}, "[2, 4, 4, 4]"),
               f32(relu + "input.0",
                   {f(1.0508697032928467), f(-1.0943726301193237), f(0.029289137572050095), f(4.875796794891357)},
                   "[2, 4, 4, 4]"));
    const auto r_inplace = fx.same(row(relu + "input.inplace", "<class 'bool'>", "[]", "N/A",
                                       {Cell::boolean(false), Cell::boolean(false), Cell::boolean(false), Cell::boolean(false)}));
    const auto r_out0 =
        fx.add(bf16(relu + "output.0", {f(1.046875), f(0.0), f(0.185546875), f(3.703125)}, "[2, 4, 4, 4]"),
               f32(relu + "output.0", {f(1.0508697032928467), f(0.0), f(0.18613466620445251), f(3.709710121154785)},
                   "[2, 4, 4, 4]"));
    const std::string back = "Functional.conv2d.0.backward.";
    const auto b_in0 = fx.add(
        bf16(back + "input.0", {f(0.06884765625), f(-0.06689453125), f(2.2817403078079224e-07), f(0.25)}, "[2, 4, 8, 8]",
             "False"),
        f32(back + "input.0", {f(0.06848518550395966), f(-0.06678985059261322), f(-2.9103830456733704e-11), f(0.25003576278686523)},
            "[2, 4, 8, 8]", "False"));
    const auto b_out0 = fx.same(row(back + "output.0", "None", "None", "N/A", {t("None"), t("None"), t("None"), t("None")}));
    const auto b_out1 = fx.add(
        bf16(back + "output.1", {f(0.353515625), f(-0.287109375), f(0.0026092529296875), f(1.3203125)}, "[4, 3, 3, 3]", "False"),
        f32(back + "output.1", {f(0.3541623651981354), f(-0.28789639472961426), f(0.0026731507387012243), f(1.3224695920944214)},
            "[4, 3, 3, 3]", "False"));
    const auto b_out2 = fx.add(
        bf16(back + "output.2", {f(0.00011539459228515625), f(-7.200241088867188e-05), f(2.9206275939941406e-05), f(0.00018215179443359375)},
             "[4]", "False"),
        f32(back + "output.2", {f(1.6072590369731188e-08), f(-1.5599653124809265e-08), f(-4.1154635255225e-09), f(2.7203387986673988e-08)},
            "[4]", "False"));
    fx.run();

    // The metric cells, as msprobe wrote them.
    const auto cells = [&](std::size_t k) {
      std::string s;
      for (std::size_t c = 0; c < 8; ++c) s += fx.metric(k, c) + (c == 7 ? "" : ",");
      return s;
    };
    CHECK(cells(c_in0) == "0,0,0,0,0,0,0,0");
    CHECK(cells(c_out0) ==
          "-0.001246809959411621,0.00019311904907248767,0.00012179464101789994,-0.02369213104248047,"
          "0.11635473163485908%,0.011658658655502344%,0.1153461623216094%,0.21132570707516224%");
    CHECK(cells(r_in0) ==
          "-0.003994703292846902,0.0006226301193235084,7.73742794999907e-06,-0.0007967948913574219,"
          "0.38013307266635454%,0.056893794872740995%,0.02641739768187211%,0.016341839598243063%");
    CHECK(cells(r_out0) ==
          "-0.003994703292846902,0,-0.0005877912044524869,-0.006585121154785156,"
          "0.38013307266635454%,0,0.3157881422296963%,0.17751039676208696%");
    CHECK(cells(b_in0) ==
          "0.00036247074604039975,-0.00010468065738679366,2.28203134611249e-07,-3.5762786865178864e-05,"
          "0.5292688387614032%,0.15673138427168617%,784100.0000000001%,0.014303068675685279%");
    CHECK(cells(b_out2) ==
          "0.00011537851969473026,-7.198681123554707e-05,2.9210391403466932e-05,0.00018212459104551332,"
          "717858.8954274453%,461464.17910447763%,709771.6022099449%,669492.3115265273%");

    // Result and Err_message, as msprobe wrote them.
    CHECK(fx.verdict(c_in0) == "pass");
    CHECK(fx.verdict(c_out0) == "error | " + k_dtype_err);
    CHECK(fx.verdict(r_in0) == "error | " + k_dtype_err);
    CHECK(fx.verdict(r_inplace) == "pass");
    CHECK(fx.verdict(r_out0) == "error | " + k_dtype_err + " | " + k_warn);
    CHECK(fx.verdict(b_in0) == "error | " + k_dtype_err);
    CHECK(fx.verdict(b_out0) == "warning | " + k_warn);  // the first output row carries the warning
    CHECK(fx.verdict(b_out1) == "error | " + k_dtype_err);
    CHECK(fx.verdict(b_out2) == "error | " + std::string(k_msg_norm_rel_err) + " | " + k_dtype_err);

    // Every row here has a partner: the default options add nothing.
    fx.run(false);
    CHECK(fx.verdict(b_out2) == "error | " + std::string(k_msg_norm_rel_err) + " | " + k_dtype_err);
  }

  TEST_CASE("checkers: inf/NaN in the NPU max or min is an error unless the bench has one too") {
    Fixture fx(Mode::summary);
    const auto a = fx.add(fp32("Torch.a.0.forward.input.0", {f(k_inf), f(0.0), f(1.0), f(1.0)}),
                          fp32("Torch.a.0.forward.input.0", {f(2.0), f(0.0), f(1.0), f(1.0)}));
    const auto b = fx.add(fp32("Torch.b.0.forward.input.0", {f(1.0), t("Nan"), f(1.0), f(1.0)}),
                          fp32("Torch.b.0.forward.input.0", {f(1.0), f(0.0), f(1.0), f(1.0)}));
    const auto c = fx.add(fp32("Torch.c.0.forward.input.0", {f(k_inf), f(0.0), f(1.0), f(1.0)}),
                          fp32("Torch.c.0.forward.input.0", {f(1.0), f(-k_inf), f(1.0), f(1.0)}));
    const auto d = fx.add(fp32("Torch.d.0.forward.input.0", {f(1.0), f(0.0), t("Nan"), f(k_inf)}),
                          fp32("Torch.d.0.forward.input.0", {f(1.0), f(0.0), f(1.0), f(1.0)}));
    const auto e = fx.add(fp32("Torch.e.0.forward.output.0", {t("-inf"), f(0.0), f(1.0), f(1.0)}), std::nullopt);
    fx.run();
    const std::string err(k_msg_inf_nan);
    CHECK(fx.verdict(a) == "error | " + err);
    CHECK(fx.verdict(b) == "error | " + err);
    CHECK(fx.verdict(c) == "pass");  // the bench min is -inf
    CHECK(fx.verdict(d) == "pass");  // only max and min count
    CHECK(fx.verdict(e) == "error | " + err);  // an unmatched bench (N/A) counts as finite
  }

  TEST_CASE("checkers: NormRelativeErr of an output above 50 % with close inputs is an error") {
    Fixture fx(Mode::summary);
    // Tensor.sum: the bench output's norm is 0, so NormRelativeErr is inf.
    fx.same(fp32("Tensor.sum.0.forward.input.0", {f(1.0), f(-1.0), f(0.0), f(2.0)}));
    const auto out = fx.add(fp32("Tensor.sum.0.forward.output.0", {f(0.5), f(0.5), f(0.5), f(0.5)}, "[]"),
                            fp32("Tensor.sum.0.forward.output.0", {f(0.0), f(0.0), f(0.0), f(0.0)}, "[]"));
    // NUM against INF gives the rel "-inf": |-inf| > 0.5.
    fx.same(fp32("Tensor.max.0.forward.input.0", {f(1.0), f(-1.0), f(0.0), f(2.0)}));
    const auto out2 = fx.add(fp32("Tensor.max.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}),
                             fp32("Tensor.max.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(k_inf)}));
    // Inputs already 20 % off: no error, but no warning either (60 % is not 10 times 20 %).
    fx.add(fp32("Tensor.add.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.2)}),
           fp32("Tensor.add.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto out3 = fx.add(fp32("Tensor.add.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.6)}),
                             fp32("Tensor.add.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    fx.run();
    CHECK(fx.metric(out, 7) == "inf");
    CHECK(fx.verdict(out) == "error | " + std::string(k_msg_norm_rel_err));  // "inf" is not a % text: no warning
    CHECK(fx.metric(out2, 7) == "-inf");
    CHECK(fx.verdict(out2) == "error | " + std::string(k_msg_norm_rel_err));
    CHECK(fx.metric(out3, 7) == "60.00000000000001%");
    CHECK(fx.verdict(out3) == "pass");
  }

  TEST_CASE("checkers: the norm relative warning goes to the first output row only") {
    Fixture fx(Mode::summary);
    // Inputs all equal (max 0): an output above 10 % warns.
    const auto in = fx.same(fp32("Functional.gelu.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto o0 = fx.same(fp32("Functional.gelu.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto o1 = fx.add(fp32("Functional.gelu.0.forward.output.1", {f(1.0), f(1.0), f(1.0), f(1.15)}),
                           fp32("Functional.gelu.0.forward.output.1", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    // Inputs 1 % off, outputs 11 % off: more than 10 times.
    fx.add(fp32("Functional.silu.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.01)}),
           fp32("Functional.silu.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto s0 = fx.add(fp32("Functional.silu.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.11)}),
                           fp32("Functional.silu.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    // Inputs 1 % off, outputs 9 % off: less than 10 times.
    fx.add(fp32("Functional.tanh.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.01)}),
           fp32("Functional.tanh.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto t0 = fx.add(fp32("Functional.tanh.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.09)}),
                           fp32("Functional.tanh.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    fx.run();
    CHECK(fx.verdict(in) == "pass");
    CHECK(fx.verdict(o0) == "warning | " + k_warn);
    CHECK(fx.verdict(o1) == "pass");
    CHECK(fx.verdict(s0) == "warning | " + k_warn);
    CHECK(fx.verdict(t0) == "pass");
  }

  TEST_CASE("checkers: requires_grad, scalar parameters, dtype and shape") {
    Fixture fx(Mode::summary);
    const std::string api = "Functional.dropout.0.forward.";
    const auto grad = fx.add(row(api + "input.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                             row(api + "input.0", "torch.float32", "[2]", "False", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    const auto p = fx.add(row(api + "input.p", "<class 'float'>", "[]", "N/A", {f(0.5), f(0.5), f(0.5), f(0.5)}),
                          row(api + "input.p", "<class 'float'>", "[]", "N/A", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto same_value = fx.add(row(api + "input.n", "<class 'int'>", "[]", "N/A", {i(1), i(1), i(1), i(1)}),
                                   row(api + "input.n", "<class 'float'>", "[]", "N/A", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto dtype = fx.add(row(api + "input.1", "torch.float16", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                              row(api + "input.1", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    const auto shape = fx.add(row(api + "input.2", "torch.float32", "[2, 1]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                              row(api + "input.2", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    const auto scalar_out = fx.add(row(api + "output.0", "<class 'float'>", "[]", "N/A", {f(0.5), f(0.5), f(0.5), f(0.5)}),
                                   row(api + "output.0", "<class 'float'>", "[]", "N/A", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto qkv = fx.add(row("Module.qkv.Linear.forward.0.output.0", "torch.float16", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                            row("Module.qkv.Linear.forward.0.output.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    const auto unmatched = fx.add(row(api + "input.3", "torch.float16", "[3]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                                  std::nullopt);
    fx.run();
    CHECK(fx.verdict(grad) == "error | " + std::string(k_msg_requires_grad));
    CHECK(fx.verdict(p) == "error | " + std::string(k_msg_scalar_params));
    // 1 == 1.0 in Python; the dtype differs though.
    CHECK(fx.verdict(same_value) == "error | " + k_dtype_err);
    CHECK(fx.verdict(dtype) == "error | " + k_dtype_err);
    CHECK(fx.verdict(shape) == "error | " + std::string(k_msg_shape));
    CHECK(fx.verdict(scalar_out) == "pass");  // scalar parameters: input rows only
    CHECK(fx.verdict(qkv) == "pass");        // the dtype check skips bench names with qkv / gate_up
    CHECK(fx.verdict(unmatched) == "pass");
  }

  TEST_CASE("checkers: messages follow the checker order") {
    Fixture fx(Mode::summary);
    fx.same(fp32("Torch.mul.0.forward.input.0", {f(1.0), f(0.0), f(1.0), f(1.0)}));
    const auto out = fx.add(row("Torch.mul.0.forward.output.0", "torch.float16", "[3]", "False", {f(k_inf), f(0.0), f(1.0), f(3.0)}),
                            row("Torch.mul.0.forward.output.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(1.0), f(1.0)}));
    fx.run();
    CHECK(fx.verdict(out) == "error | " + std::string(k_msg_inf_nan) + " | " + std::string(k_msg_norm_rel_err) + " | " +
                                 std::string(k_msg_requires_grad) + " | " + k_dtype_err + " | " + std::string(k_msg_shape) +
                                 " | " + k_warn);
  }

  TEST_CASE("checkers: ignored APIs") {
    Fixture fx(Mode::summary);
    // Tensor.to: nothing is checked.
    const auto to_in = fx.add(row("Tensor.to.0.forward.input.0", "torch.float16", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                              row("Tensor.to.0.forward.input.0", "torch.float32", "[3]", "False", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    const auto to_out = fx.add(row("Tensor.to.0.forward.output.0", "torch.float16", "[2]", "True", {f(k_inf), f(0.0), f(0.5), f(9.0)}),
                               row("Tensor.to.0.forward.output.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    // all_to_all_single: only the output rows are checked, and not against the inputs.
    const std::string a2a = "Distributed.all_to_all_single.0.forward.";
    const auto a_in = fx.add(row(a2a + "input.0", "torch.float16", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                             row(a2a + "input.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    const auto a_out = fx.add(row(a2a + "output.0", "torch.float16", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(9.0)}),
                              row(a2a + "output.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    fx.run();
    CHECK(fx.verdict(to_in) == "pass");
    CHECK(fx.verdict(to_out) == "pass");
    CHECK(fx.verdict(a_in) == "pass");
    CHECK(fx.verdict(a_out) == "error | " + k_dtype_err);  // 800 % off, yet no NormRelativeErr error or warning
  }

  TEST_CASE("checkers: ignore sets come from the second part of the first input row") {
    CHECK(ignore_kind("Tensor.to.0.forward.input.0") == IgnoreKind::all);
    CHECK(ignore_kind("Torch.empty_like.3.forward.input.0") == IgnoreKind::all);
    CHECK(ignore_kind("Tensor.__setitem__.0.forward.input.1") == IgnoreKind::all);
    CHECK(ignore_kind("Module.to.Linear.forward.0.input.0") == IgnoreKind::all);
    CHECK(ignore_kind("Distributed.batch_isend_irecv.0.forward.input.0") == IgnoreKind::inputs);
    CHECK(ignore_kind("Distributed._all_gather_base.0.forward.input.0") == IgnoreKind::inputs);
    CHECK(ignore_kind("Tensor.toy.0.forward.input.0") == IgnoreKind::none);
    CHECK(ignore_kind("Functional.linear.0.forward.input.0") == IgnoreKind::none);
    CHECK(ignore_kind("noDots") == IgnoreKind::none);
  }

  TEST_CASE("checkers: rows of one entry form one group even when not adjacent") {
    Fixture fx(Mode::summary);
    fx.same(fp32("Functional.linear.0.forward.input.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto other = fx.same(fp32("Functional.relu.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    const auto o0 = fx.add(fp32("Functional.linear.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.5)}),
                           fp32("Functional.linear.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}));
    fx.run();
    CHECK(fx.verdict(other) == "pass");
    CHECK(fx.verdict(o0) == "warning | " + k_warn);
  }

  TEST_CASE("checkers: a second run starts from pass again") {
    Fixture fx(Mode::summary);
    const auto k = fx.add(row("Torch.a.0.forward.input.0", "torch.float16", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                          row("Torch.a.0.forward.input.0", "torch.float32", "[2]", "True", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    fx.run();
    fx.run();
    CHECK(fx.verdict(k) == "error | " + k_dtype_err);
  }

  TEST_CASE("checkers: tensor mode one-thousandth and cosine checks (nan_to_num)") {
    // The tensor input has N/A metrics (NaN/inf positions differ), the kwargs are unsupported:
    // both input minima stay at their default 1.0 and fire against the output.
    Fixture fx(Mode::tensor);
    const std::string api = "Torch.nan_to_num.0.forward.";
    const auto in = fx.same(fp32(api + "input.0", {f(k_inf), f(-k_inf), t("Nan"), f(k_inf)}));
    const Row bench_in = fp32(api + "input.0", {f(1.0), f(0.0), f(0.5), f(1.0)});
    fx.table.rows[in].metrics = all_six("N/A");
    fx.bench.rows.back() = bench_in;
    const auto nan_kw = fx.add(row(api + "input.nan", "<class 'float'>", "[]", "N/A", {f(0.0), f(0.0), f(0.0), f(0.0)}),
                               row(api + "input.nan", "<class 'float'>", "[]", "N/A", {f(0.0), f(0.0), f(0.0), f(0.0)}),
                               all_six("unsupported"));
    const auto out = fx.add(fp32(api + "output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                            fp32(api + "output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                            tensor_metrics(f(0.44), f(0.0)));
    fx.run();
    CHECK(fx.verdict(in) == "error | " + std::string(k_msg_inf_nan));
    CHECK(fx.verdict(nan_kw) == "pass");
    CHECK(fx.verdict(out) == "error | " + std::string(k_msg_one_thousandth) + " | " + std::string(k_msg_cosine));

    // With the default options the reasons for the missing metrics follow (the level stays).
    fx.run(false);
    CHECK(fx.verdict(in) == "error | " + std::string(k_msg_inf_nan) + " | " + std::string(k_info_inf_nan_positions));
    CHECK(fx.verdict(nan_kw) == "pass | " + std::string(k_info_not_tensor));
    CHECK(fx.verdict(out) == "error | " + std::string(k_msg_one_thousandth) + " | " + std::string(k_msg_cosine));
  }

  TEST_CASE("checkers: tensor mode thresholds") {
    Fixture fx(Mode::tensor);
    // Inputs close (cosine 0.95, ratio 0.95): output cosine 0.9 is within 0.1, ratio 0.1 is not < 0.1.
    fx.same(fp32("Torch.a.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    fx.table.rows.back().metrics = tensor_metrics(f(0.95), f(0.95));
    const auto a = fx.add(fp32("Torch.a.0.forward.output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                          fp32("Torch.a.0.forward.output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}), tensor_metrics(f(0.9), f(0.1)));
    // Input cosine 0.9 is not > 0.9; input ratio 0.9 is not > 0.9.
    fx.same(fp32("Torch.b.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    fx.table.rows.back().metrics = tensor_metrics(f(0.9), f(0.9));
    const auto b = fx.add(fp32("Torch.b.0.forward.output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                          fp32("Torch.b.0.forward.output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}), tensor_metrics(f(0.1), f(0.0)));
    // The second output is the worse one; the verdict still goes to the first output row.
    fx.same(fp32("Torch.c.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    fx.table.rows.back().metrics = tensor_metrics(f(1.0), f(1.0));
    const auto c0 = fx.add(fp32("Torch.c.0.forward.output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                           fp32("Torch.c.0.forward.output.0", {f(1.0), f(0.0), f(0.5), f(1.0)}), tensor_metrics(f(1.0), f(1.0)));
    const auto c1 = fx.add(fp32("Torch.c.0.forward.output.1", {f(1.0), f(0.0), f(0.5), f(1.0)}),
                           fp32("Torch.c.0.forward.output.1", {f(1.0), f(0.0), f(0.5), f(1.0)}), tensor_metrics(f(0.5), f(0.05)));
    fx.run();
    CHECK(fx.verdict(a) == "pass");
    CHECK(fx.verdict(b) == "pass");
    CHECK(fx.verdict(c0) == "error | " + std::string(k_msg_one_thousandth) + " | " + std::string(k_msg_cosine));
    CHECK(fx.verdict(c1) == "pass");
  }

  TEST_CASE("checkers: tensor mode info messages say why metrics are missing") {
    Fixture fx(Mode::tensor);
    const auto shape = fx.add(fp32("Torch.a.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}, "[2, 3]"),
                              fp32("Torch.a.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}, "[3, 2]"),
                              all_six("shape unmatched"));
    const auto empty = fx.same(fp32("Torch.b.0.forward.input.0", {t("None"), t("None"), t("None"), t("None")}, "[0, 4]"));
    fx.table.rows[empty].metrics = all_six("unsupported");
    const auto missing = fx.same(fp32("Torch.c.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}, "[10, 4]"));
    fx.table.rows[missing].metrics = all_six("unsupported");
    const auto zero_d = fx.same(fp32("Torch.d.0.forward.output.0", {f(1.0), f(1.0), f(1.0), f(1.0)}, "[]"));
    fx.table.rows[zero_d].metrics = {t("unsupported"), t("unsupported"), f(0.0), f(0.0), t("unsupported"), t("unsupported")};
    const auto unmatched = fx.add(fp32("Torch.e.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}), std::nullopt,
                                  all_six("unsupported"));
    const auto fine = fx.same(fp32("Torch.f.0.forward.input.0", {f(1.0), f(0.0), f(0.5), f(1.0)}));
    fx.table.rows[fine].metrics = tensor_metrics(f(1.0), f(1.0));
    fx.run(false);
    CHECK(fx.verdict(shape) == "error | " + std::string(k_msg_shape) + " | " + std::string(k_info_shape_unmatched));
    CHECK(fx.verdict(empty) == "pass | " + std::string(k_info_empty_tensor));
    CHECK(fx.verdict(missing) == "pass | " + std::string(k_info_tensor_unread));
    CHECK(fx.verdict(zero_d) == "pass | " + std::string(k_info_zero_dim));
    CHECK(fx.verdict(unmatched) == "pass | " + std::string(k_info_no_bench));
    CHECK(fx.verdict(fine) == "pass");
    fx.run(true);
    CHECK(fx.verdict(shape) == "error | " + std::string(k_msg_shape));
    CHECK(fx.verdict(unmatched) == "pass");
  }

  TEST_CASE("checkers: statistics mode unmatched rows get the info message after msprobe's") {
    Fixture fx(Mode::summary);
    const auto k = fx.add(fp32("Tensor.masked_fill.0.forward.output.0", {f(k_inf), f(0.0), f(1.0), f(1.0)}), std::nullopt);
    fx.run(false);
    CHECK(fx.verdict(k) == "error | " + std::string(k_msg_inf_nan) + " | " + std::string(k_info_no_bench));
    fx.run(true);
    CHECK(fx.verdict(k) == "error | " + std::string(k_msg_inf_nan));
  }

  TEST_CASE("checkers: md5 mode compares the CRC texts") {
    Fixture fx(Mode::md5);
    const auto md5_row = [](const std::string& name, const std::string& md5) {
      Row r = fp32(name, {f(1.0), f(0.0), f(0.5), f(1.0)});
      r.md5 = md5;
      return r;
    };
    const auto equal = fx.add(md5_row("Torch.a.0.forward.input.0", "1a2b3c4d"), md5_row("Torch.a.0.forward.input.0", "1a2b3c4d"));
    const auto differs = fx.add(md5_row("Torch.a.0.forward.output.0", "1a2b3c4d"), md5_row("Torch.a.0.forward.output.0", "00000000"));
    const auto unmatched = fx.add(md5_row("Torch.b.0.forward.input.0", "1a2b3c4d"), std::nullopt);
    const auto null_unmatched = fx.add(md5_row("Torch.b.0.forward.input.1", "N/A"), std::nullopt);
    const auto nan = fx.add(md5_row("Torch.b.0.forward.input.2", "Nan"), md5_row("Torch.b.0.forward.input.2", "1a2b3c4d"));
    // Ignored APIs pass whatever their CRC.
    const auto ignored = fx.add(md5_row("Tensor.to.0.forward.input.0", "1a2b3c4d"), md5_row("Tensor.to.0.forward.input.0", "ffffffff"));
    fx.run();
    CHECK(fx.verdict(equal) == "pass");
    CHECK(fx.verdict(differs) == "error | " + std::string(k_msg_crc_differs));
    CHECK(fx.verdict(unmatched) == "warning | " + std::string(k_msg_crc_unmatched));
    CHECK(fx.verdict(null_unmatched) == "pass");
    CHECK(fx.verdict(nan) == "warning | " + std::string(k_msg_crc_unmatched));
    CHECK(fx.verdict(ignored) == "pass");
    fx.run(false);
    CHECK(fx.verdict(unmatched) == "warning | " + std::string(k_msg_crc_unmatched) + " | " + std::string(k_info_no_bench));
    CHECK(fx.verdict(null_unmatched) == "pass | " + std::string(k_info_no_bench));
  }

  TEST_CASE("checkers: cell helpers") {
    CHECK(convert_percent(t("22.5%")) == doctest::Approx(0.225));
    CHECK(convert_percent(t("0")) == 0.0);
    CHECK(convert_percent(t("N/A")) == 0.0);
    CHECK(convert_percent(t("Diff")) == 0.0);
    CHECK(convert_percent(t("inf")) == k_inf);
    CHECK(convert_percent(t("-inf")) == -k_inf);
    CHECK(std::isnan(convert_percent(t("Nan"))));
    CHECK(convert_percent(f(50.0)) == 0.0);  // not a text

    CHECK(usable_metric(f(0.5)) == 0.5);
    CHECK(usable_metric(i(1)) == 1.0);
    CHECK(usable_metric(t("40.0%")) == 0.4);
    CHECK_FALSE(usable_metric(t("0")).has_value());
    CHECK_FALSE(usable_metric(t("inf")).has_value());
    CHECK_FALSE(usable_metric(t("Nan")).has_value());
    CHECK_FALSE(usable_metric(t("N/A")).has_value());
    CHECK_FALSE(usable_metric(t("None")).has_value());
    CHECK_FALSE(usable_metric(t("unsupported")).has_value());

    CHECK(is_inf_or_nan_cell(f(k_inf)));
    CHECK(is_inf_or_nan_cell(f(std::nan(""))));
    CHECK(is_inf_or_nan_cell(t(" -INF ")));
    CHECK(is_inf_or_nan_cell(t("Nan")));
    CHECK_FALSE(is_inf_or_nan_cell(t("N/A")));
    CHECK_FALSE(is_inf_or_nan_cell(t("None")));
    CHECK_FALSE(is_inf_or_nan_cell(f(1e308)));
    CHECK_FALSE(is_inf_or_nan_cell(i(5)));

    CHECK(max_level(Level::pass, Level::warning) == Level::warning);
    CHECK(max_level(Level::error, Level::warning) == Level::error);
  }
}

TEST_SUITE("msdump::compare") {
  TEST_CASE("checkers: MindSpore dtype names in PyTorch's spelling") {
    CHECK(msdump::compare::torch_dtype_spelling("Float32") == "torch.float32");
    CHECK(msdump::compare::torch_dtype_spelling("BFloat16") == "torch.bfloat16");
    CHECK(msdump::compare::torch_dtype_spelling("UInt8") == "torch.uint8");
    CHECK(msdump::compare::torch_dtype_spelling("torch.float32") == "torch.float32");
    CHECK(msdump::compare::torch_dtype_spelling("<class 'int'>") == "<class 'int'>");
  }
}
