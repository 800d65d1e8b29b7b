"""Runs a script written for msprobe with msdump_record standing in for msprobe.

    python3 run_msprobe_script.py SCRIPT CAPTURE_DIR LEVEL [SCRIPT ARGS...]

`msprobe.pytorch.PrecisionDebugger` resolves to msdump_record's PrecisionDebugger, configured by
a config.json written into CAPTURE_DIR (level LEVEL, dump_path CAPTURE_DIR); the script then
runs unchanged with that config as its first argument.
"""
import json
import os
import runpy
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import msdump_record  # noqa: E402


def main():
    script, capture, level = sys.argv[1:4]
    os.makedirs(capture, exist_ok=True)
    config = os.path.join(capture, "config.json")
    with open(config, "w", encoding="utf-8") as f:
        json.dump({"task": "statistics", "dump_path": capture, "level": level}, f)
    msprobe = types.ModuleType("msprobe")
    msprobe.pytorch = types.ModuleType("msprobe.pytorch")
    msprobe.pytorch.PrecisionDebugger = msdump_record.PrecisionDebugger
    sys.modules["msprobe"], sys.modules["msprobe.pytorch"] = msprobe, msprobe.pytorch
    sys.argv = [script, config] + sys.argv[4:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
