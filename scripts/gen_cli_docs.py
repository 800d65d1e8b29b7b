#!/usr/bin/env python3
"""Generates msdump's man page and bash completion from the binary's own --help.

The command line is defined once, in cmd/*.cpp (CLI11); this script reads every subcommand's
--help (subcommands of subcommands too) so the man page and the completion cannot drift from
it. The man page's prose (description, exit status, files, examples) is maintained in
docs/msdump.1.in, whose line `@SUBCOMMANDS@` is replaced by one section per subcommand.

  gen_cli_docs.py MSDUMP --man-source docs/msdump.1.in --man OUT.1 --completion OUT.bash
  gen_cli_docs.py MSDUMP --check OUT.1 OUT.bash     # every option is in both; exit 1 if not
"""
import argparse
import os
import re
import subprocess
import sys

COLUMN = 30  # CLI11's description column


def help_text(msdump, path):
    p = subprocess.run([msdump, *path, "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"gen_cli_docs: '{' '.join(['msdump', *path, '--help'])}' exited {p.returncode}: {p.stderr}")
    return p.stdout


def parse_help(text):
    """CLI11 help -> {summary, usage, positionals, options, subcommands, footer}."""
    lines = text.rstrip("\n").split("\n")
    out = {"summary": "", "usage": "", "positionals": [], "options": [], "subcommands": [], "footer": []}
    section = None
    for line in lines:
        if line.startswith("Usage: "):
            out["usage"] = line[len("Usage: "):]
            section = None
        elif line in ("Positionals:", "Options:", "Subcommands:"):
            section = line[:-1].lower()
        elif not line.strip():
            continue
        elif section is None and not out["usage"]:
            out["summary"] = (out["summary"] + " " + line.strip()).strip()
        elif section and line.startswith("  "):
            body = line[2:]
            if line.startswith(" " * COLUMN) and out[section]:
                item = out[section][-1]
                item["desc"] = (item["desc"] + " " + body.strip()).strip()
                continue
            spec, desc = body[:COLUMN - 2].rstrip(), body[COLUMN - 2:].strip()
            if len(body) > COLUMN - 2 and body[COLUMN - 3] != " ":  # spec runs into the column
                spec, desc = body.strip(), ""
            out[section].append({"spec": spec, "desc": desc})
        else:
            out["footer"].append(line.strip())
            section = None
    return out


def collect(msdump, path=()):
    """Every command, depth first: [(path, parsed help)]."""
    parsed = parse_help(help_text(msdump, list(path)))
    found = [(tuple(path), parsed)]
    for sub in parsed["subcommands"]:
        found += collect(msdump, (*path, sub["spec"].split()[0]))
    return found


def option_names(spec):
    """'-j,--jobs INT:INT in [0 - 1024]' -> ['-j', '--jobs']."""
    head = spec.split(" ", 1)[0]
    return [n for n in head.split(",") if n.startswith("-")]


def choices(spec):
    m = re.search(r"\{([^}]*)\}", spec)
    return m.group(1).split(",") if m else []


def roff(s):
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + s if s.startswith((".", "'")) else s


def man_page(commands, source, version):
    parts = []
    for path, h in commands[1:]:
        name = " ".join(path)
        parts.append(f".SS \"msdump {name}\"")
        parts.append(roff(h["summary"]))
        parts.append(".PP\n.B Usage:\n" + roff(h["usage"]))
        for section in ("positionals", "options"):
            for item in h[section]:
                if item["spec"].startswith("-h,--help"):
                    continue
                parts.append(".TP\n.B " + roff(item["spec"]) + "\n" + roff(item["desc"] or "-"))
        if h["subcommands"]:
            parts.append(".PP\nSubcommands: " + ", ".join(roff(s["spec"]) for s in h["subcommands"]) + ".")
    top = commands[0][1]
    globals_ = "\n".join(".TP\n.B " + roff(o["spec"]) + "\n" + roff(o["desc"]) for o in top["options"])
    text = open(source).read()
    for marker, value in (("@SUBCOMMANDS@", "\n".join(parts)), ("@GLOBAL_OPTIONS@", globals_),
                          ("@VERSION@", version)):
        if marker not in text:
            raise SystemExit(f"gen_cli_docs: {source}: no line {marker}")
        text = text.replace(marker, value)
    return text


def completion(commands):
    """A bash completion function: subcommands, then each command's options and their choices."""
    cases, value_cases = [], []
    for path, h in commands:
        words = [s["spec"].split()[0] for s in h["subcommands"]]
        for o in h["options"]:
            words += option_names(o["spec"])
            if choices(o["spec"]):
                for n in option_names(o["spec"]):
                    value_cases.append(f'    "{" ".join(path)}|{n}") values="{" ".join(choices(o["spec"]))}" ;;')
        subs = 1 if h["subcommands"] else 0
        cases.append(f'    "{" ".join(path)}") words="{" ".join(words)}"; subs={subs} ;;')
    subcommand_names = sorted({p[-1] for p, _ in commands if p})
    return f"""# bash completion for msdump (generated by scripts/gen_cli_docs.py from msdump --help)
_msdump() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
  local path="" word i values="" words="" subs=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${{COMP_WORDS[i]}}
    case " {" ".join(subcommand_names)} " in
      *" $word "*) path="${{path:+$path }}$word" ;;
    esac
  done
  case "$path|$prev" in
{chr(10).join(value_cases)}
  esac
  if [ -n "$values" ]; then
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
    return
  fi
  case "$path" in
{chr(10).join(cases)}
  esac
  if [[ "$cur" == -* || $subs -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -o bashdefault -F _msdump msdump
"""


def check(commands, man_path, completion_path):
    man, comp = open(man_path).read(), open(completion_path).read()
    missing = []
    for path, h in commands:
        for o in h["options"]:
            for n in option_names(o["spec"]):
                if n == "-h" or n == "--help":
                    continue
                if roff(n) not in man and n not in man:
                    missing.append(f"man page: msdump {' '.join(path)} {n}")
                if n not in comp:
                    missing.append(f"completion: msdump {' '.join(path)} {n}")
        if path and f"msdump {' '.join(path)}" not in man:
            missing.append(f"man page: section for msdump {' '.join(path)}")
    for m in missing:
        print(f"gen_cli_docs: missing from the {m}")
    return not missing


def atomic_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("msdump")
    ap.add_argument("--man-source")
    ap.add_argument("--man")
    ap.add_argument("--completion")
    ap.add_argument("--check", nargs=2, metavar=("MAN", "COMPLETION"))
    a = ap.parse_args()
    commands = collect(os.path.abspath(a.msdump))
    if a.check:
        return 0 if check(commands, *a.check) else 1
    if a.man:
        v = subprocess.run([a.msdump, "--version"], capture_output=True, text=True).stdout.strip()
        atomic_write(a.man, man_page(commands, a.man_source, v))
    if a.completion:
        atomic_write(a.completion, completion(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
