#!/usr/bin/env python3
"""The man page, the bash completion, `cmake --install` and the .deb.

  run_cli_docs.py MSDUMP BUILD_DIR

* the generated man page and completion name every option of every subcommand (gen_cli_docs.py
  --check) and the man page renders without a groff warning;
* the completion completes subcommands, options and option values in a real bash;
* `cmake --install BUILD_DIR --prefix TMP` installs bin/msdump, share/man/man1/msdump.1 and
  share/bash-completion/completions/msdump, and the installed binary runs;
* `cpack -G DEB` makes a package whose files are those three and whose Depends names runtime
  libraries only (no -dev package, nothing of the test or reference tools).
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "scripts", "gen_cli_docs.py")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    passed += bool(ok)
    failed += not ok
    if not ok:
        print(f"FAIL {name}: {detail}")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def complete(script, words, cword):
    quoted = " ".join("'" + w + "'" for w in words)
    p = run(["bash", "-c", f"source '{script}'; COMP_WORDS=({quoted}); COMP_CWORD={cword}; _msdump; "
                           'printf "%s\\n" "${COMPREPLY[@]}"'])
    return p.stdout.split()


def main():
    msdump, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    man, comp = os.path.join(build, "msdump.1"), os.path.join(build, "msdump.bash-completion")
    p = run([sys.executable, GEN, msdump, "--check", man, comp])
    check("every option in the man page and the completion", p.returncode == 0, p.stdout + p.stderr)
    p = run(["groff", "-man", "-Tutf8", "-ww", "-z", man])
    check("man page renders without warnings", p.returncode == 0 and not p.stderr.strip(), p.stderr)
    text = open(man).read()
    for needed in (".SH EXIT STATUS", "msdump verify", "msdump report merge", "\\-\\-report"):
        check(f"man page has {needed}", needed in text)

    check("completes subcommands", complete(comp, ["msdump", "ve"], 1) == ["verify"])
    check("completes options", "--against" in complete(comp, ["msdump", "verify", "--ag"], 2))
    check("completes option values", complete(comp, ["msdump", "verify", "--report", ""], 3) == ["text", "json", "junit"])
    check("completes nested subcommands", complete(comp, ["msdump", "report", "m"], 2) == ["merge"])

    with tempfile.TemporaryDirectory(prefix="msdump-install-") as prefix:
        p = run(["cmake", "--install", build, "--prefix", prefix])
        check("cmake --install", p.returncode == 0, p.stderr)
        for rel in ("bin/msdump", "share/man/man1/msdump.1", "share/bash-completion/completions/msdump"):
            check(f"installed {rel}", os.path.isfile(os.path.join(prefix, rel)))
        p = run([os.path.join(prefix, "bin", "msdump"), "--version"])
        check("installed binary runs", p.returncode == 0 and p.stdout.startswith("msdump "), p.stderr)

    with tempfile.TemporaryDirectory(prefix="msdump-deb-") as out:
        p = run(["cpack", "-G", "DEB", "-B", out], cwd=build)
        debs = [f for f in os.listdir(out) if f.endswith(".deb")]
        check("cpack -G DEB", p.returncode == 0 and len(debs) == 1, p.stdout[-2000:] + p.stderr[-2000:])
        if debs:
            deb = os.path.join(out, debs[0])
            depends = run(["dpkg-deb", "-f", deb, "Depends"]).stdout.strip()
            names = [re.split(r"[ (]", d.strip())[0] for d in depends.split(",") if d.strip()]
            check("Depends is not empty", names, depends)
            bad = [n for n in names if n.endswith("-dev") or "valijson" in n or "doctest" in n or "python" in n]
            check("Depends lists runtime libraries only", not bad, depends)
            files = sorted(l.split()[-1] for l in run(["dpkg-deb", "-c", deb]).stdout.splitlines()
                           if not l.startswith("d"))
            want = ["./usr/bin/msdump", "./usr/share/bash-completion/completions/msdump", "./usr/share/man/man1/msdump.1"]
            check("package files", files == want, files)
    print(f"cli docs: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
