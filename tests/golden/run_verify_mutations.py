#!/usr/bin/env python3
"""Runs `msdump verify` over the mutation corpus and the good msprobe dumps.

  run_verify_mutations.py MSDUMP [NAME_FILTER]

From the repository root (found from this file's location):
  - for every variant of testdata/mutations/manifest.json (gen_mutations.py writes it), runs
    `MSDUMP verify testdata/mutations/<name> <args> --report json` and checks the exit code and
    that every expected finding appears (kind and pointer exactly; entry and actual when given);
  - every dump under testdata/good/msprobe/ must verify with exit 0, except
    cnn_mix_md5_all_step1, whose in-place md5 race must be reported as checksum findings on
    exactly the known input_args/0 md5 pointers (and nothing else).
Variants with a "gap" (defects the verifier does not detect yet) that do not pass are listed as
known gaps, not failures; one that passes prints a note to remove its marker.
The last line is "N passed, M failed"; the exit code is 1 when anything failed.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

MD5_RACE_DUMP = "cnn_mix_md5_all_step1"
MD5_RACE_POINTERS = sorted(
    "/data/%s.forward/input_args/0/md5" % e
    for e in ("Tensor.add_.5", "Tensor.add_.6", "Tensor.mul_.3", "Tensor.add_.7", "Tensor.add_.8"))


def run_verify(msdump, path, args):
    cmd = [msdump, "verify", path] + list(args) + ["--report", "json"]
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    report = None
    try:
        report = json.loads(p.stdout.decode("utf-8"))
    except ValueError:
        pass
    return cmd, p.returncode, report, p.stderr.decode("utf-8", "replace")


def findings_of(report):
    if report is None:
        return []
    if "reports" in report:  # several paths
        return [f for r in report["reports"] for f in r["findings"]]
    return report.get("findings", [])


def matches(expected, found):
    for key in ("kind", "pointer", "entry", "actual"):
        if key in expected and found.get(key) != expected[key]:
            return False
    return True


def show(findings):
    return "\n".join("      %s %s entry=%r actual=%r" % (f.get("kind"), f.get("pointer") or '""', f.get("entry"),
                                                      f.get("actual")) for f in findings) or "      (none)"


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    msdump = os.path.abspath(sys.argv[1])
    name_filter = sys.argv[2] if len(sys.argv) > 2 else ""
    passed = failed = 0
    gaps = []
    gap = None  # the variant being checked is a known gap of the verifier

    def fail(name, cmd, why, findings):
        nonlocal failed
        if gap:
            gaps.append(name)
            print("GAP  %s (known, not counted as a failure): %s" % (name, gap))
            return
        failed += 1
        print("FAIL %s: %s\n  %s\n    findings:\n%s" % (name, why, " ".join(cmd), show(findings)))

    with open(os.path.join(ROOT, "testdata", "mutations", "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    for v in manifest:
        if name_filter not in v["name"]:
            continue
        gap = v.get("gap")
        cmd, rc, report, stderr = run_verify(msdump, "testdata/mutations/" + v["name"], v["args"])
        found = findings_of(report)
        if report is None:
            fail(v["name"], cmd, "no JSON report (exit %d): %s" % (rc, stderr.strip()), [])
            continue
        if rc != v["exit"]:
            fail(v["name"], cmd, "exit %d, expected %d" % (rc, v["exit"]), found)
            continue
        absent = [e for e in v["findings"] if not any(matches(e, f) for f in found)]
        if v["exit"] == 0 and not v["findings"] and any(f.get("severity") == "error" for f in found):
            fail(v["name"], cmd, "a control variant has errors", found)
        elif absent:
            fail(v["name"], cmd, "expected findings not reported: %s" % json.dumps(absent), found)
        else:
            passed += 1
            if gap:
                print("NOTE %s passes now: remove its gap marker in testdata/gen/gen_mutations.py" % v["name"])
    gap = None

    good = os.path.join(ROOT, "testdata", "good", "msprobe")
    for d in sorted(os.listdir(good)):
        if not os.path.isfile(os.path.join(good, d, "dump.json")) or name_filter not in d:
            continue
        name = "good/" + d
        cmd, rc, report, stderr = run_verify(msdump, "testdata/good/msprobe/" + d, [])
        found = findings_of(report)
        if report is None:
            fail(name, cmd, "no JSON report (exit %d): %s" % (rc, stderr.strip()), [])
        elif d == MD5_RACE_DUMP:
            got = sorted(f["pointer"] for f in found)
            if rc != 0 or any(f["kind"] != "checksum" or f["severity"] != "warning" for f in found) \
                    or got != MD5_RACE_POINTERS:
                fail(name, cmd, "exit %d; expected exit 0 and checksum warnings on exactly %s" % (rc, MD5_RACE_POINTERS),
                     found)
            else:
                passed += 1
        elif rc != 0 or found:
            fail(name, cmd, "exit %d, expected a clean dump" % rc, found)
        else:
            passed += 1

    if gaps:
        print("%d known verifier gaps: %s" % (len(gaps), ", ".join(gaps)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
