#!/usr/bin/env python3
"""The README's Kubernetes example, as far as it can run without a cluster:

  * the manifest (the README's `kubernetes-job` block) is a batch/v1 Indexed Job whose
    --shard K/N has N == completions, K == $(JOB_COMPLETION_INDEX), restartPolicy Never or
    OnFailure, and a volume mounted where the command reads and writes;
  * its container command runs once per index, with $(NAME) expanded the way Kubernetes expands
    command arguments (no shell: `$(NAME)` from the container's environment, `$$` -> `$`) and the
    mount path mapped to a directory holding testdata/trees/sharded_run as run42; every pod
    exits 0 (--exit-zero-on-findings);
  * the README's merge (`kubernetes-merge` block) exits 1 (findings) and writes exactly the
    unsharded run's --batch-report.
Usage: run_kubernetes_example.py MSDUMP
"""
import filecmp
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import yaml

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def require(ok, what):
    if not ok:
        raise SystemExit(f"FAIL: {what}")


def readme_example(name):
    lines = open(os.path.join(SRC, "README.md"), encoding="utf-8").read().splitlines()
    start = lines.index(f"<!-- example: {name} -->")
    require(lines[start + 1].startswith("```"), f"no code block after the {name} marker")
    end = lines.index("```", start + 2)
    return "\n".join(lines[start + 2:end]) + "\n"


def expand(arg, env):
    """Kubernetes' expansion of command/args: $(NAME) from env (unknown names stay), $$ -> $."""
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)), arg)


def main():
    msdump = os.path.abspath(sys.argv[1])
    job = yaml.safe_load(readme_example("kubernetes-job"))
    require(job["apiVersion"] == "batch/v1" and job["kind"] == "Job", job)
    spec = job["spec"]
    require(spec["completionMode"] == "Indexed", spec)
    n = spec["completions"]
    pod = spec["template"]["spec"]
    require(pod["restartPolicy"] in ("Never", "OnFailure"), pod)
    (container,) = pod["containers"]
    command = container["command"] + container.get("args", [])
    require(command[0] == "msdump", command)
    require("--shard" in command and command[command.index("--shard") + 1] == f"$(JOB_COMPLETION_INDEX)/{n}", command)
    require(not any(re.search(r"\$[A-Za-z{]", a) for a in command), f"a $VAR without parentheses is not expanded: {command}")
    volumes = {v["name"] for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    require(set(mounts.values()) <= volumes, (mounts, volumes))

    with tempfile.TemporaryDirectory(prefix="msdump-k8s-") as work:
        def mapped(arg):  # a path under a mount path -> the same path under work/
            for mount in mounts:
                if arg == mount or arg.startswith(mount.rstrip("/") + "/"):
                    return work + arg
            return arg
        data = mapped("/data/run42")
        require(data != "/data/run42", f"/data/run42 is not on a mounted volume: {mounts}")
        shutil.copytree(os.path.join(SRC, "testdata", "trees", "sharded_run"), data)
        for k in range(n):
            argv = [msdump] + [mapped(expand(a, {"JOB_COMPLETION_INDEX": str(k)})) for a in command[1:]]
            p = subprocess.run(argv, capture_output=True, text=True)
            require(p.returncode == 0, f"index {k}: exit {p.returncode}: {p.stderr}")
        unsharded = os.path.join(work, "unsharded.json")
        p = subprocess.run([msdump, "verify", data, "--quiet", "--batch-report", unsharded], capture_output=True, text=True)
        require(p.returncode == 1, p.stderr)
        (merge,) = [line for line in readme_example("kubernetes-merge").splitlines() if line.strip()]
        words = shlex.split(merge)
        require(words[:3] == ["msdump", "report", "merge"], words)
        argv = [msdump, "report", "merge"]
        for w in words[3:]:  # the shell's glob expansion, on the mapped path
            m = mapped(w)
            argv += sorted(glob.glob(m)) if any(c in m for c in "*?[") else [m]
        require(len(argv) - 3 == n + 2, argv)  # n reports, -o, its file
        p = subprocess.run(argv, capture_output=True, text=True)
        require(p.returncode == 1, f"merge: exit {p.returncode}: {p.stderr}")
        merged = mapped(words[words.index("-o") + 1])
        require(filecmp.cmp(merged, unsharded, shallow=False), "the merged report differs from the unsharded --batch-report")
    print(f"kubernetes example: {n} indexed pods' commands and the merge: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
