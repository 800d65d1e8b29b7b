#!/usr/bin/env python3
"""Checks every #include against docs/ARCHITECTURE.md's folder table and rules.

The table "Folders and their dependency rule" lists, for each lib/<dir>/, the folders it may
include: names, ranges "a … b" (every lib/ folder from a to b in the table's order) and
"nothing of ours"; a remark in parentheses qualifies a name and is ignored here. What a folder
may include is its own folder, those it lists, and what they may include in turn (arrows point
down only, so the rules must have no cycle). Checked in every source file (.h, .hpp, .cpp, .inc):
  * in lib/: each #include "x/..." names a lib/ folder that lib/<dir>/ may include; lib/ never
    includes cmd/ (by folder or by a cmd/ file's name), and a quoted include without a folder
    is one of the files the build generates (GENERATED);
  * anywhere (lib/, cmd/, tests/, bench/): CLI11 (<CLI/...>) only in cmd/, xsimd (<xsimd/...>)
    only in lib/stats/.
Prints each violation as file:line and exits 1 when there is any (2 when the table cannot be
read). Usage: check_includes.py [SOURCE_DIR]
"""
import os
import re
import sys

GENERATED = {"embedded_schemas.inc"}  # lib/schema: written by the build from schemas/
SOURCE_EXT = (".h", ".hpp", ".cpp", ".inc")
ROW = re.compile(r"^\| `lib/([a-z_]+)/` \| .* \| ([^|]*) \|$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


class TableError(Exception):
    pass


def read_table(text):
    """lib/ folder -> the folders its row names, in the table's order."""
    rows = {}
    order = []
    for line in text.splitlines():
        m = ROW.match(line.strip())
        if m:
            order.append(m.group(1))
            rows[m.group(1)] = m.group(2).strip()
    if not order:
        raise TableError("no `lib/<dir>/` rows in the folder table")
    listed = {}
    for folder in order:
        names = []
        cell = re.sub(r"\([^)]*\)", "", rows[folder])
        for part in (p.strip() for p in cell.split(",")):
            if part == "nothing of ours":
                continue
            if "…" in part:
                a, b = (s.strip() for s in part.split("…"))
                if a not in order or b not in order or order.index(a) > order.index(b):
                    raise TableError(f"lib/{folder}/: range '{part}' does not name two folders in table order")
                names += order[order.index(a):order.index(b) + 1]
            elif part in order:
                names.append(part)
            else:
                raise TableError(f"lib/{folder}/: '{part}' is not a lib/ folder of the table")
        listed[folder] = names
    return listed


def allowed_sets(listed):
    """lib/ folder -> every folder it may include (itself, what it lists, transitively)."""
    allowed = {}

    def visit(folder, path):
        if folder in path:
            raise TableError("the rules have a cycle: " + " -> ".join(path + [folder]))
        if folder not in allowed:
            s = {folder}
            for n in listed[folder]:
                if n != folder:
                    s |= visit(n, path + [folder])
            allowed[folder] = s
        return allowed[folder]

    for folder in listed:
        visit(folder, [])
    return allowed


def sources(root, top):
    for d, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if f.endswith(SOURCE_EXT):
                yield os.path.join(d, f)


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1), m.group(2)


def check(root, allowed):
    cmd_files = set(os.listdir(os.path.join(root, "cmd")))
    problems = []
    count = 0
    for top in ("lib", "cmd", "tests", "bench"):
        for path in sources(root, top):
            rel = os.path.relpath(path, root)
            parts = rel.split(os.sep)
            folder = parts[1] if top == "lib" and len(parts) > 2 else None
            for line, kind, name in includes(path):
                count += 1
                where = f"{rel}:{line}: #include {'<' if kind == '<' else chr(34)}{name}{'>' if kind == '<' else chr(34)}"
                if kind == "<":
                    if name.startswith("CLI/") and top != "cmd":
                        problems.append(f"{where}: CLI11 is included only in cmd/")
                    if name.startswith("xsimd/") and folder != "stats":
                        problems.append(f"{where}: xsimd is included only in lib/stats/")
                    continue
                if top != "lib":
                    continue
                first = name.split("/")[0] if "/" in name else None
                if first == "cmd" or name in cmd_files or os.path.basename(name) in cmd_files:
                    problems.append(f"{where}: lib/ never includes cmd/")
                elif first is None:
                    if name not in GENERATED:
                        problems.append(f"{where}: names no lib/ folder (write \"<dir>/{name}\")")
                elif folder is None:
                    problems.append(f"{where}: a file directly in lib/ belongs in a folder of the table")
                elif folder not in allowed:
                    problems.append(f"{where}: lib/{folder}/ has no row in docs/ARCHITECTURE.md's folder table")
                elif first not in allowed[folder]:
                    problems.append(f"{where}: lib/{folder}/ may not include {first}/ "
                                    f"(docs/ARCHITECTURE.md: it may include {', '.join(sorted(allowed[folder] - {folder})) or 'nothing of ours'})")
    return count, problems


def main():
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        with open(os.path.join(root, "docs", "ARCHITECTURE.md"), encoding="utf-8") as f:
            allowed = allowed_sets(read_table(f.read()))
    except (OSError, TableError) as e:
        print(f"check_includes: docs/ARCHITECTURE.md: {e}")
        return 2
    lib_folders = {d for d in os.listdir(os.path.join(root, "lib")) if os.path.isdir(os.path.join(root, "lib", d))}
    problems = [f"lib/{d}/: no row in docs/ARCHITECTURE.md's folder table" for d in sorted(lib_folders - set(allowed))]
    count, more = check(root, allowed)
    problems += more
    for p in problems:
        print(p)
    print(f"check_includes: {count} includes checked, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
