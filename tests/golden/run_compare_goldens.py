#!/usr/bin/env python3
"""Checks `msdump compare` against msprobe's own compare results on real msprobe dumps.

  run_compare_goldens.py MSDUMP        run every case of testdata/compare/cases.json
  run_compare_goldens.py --self-test   check this script's comparison logic on msprobe's tables

Data: testdata/compare/ (see its README.md): pairs of real msprobe dumps and the CSV tables
msprobe's `msprobe compare` wrote for them. Five kinds of case (cases.json):

  table  `msdump compare NPU BENCH -o TMP FLAGS`; every CSV msdump writes is found by its name
         pattern (time stamps differ) and compared with msprobe's CSV cell by cell; exactly the
         expected files must appear.
  fuzzy  `--fuzzy` on the cnn_extra_call pair in each mode: msdump's `Bench Name` column must
         equal EXPECTED_FUZZY.json (the true partners, derived from the model).
  truth  `--report json`: summary.first_difference / summary.first_divergence (step, rank,
         entry, row) must name what the pair's TRUTH.json says.
  xlsx   `--xlsx`: the workbook msdump writes against the one msprobe's `--xlsx` wrote, cell by
         cell and by cell type (number, bool, text), read with zipfile and ElementTree.
  diff_analyze  `--diff-analyze` on two step directories: msdump's diff_analyze file must be
         msprobe's `-da` file byte for byte (and absent when msprobe wrote none).

Cell rules (table cases):
  * the header must be identical; the row count must be identical;
  * Err_message: msprobe's JSON list must equal msdump's list without the entries that start
    with "info: " (msdump's own notes, which msprobe does not have);
  * metric columns (statistics mode: Max diff ... NormRelativeErr; tensor mode: Cosine, EucDist,
    MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio, Five Thousandths Err Ratio): identical
    text, or both sides numbers (a trailing "%" on both sides is allowed) that are equal within
    a relative 1e-9 or an absolute 1e-12 (plus float slack: msprobe rounds Cosine and the
    errors to 12 decimals, so one rounding step of a last-bit difference is 1e-12). Texts that
    are not finite numbers (`Nan`, ` inf`, `N/A`, `unsupported`, ...) must be identical, and an
    integer text (`0`, msprobe's "equal as text") never matches a float text (`0.0`);
  * every other column (names, dtypes, shapes, requires_grad, the NPU/Bench statistic columns
    copied from dump.json, md5, stack, Data_name, Result): identical text.
A table case may list "deviations": rows where msdump pairs differently from msprobe on purpose
(msprobe's -dm/-cm backward pairing bug), each with the bench row the model says is its true
partner; only the Bench Name of those rows is checked, and the case states the exit code. Or
"messages": msprobe checker messages msdump does not raise on purpose (a cross-framework pair's
dtype error on MindSpore's spelling of a PyTorch dtype: "dtype_spelling" names the rows, those
whose NPU and bench dtypes are one dtype spelt two ways); they are taken out of msprobe's
Err_message and its Result re-derived from the messages left.
A case whose expected files are missing fails. The last line is "N passed, M failed"; the exit
code is 1 when anything failed.
"""
import csv
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DATA = os.path.join(ROOT, "testdata", "compare")
CASES = os.path.join(DATA, "cases.json")

REL_TOL = 1e-9
ABS_TOL = 1e-12
ABS_SLACK = 1e-18  # a decimal 1e-12 step is not exactly 1e-12 in binary

METRIC_COLUMNS = {
    "Max diff", "Min diff", "Mean diff", "L2norm diff",
    "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr",
    "Cosine", "EucDist", "MaxAbsErr",
    "One Thousandth Err Ratio", "Five Thousandths Err Ratio",
}
ERR_COLUMN = "Err_message"
INFO_PREFIX = "info: "
TIMESTAMP = r"\d{14}"


# ---------------------------------------------------------------------------------------------
# Cell and table comparison


def finite_number(text):
    """The value of a finite number text ("1.5", "-2e-05", "22.6%"), else None."""
    t = text[:-1] if text.endswith("%") else text
    try:
        value = float(t)
    except ValueError:
        return None
    if not math.isfinite(value) or t.strip().lower() in ("nan", "inf", "-inf", "infinity"):
        return None
    return value


def close(a, b):
    diff = abs(a - b)
    return diff <= ABS_TOL + ABS_SLACK or diff <= REL_TOL * max(abs(a), abs(b))


def integer_text(text):
    return re.fullmatch(r"-?\d+%?", text) is not None


def compare_metric(got, want):
    if got == want:
        return None
    # "0" (equal as text) and "0.0" (computed) mean different things in msprobe's tables
    if got.endswith("%") != want.endswith("%") or integer_text(got) != integer_text(want):
        return "differs"
    g, w = finite_number(got), finite_number(want)
    if g is None or w is None:
        return "differs"
    return None if close(g, w) else f"differs beyond tolerance ({abs(g - w):.3g})"


def compare_err_message(got, want):
    try:
        g, w = json.loads(got), json.loads(want)
    except ValueError:
        return "is not a JSON list"
    if not isinstance(g, list) or not isinstance(w, list):
        return "is not a JSON list"
    g = [m for m in g if not (isinstance(m, str) and m.startswith(INFO_PREFIX))]
    return None if g == w else "differs (after removing msdump's info: messages)"


def compare_cell(column, got, want):
    if column == ERR_COLUMN:
        return compare_err_message(got, want)
    if column in METRIC_COLUMNS:
        return compare_metric(got, want)
    return None if got == want else "differs"


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def without_messages(rows, unraised, spelling=None):
    """msprobe's table rows with the checker messages msdump deliberately does not raise taken
    out of Err_message, and Result re-derived from what is left (error, else warning, else
    pass) in the rows that lost one. With `spelling` {NPU dtype: bench dtype}, only in rows whose
    two dtypes are one dtype spelt two ways."""
    if not unraised or not rows:
        return rows
    err, res = rows[0].index(ERR_COLUMN), rows[0].index("Result")
    npu_dtype, bench_dtype = rows[0].index("NPU Dtype"), rows[0].index("Bench Dtype")
    for row in rows[1:]:
        if spelling and spelling.get(row[npu_dtype]) != row[bench_dtype]:
            continue
        messages = json.loads(row[err]) if row[err] else []
        kept = [m for m in messages if m not in unraised]
        if kept == messages:
            continue
        row[err] = json.dumps(kept, ensure_ascii=False)
        levels = {m.split(":", 1)[0] for m in kept}
        row[res] = "error" if "error" in levels else "warning" if "warning" in levels else "pass"
    return rows


def unraised_messages(case):
    return tuple(case.get("deviations", {}).get("messages", ()))


def deviation_spelling(case):
    return case.get("deviations", {}).get("dtype_spelling")


def compare_tables(got_path, want_path, limit=5, deviations=None, unraised=(), spelling=None):
    """Problems (strings) found comparing msdump's CSV with msprobe's; [] when they agree.
    `deviations` {npu row name: bench row name or None}: rows where msdump deliberately pairs
    differently from msprobe; only their Bench Name is checked (None: unpaired, `N/A`).
    `unraised`: msprobe checker messages msdump deliberately does not raise (without_messages)."""
    deviations = deviations or {}
    got, want = read_csv(got_path), without_messages(read_csv(want_path), unraised, spelling)
    if not want:
        return [f"{want_path}: empty expected table"]
    if not got:
        return [f"{got_path}: empty table"]
    if got[0] != want[0]:
        return [f"header {got[0]} != expected {want[0]}"]
    header = want[0]
    problems = []
    if len(got) != len(want):
        problems.append(f"{len(got) - 1} rows, expected {len(want) - 1}")
    for i, (g_row, w_row) in enumerate(zip(got[1:], want[1:]), start=1):
        if len(g_row) != len(header):
            problems.append(f"row {i}: {len(g_row)} cells, expected {len(header)}")
            continue
        if w_row and w_row[0] in deviations:
            want_bench = deviations[w_row[0]] or "N/A"
            got_bench = g_row[header.index("Bench Name")]
            if g_row[0] != w_row[0] or got_bench != want_bench:
                problems.append(f"row {i} ({w_row[0]}): {g_row[0]} paired with {got_bench}, expected "
                                f"{want_bench} (a deliberate deviation from msprobe)")
            continue
        for column, g, w in zip(header, g_row, w_row):
            why = compare_cell(column, g, w)
            if why:
                problems.append(f"row {i} ({w_row[0]}) column '{column}': {g!r} {why}; "
                                f"msprobe: {w!r}")
    if len(problems) > limit:
        problems = problems[:limit] + [f"... {len(problems) - limit} more"]
    return problems


# ---------------------------------------------------------------------------------------------
# Cases


def pattern_regex(pattern):
    """An output pattern ("step0/compare_result_rank0_<ts>.csv") as a regex."""
    return re.compile("^" + re.escape(pattern).replace(re.escape("<ts>"), TIMESTAMP) + "$")


def produced_csvs(out_dir):
    found = []
    for dirpath, _, files in os.walk(out_dir):
        for name in files:
            if name.endswith(".csv"):
                found.append(os.path.relpath(os.path.join(dirpath, name), out_dir).replace(os.sep, "/"))
    return sorted(found)


def check_outputs(case, out_dir):
    """Compares what msdump wrote in out_dir with the case's expected msprobe tables."""
    problems = []
    produced = produced_csvs(out_dir)
    claimed = set()
    for exp in case["expect"]:
        want = os.path.join(DATA, exp["msprobe"])
        if not os.path.isfile(want):
            problems.append(f"expected msprobe table missing: {exp['msprobe']}")
            continue
        rx = pattern_regex(exp["output"])
        hits = [p for p in produced if rx.match(p)]
        if len(hits) != 1:
            problems.append(f"{len(hits)} output files match {exp['output']} (have {produced})")
            continue
        claimed.add(hits[0])
        deviations = case.get("deviations", {}).get("rows")
        for p in compare_tables(os.path.join(out_dir, hits[0]), want, deviations=deviations,
                                unraised=unraised_messages(case), spelling=deviation_spelling(case)):
            problems.append(f"{hits[0]}: {p}")
    extra = [p for p in produced if p not in claimed]
    if extra and not problems:
        problems.append(f"unexpected output files {extra}")
    return problems


def expected_exit(case):
    """1 when any expected table has an error row, else 0 (warnings do not fail)."""
    for exp in case["expect"]:
        want = os.path.join(DATA, exp["msprobe"])
        if not os.path.isfile(want):
            continue
        rows = without_messages(read_csv(want), unraised_messages(case), deviation_spelling(case))
        col = rows[0].index("Result")
        if any(r[col] == "error" for r in rows[1:]):
            return 1
    return 0


def run_msdump(msdump, case, out_dir, extra_flags=()):
    cmd = [msdump, "compare", os.path.join(DATA, case["npu"]), os.path.join(DATA, case["bench"]),
           "-o", out_dir] + [resolve_flag(f) for f in case.get("flags", [])] + list(extra_flags)
    return subprocess.run(cmd, capture_output=True, text=True), cmd


def resolve_flag(flag):
    return os.path.join(DATA, flag[len("@data/"):]) if flag.startswith("@data/") else flag


def describe_failure(proc, cmd):
    tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-3:]
    return f"`{' '.join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)}` " \
           f"exit {proc.returncode}: {' | '.join(tail)}"


def run_table_case(msdump, case, tmp):
    missing = [e["msprobe"] for e in case["expect"] if not os.path.isfile(os.path.join(DATA, e["msprobe"]))]
    if missing:
        return [f"expected msprobe tables missing: {missing}"]
    out_dir = os.path.join(tmp, "out")
    proc, cmd = run_msdump(msdump, case, out_dir)
    want_rc = case["deviations"]["exit"] if "exit" in case.get("deviations", {}) else expected_exit(case)
    problems = []
    if proc.returncode not in (0, 1):
        return [describe_failure(proc, cmd)]
    if proc.returncode != want_rc:
        problems.append(f"exit {proc.returncode}, expected {want_rc}")
    return problems + check_outputs(case, out_dir)


def check_fuzzy_table(path, expected):
    rows = read_csv(path)
    header = rows[0]
    if "NPU Name" not in header or "Bench Name" not in header:
        return [f"no NPU Name / Bench Name columns in {header}"]
    n, b = header.index("NPU Name"), header.index("Bench Name")
    got = [(r[n], None if r[b] == "N/A" else r[b]) for r in rows[1:]]
    want = [(e["npu"], e["bench"]) for e in expected]
    problems = []
    if len(got) != len(want):
        problems.append(f"{len(got)} rows, expected {len(want)}")
    for i, (g, w) in enumerate(zip(got, want), start=1):
        if g != w:
            problems.append(f"row {i}: {g[0]} paired with {g[1] or 'N/A'}, expected "
                            f"{w[0]} with {w[1] or 'N/A'}")
    return problems[:6]


def run_fuzzy_case(msdump, case, tmp):
    exp_path = os.path.join(DATA, case["expected_fuzzy"])
    if not os.path.isfile(exp_path):
        return [f"missing {case['expected_fuzzy']}"]
    with open(exp_path, encoding="utf-8") as f:
        expected = json.load(f)["runs"][case["run"]]
    out_dir = os.path.join(tmp, "out")
    proc, cmd = run_msdump(msdump, case, out_dir)
    if proc.returncode not in (0, 1):
        return [describe_failure(proc, cmd)]
    produced = produced_csvs(out_dir)
    rx = pattern_regex(case["output"])
    hits = [p for p in produced if rx.match(p)]
    if len(hits) != 1:
        return [f"{len(hits)} output files match {case['output']} (have {produced})"]
    return check_fuzzy_table(os.path.join(out_dir, hits[0]), expected)


def truth_expectations(truth):
    """{"first_difference": {...}, "first_divergence": {...}} from a TRUTH.json. The sample
    pair's TRUTH.json names one API and row for both (a single planted bug)."""
    if "first_difference" in truth:
        out = {}
        for key in ("first_difference", "first_divergence"):
            out[key] = dict(truth[key], step=truth["step"], rank=truth.get("rank", 0))
        return out
    step = int(str(truth["step"]).replace("step", ""))
    both = {"entry": truth["first_diverging_api"], "row": truth["first_diverging_row"],
            "step": step, "rank": 0}
    return {"first_difference": dict(both), "first_divergence": dict(both)}


def check_truth_report(report, expectations):
    summary = report.get("summary") if isinstance(report, dict) else None
    if not isinstance(summary, dict):
        return ["no summary object in the JSON report"]
    problems = []
    for key, want in expectations.items():
        got = summary.get(key)
        if not isinstance(got, dict):
            problems.append(f"summary.{key} is {got!r}, expected {want}")
            continue
        for field, value in want.items():
            if got.get(field) != value:
                problems.append(f"summary.{key}.{field} = {got.get(field)!r}, expected {value!r}")
    return problems


def run_truth_case(msdump, case, tmp):
    truth_path = os.path.join(DATA, case["truth"])
    if not os.path.isfile(truth_path):
        return [f"missing {case['truth']}"]
    with open(truth_path, encoding="utf-8") as f:
        expectations = truth_expectations(json.load(f))
    proc, cmd = run_msdump(msdump, case, os.path.join(tmp, "out"), ["--report", "json"])
    if proc.returncode not in (0, 1):
        return [describe_failure(proc, cmd)]
    try:
        report = json.loads(proc.stdout)
    except ValueError as e:
        return [f"--report json output is not JSON ({e}): {proc.stdout[:200]!r}"]
    return check_truth_report(report, expectations)


XLSX_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def xlsx_column(ref):
    """0-based column of a cell reference ("AB12" -> 27)."""
    col = 0
    for ch in ref:
        if not ch.isalpha():
            break
        col = col * 26 + (ord(ch.upper()) - ord("A") + 1)
    return col - 1


def read_xlsx(path):
    """The first sheet of a workbook as rows of typed cells: ("n", float), ("s", text) or
    ("b", bool); a cell not written is ("s", ""). Read with zipfile and ElementTree (no
    spreadsheet library is needed)."""
    import xml.etree.ElementTree as ET
    import zipfile
    with zipfile.ZipFile(path) as z:
        shared = []
        if "xl/sharedStrings.xml" in z.namelist():
            for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall(f"{XLSX_NS}si"):
                shared.append("".join(t.text or "" for t in si.iter(f"{XLSX_NS}t")))
        sheet = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))
    rows = []
    for row in sheet.find(f"{XLSX_NS}sheetData").findall(f"{XLSX_NS}row"):
        cells = {}
        for c in row.findall(f"{XLSX_NS}c"):
            t, v = c.get("t", "n"), c.find(f"{XLSX_NS}v")
            if t == "s":
                value = ("s", shared[int(v.text)])
            elif t == "inlineStr":
                value = ("s", "".join(x.text or "" for x in c.iter(f"{XLSX_NS}t")))
            elif t == "str":
                value = ("s", v.text or "" if v is not None else "")
            elif t == "b":
                value = ("b", v is not None and v.text == "1")
            else:
                value = ("n", float(v.text)) if v is not None else ("s", "")
            cells[xlsx_column(c.get("r"))] = value
        rows.append([cells.get(i, ("s", "")) for i in range(max(cells) + 1 if cells else 0)])
    return rows


def compare_xlsx(got_path, want_path, limit=5):
    """Problems comparing msdump's workbook with msprobe's, cell by cell and by cell type: texts
    as in compare_cell, bools equal, numbers equal within the metric tolerance in metric columns
    and a relative 1e-15 elsewhere (a workbook may store a double with 16 significant digits)."""
    got, want = read_xlsx(got_path), read_xlsx(want_path)
    if not got or not want or got[0] != want[0]:
        return [f"header {got[:1]} != expected {want[:1]}"]
    header = [text for _, text in want[0]]
    problems = [] if len(got) == len(want) else [f"{len(got) - 1} rows, expected {len(want) - 1}"]
    for i, (g_row, w_row) in enumerate(zip(got[1:], want[1:]), start=1):
        for j, column in enumerate(header):
            g = g_row[j] if j < len(g_row) else ("s", "")
            w = w_row[j] if j < len(w_row) else ("s", "")
            if g[0] != w[0]:
                why = f"a {'number' if g[0] == 'n' else 'bool' if g[0] == 'b' else 'text'} cell"
            elif g[0] == "s":
                why = compare_cell(column, g[1], w[1])
            elif g[0] == "b":
                why = None if g[1] == w[1] else "differs"
            elif column in METRIC_COLUMNS:
                why = compare_metric(repr(g[1]), repr(w[1]))
            else:
                why = None if g[1] == w[1] or abs(g[1] - w[1]) <= 1e-15 * abs(w[1]) else "differs"
            if why:
                problems.append(f"row {i} column '{column}': {g[1]!r} {why}; msprobe: {w[0]} {w[1]!r}")
    if len(problems) > limit:
        problems = problems[:limit] + [f"... {len(problems) - limit} more"]
    return problems


def run_xlsx_case(msdump, case, tmp):
    want = os.path.join(DATA, case["msprobe"])
    if not os.path.isfile(want):
        return [f"expected msprobe workbook missing: {case['msprobe']}"]
    out_dir = os.path.join(tmp, "out")
    proc, cmd = run_msdump(msdump, case, out_dir)
    if proc.returncode not in (0, 1):
        return [describe_failure(proc, cmd)]
    found = [f for f in os.listdir(out_dir) if pattern_regex(case["output"]).match(f)] if os.path.isdir(out_dir) else []
    if len(found) != 1:
        return [f"expected one workbook named {case['output']} in the output, found {found}"]
    return compare_xlsx(os.path.join(out_dir, found[0]), want)


def run_diff_analyze_case(msdump, case, tmp):
    """`--diff-analyze` on two step directories: the diff_analyze files msdump writes must be
    msprobe's (`-da`), byte for byte, and none when msprobe wrote none."""
    want = [os.path.join(DATA, f) for f in case["msprobe"]]
    missing = [f for f in want if not os.path.isfile(f)]
    if missing:
        return [f"expected msprobe diff_analyze files missing: {missing}"]
    out_dir = os.path.join(tmp, "out")
    proc, cmd = run_msdump(msdump, case, out_dir, ["-q"])
    if proc.returncode not in (0, 1):
        return [describe_failure(proc, cmd)]
    got = sorted(glob.glob(os.path.join(out_dir, "**", "diff_analyze_*.json"), recursive=True))
    if len(got) != len(want):
        return [f"{len(got)} diff_analyze files, msprobe wrote {len(want)}"]
    problems = []
    for g, w in zip(got, want):
        with open(g, "rb") as a, open(w, "rb") as b:
            if a.read() != b.read():
                problems.append(f"{os.path.relpath(g, out_dir)} differs from {os.path.relpath(w, DATA)}")
    return problems


RUNNERS = {"table": run_table_case, "fuzzy": run_fuzzy_case, "truth": run_truth_case, "xlsx": run_xlsx_case,
           "diff_analyze": run_diff_analyze_case}


def load_cases():
    with open(CASES, encoding="utf-8") as f:
        return json.load(f)["cases"]


def run_all(msdump):
    passed = failed = 0
    for case in load_cases():
        tmp = tempfile.mkdtemp(prefix="compare_golden_")
        try:
            problems = RUNNERS[case["kind"]](msdump, case, tmp)
        except Exception as e:  # a broken case must fail, not abort the others
            problems = [f"harness error: {type(e).__name__}: {e}"]
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if problems:
            failed += 1
            print(f"FAIL {case['name']}")
            for p in problems:
                print(f"     {p}")
        else:
            passed += 1
            print(f"ok   {case['name']}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------
# --self-test: the comparison logic on msprobe's own tables (no msdump needed)


def fake_output(case, out_dir, ts="20990101000000"):
    """Writes msprobe's expected tables where msdump would write them (the deviation rows
    paired as the case expects)."""
    deviations = case.get("deviations", {}).get("rows", {})
    for exp in case["expect"]:
        dest = os.path.join(out_dir, exp["output"].replace("<ts>", ts))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        rows = without_messages(read_csv(os.path.join(DATA, exp["msprobe"])), unraised_messages(case),
                                deviation_spelling(case))
        bench = rows[0].index("Bench Name")
        for row in rows[1:]:
            if row[0] in deviations:
                row[bench] = deviations[row[0]] or "N/A"
        with open(dest, "w", newline="", encoding="utf-8") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)


def rewrite_cell(path, pick, skip_rows=()):
    """Changes the first cell `pick(column, text)` returns a replacement for (outside rows named
    in skip_rows); True if changed."""
    rows = read_csv(path)
    for row in rows[1:]:
        if row[0] in skip_rows:
            continue
        for j, column in enumerate(rows[0]):
            new = pick(column, row[j])
            if new is not None:
                row[j] = new
                with open(path, "w", newline="", encoding="utf-8") as f:
                    csv.writer(f, lineterminator="\n").writerows(rows)
                return True
    return False


def numeric_metric(delta_rel):
    def pick(column, text):
        value = finite_number(text)
        if column in METRIC_COLUMNS and value not in (None, 0.0):
            suffix = "%" if text.endswith("%") else ""
            return repr(value * (1 + delta_rel)) + suffix
        return None
    return pick


MUTATIONS = [
    # (label, pick, must_pass)
    ("identical", None, True),
    ("metric within tolerance", numeric_metric(1e-12), True),
    ("metric beyond tolerance", numeric_metric(1e-6), False),
    ("NPU statistic off by a relative 1e-15",
     lambda c, t: repr(float(t) * (1 + 1e-15)) if c == "NPU max" and finite_number(t) not in (None, 0.0)
     and float(t) * (1 + 1e-15) != float(t) else None, False),
    ("name changed", lambda c, t: t + "x" if c == "Bench Name" else None, False),
    ("Result changed", lambda c, t: ("warning" if t != "warning" else "pass") if c == "Result" else None, False),
    ("info message appended",
     lambda c, t: json.dumps(json.loads(t) + ["info: msdump note"]) if c == ERR_COLUMN else None, True),
    ("checker message dropped",
     lambda c, t: "[]" if c == ERR_COLUMN and json.loads(t) else None, False),
    ("Nan text replaced by nan", lambda c, t: "nan" if t == "Nan" else None, False),
    ("text 0 replaced by 0.0", lambda c, t: "0.0" if c in METRIC_COLUMNS and t == "0" else None, False),
]


def self_test():
    passed = failed = 0
    table_cases = [c for c in load_cases() if c["kind"] == "table"]
    applied = {}

    def verdict(label, ok):
        nonlocal passed, failed
        kind = label.split(": ", 1)[-1]
        applied[kind] = applied.get(kind, 0) + 1
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL self-test {label}")

    for case in table_cases:
        if any(not os.path.isfile(os.path.join(DATA, e["msprobe"])) for e in case["expect"]):
            verdict(f"{case['name']}: expected tables present", False)
            continue
        for label, pick, must_pass in MUTATIONS:
            tmp = tempfile.mkdtemp(prefix="compare_selftest_")
            try:
                out_dir = os.path.join(tmp, "out")
                fake_output(case, out_dir)
                if pick is not None:
                    first = os.path.join(out_dir, case["expect"][0]["output"].replace("<ts>", "20990101000000"))
                    if not rewrite_cell(first, pick, case.get("deviations", {}).get("rows", {})):
                        continue  # this table has no cell the mutation applies to
                ok = not check_outputs(case, out_dir)
                verdict(f"{case['name']}: {label} (must {'pass' if must_pass else 'fail'})", ok == must_pass)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        if case.get("deviations", {}).get("rows") or unraised_messages(case):
            tmp = tempfile.mkdtemp(prefix="compare_selftest_")
            try:
                out_dir = os.path.join(tmp, "out")
                for exp in case["expect"]:
                    dest = os.path.join(out_dir, exp["output"].replace("<ts>", "20990101000000"))
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    shutil.copyfile(os.path.join(DATA, exp["msprobe"]), dest)
                verdict(f"{case['name']}: msprobe's own table where msdump deviates (must fail)",
                        bool(check_outputs(case, out_dir)))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        # an extra or a missing output file must fail
        tmp = tempfile.mkdtemp(prefix="compare_selftest_")
        try:
            out_dir = os.path.join(tmp, "out")
            fake_output(case, out_dir)
            fake_output(case, out_dir, ts="20990101000001")
            verdict(f"{case['name']}: duplicate output (must fail)", bool(check_outputs(case, out_dir)))
            shutil.rmtree(out_dir)
            os.makedirs(out_dir)
            verdict(f"{case['name']}: no output (must fail)", bool(check_outputs(case, out_dir)))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    # fuzzy: msprobe's tensor-mode -fm table satisfies EXPECTED_FUZZY; the exact table does not
    fuzzy = [c for c in load_cases() if c["kind"] == "fuzzy"]
    for case in fuzzy:
        with open(os.path.join(DATA, case["expected_fuzzy"]), encoding="utf-8") as f:
            expected = json.load(f)["runs"][case["run"]]
        for ref in case.get("self_test", []):
            tables = glob.glob(os.path.join(DATA, ref["tables"]))
            ok = len(tables) == 1 and (not check_fuzzy_table(tables[0], expected)) == ref["must_pass"]
            verdict(f"{case['name']}: {ref['tables']} (must {'pass' if ref['must_pass'] else 'fail'})", ok)
    # truth: a report naming the truth passes, one naming another row fails, null fails
    for case in [c for c in load_cases() if c["kind"] == "truth"]:
        with open(os.path.join(DATA, case["truth"]), encoding="utf-8") as f:
            exp = truth_expectations(json.load(f))
        good = {"summary": {k: dict(v, result="error", message="", module_chain=[]) for k, v in exp.items()}}
        verdict(f"{case['name']}: matching report", not check_truth_report(good, exp))
        bad = json.loads(json.dumps(good))
        bad["summary"]["first_divergence"]["row"] += ".x"
        verdict(f"{case['name']}: other row (must fail)", bool(check_truth_report(bad, exp)))
        bad["summary"]["first_difference"] = None
        verdict(f"{case['name']}: null (must fail)", bool(check_truth_report(bad, exp)))
    # xlsx: msprobe's workbook against itself passes, against another case's workbook fails
    books = [os.path.join(DATA, c["msprobe"]) for c in load_cases() if c["kind"] == "xlsx"]
    for i, book in enumerate(books):
        verdict(f"{os.path.relpath(book, DATA)}: itself", not compare_xlsx(book, book))
        if len(books) > 1:
            other = books[(i + 1) % len(books)]
            verdict(f"{os.path.relpath(book, DATA)}: another workbook (must fail)", bool(compare_xlsx(other, book)))
    for kind, count in sorted(applied.items()):
        print(f"  {count:3d} x {kind}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(run_all(os.path.abspath(sys.argv[1])))


if __name__ == "__main__":
    main()
