#!/usr/bin/env python3
"""Writes the verify mutation corpus: testdata/mutations/<name>/ and testdata/mutations/manifest.json.

  python3 testdata/gen/gen_mutations.py            (re)writes testdata/mutations/
  python3 testdata/gen/gen_mutations.py --check    exit 1 if testdata/mutations/ differs from what
                                                   the generator writes (nothing is modified)

Each variant is a real msprobe dump from testdata/good/msprobe/ with one defect put in on
purpose (plus a few "control_*" variants: the derived bases, which must verify clean). Tensor
files are not copied: variants that need them pass --tensors pointing at the good dump's
dump_tensor_data/ (paths relative to the repository root, where the runner runs msdump).

manifest.json is a list of
  {"name", "description", "args": [extra `msdump verify` args], "exit": expected exit code,
   "findings": [{"kind", "pointer"[, "entry"][, "actual"]}, ...]}
where every listed finding must appear in `msdump verify testdata/mutations/<name> <args>
--report json` (kind and pointer exactly; entry and actual exactly when given). Other findings
may appear too (a defect often has several consequences).

Plain python3, no third-party modules. The output is deterministic; rerunning rewrites it.
"""
import json
import os
import filecmp
import shutil
import struct
import sys
import tempfile
import zipfile
import zlib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GOOD = os.path.join("testdata", "good", "msprobe")
OUT = os.path.join(ROOT, "testdata", "mutations")

L0_TENSOR = os.path.join(GOOD, "cnn_L0_tensor_all_step0")  # pytorch current, L0, task tensor
L0_TENSORS = os.path.join(L0_TENSOR, "dump_tensor_data")
MIX_MD5 = os.path.join(GOOD, "cnn_mix_md5_all_step1")      # pytorch current, mix, md5 (in-place race)
LEGACY = os.path.join(GOOD, "legacy_mix_statistics_step0_cut")  # pytorch legacy, mix, statistics


# ---------------------------------------------------------------------------------------------
# helpers

def load(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return json.load(f)


def text(doc):
    """msprobe writes json.dump(indent=1) (NaN/Infinity allowed, ASCII escapes)."""
    return json.dumps(doc, indent=1)


def ptr(*tokens):
    out = ""
    for t in tokens:
        out += "/" + str(t).replace("~", "~0").replace("/", "~1")
    return out


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_ulps(x, n):
    """x (a float32 value) moved by n ULPs away from zero."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", bits + n))[0]


def rename_entry(data, old, new):
    """Returns a copy of the data object with entry old renamed to new (data_names follow)."""
    out = {}
    for k, v in data.items():
        if k == old:
            v = json.loads(json.dumps(v).replace('"' + old + ".", '"' + new + "."))
            out[new] = v
        else:
            out[k] = v
    return out


def storage_crc32(pt_path):
    """CRC-32 of a .pt file's storage record (msprobe's "md5" for contiguous float tensors)."""
    with zipfile.ZipFile(os.path.join(ROOT, pt_path)) as z:
        records = [n for n in z.namelist() if "/data/" in n]
        assert len(records) == 1, pt_path
        return "%08x" % zlib.crc32(z.read(records[0]))


def leaves(node):
    """Tensor leaves of an entry section, in order."""
    if isinstance(node, dict):
        if "dtype" in node and "shape" in node:
            yield node
        else:
            for v in node.values():
                yield from leaves(v)
    elif isinstance(node, list):
        for v in node:
            yield from leaves(v)


def l0_statistics():
    """The L0 tensor dump as a task-statistics dump (what cnn_L0_statistics_all writes)."""
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["task"] = "statistics"
    doc["dump_data_dir"] = None
    for entry in doc["data"].values():
        for leaf in leaves(entry):
            leaf.pop("data_name", None)
    return doc


def l0_md5_tensor():
    """The L0 tensor dump in summary_mode md5: every leaf gets the CRC-32 of its tensor file."""
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    for entry in doc["data"].values():
        for leaf in leaves(entry):
            leaf["md5"] = storage_crc32(os.path.join(L0_TENSORS, leaf["data_name"]))
    return doc


MD5_RACE_ENTRIES = ["Tensor.add_.5.forward", "Tensor.add_.6.forward", "Tensor.mul_.3.forward",
                    "Tensor.add_.7.forward", "Tensor.add_.8.forward"]


def mix_md5():
    """The mix md5 dump without the five in-place entries whose md5 msprobe took too late."""
    doc = load(os.path.join(MIX_MD5, "dump.json"))
    for name in MD5_RACE_ENTRIES:
        del doc["data"][name]
    return doc


def mindspore_statistics():
    """The L0 statistics dump spelled as MindSpore writes it (Cell.*, Float32, no requires_grad)."""
    doc = l0_statistics()
    doc["framework"] = "mindspore"
    data = {}
    for name, entry in doc["data"].items():
        for leaf in leaves(entry):
            leaf["type"] = "mindspore.Tensor"
            leaf["dtype"] = {"torch.float32": "Float32", "torch.int64": "Int64"}[leaf["dtype"]]
            leaf.pop("requires_grad", None)
        data["Cell." + name[len("Module."):]] = entry
    doc["data"] = data
    return doc


# ---------------------------------------------------------------------------------------------
# the corpus

VARIANTS = []


def variant(name, description, files, findings, exit_code=1, args=(), gap=None):
    """gap: the verifier does not detect this defect yet (reported to the lead); the runner
    counts such a variant as a known gap instead of a failure until it passes."""
    assert all(name != v["name"] for v in VARIANTS), name
    v = {
        "name": name,
        "description": description,
        "args": list(args),
        "exit": exit_code,
        "findings": findings,
        "_files": files,
    }
    if gap:
        v["gap"] = gap
    VARIANTS.append(v)


def F(kind, pointer, entry=None, actual=None):
    f = {"kind": kind, "pointer": pointer}
    if entry is not None:
        f["entry"] = entry
    if actual is not None:
        f["actual"] = actual
    return f


TENSORS = ["--tensors", L0_TENSORS.replace(os.sep, "/")]
AGAINST = ["--against", L0_TENSOR.replace(os.sep, "/")]


def build():
    # --- controls: the derived bases verify clean --------------------------------------------
    variant("control_l0_statistics", "control: the L0 tensor dump rewritten as a task-statistics dump (no data_name)",
            {"dump.json": text(l0_statistics())}, [], exit_code=0)
    variant("control_l0_md5_tensor", "control: the L0 tensor dump with the correct CRC-32 md5 on every leaf, "
            "checked against its tensor files", {"dump.json": text(l0_md5_tensor())}, [], exit_code=0, args=TENSORS)
    variant("control_mix_md5", "control: the mix md5 dump without its five in-place race entries, with its "
            "construct.json", {"dump.json": text(mix_md5()), "construct.json": text(load(os.path.join(MIX_MD5, "construct.json")))},
            [], exit_code=0)
    variant("control_mindspore", "control: the L0 statistics dump spelled as a MindSpore dump",
            {"dump.json": text(mindspore_statistics())}, [], exit_code=0)

    # --- golden comparison (--against the original) ------------------------------------------
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"] = rename_entry(doc["data"], "Module.fc.Linear.forward.0", "Module.head.Linear.forward.0")
    variant("renamed_entry", "Module.fc.Linear.forward.0 renamed Module.head.Linear.forward.0 (data_names follow); "
            "against the original: the old name is missing, the new one extra",
            {"dump.json": text(doc)},
            [F("extra", ptr("data", "Module.head.Linear.forward.0"), entry="Module.head.Linear.forward.0"),
             F("missing", "", entry="Module.fc.Linear.forward.0")], args=AGAINST)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    del doc["data"]["Module.pool.MaxPool2d.forward.0"]
    variant("dropped_entry", "Module.pool.MaxPool2d.forward.0 deleted; against the original it is missing",
            {"dump.json": text(doc)}, [F("missing", "", entry="Module.pool.MaxPool2d.forward.0")], args=AGAINST)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    extra = json.loads(json.dumps(doc["data"]["Module.relu.ReLU.forward.1"]).replace(
        "Module.relu.ReLU.forward.1.", "Module.relu.ReLU.forward.2."))
    data = {}
    for k, v in doc["data"].items():
        data[k] = v
        if k == "Module.relu.ReLU.forward.1":
            data["Module.relu.ReLU.forward.2"] = extra
    doc["data"] = data
    variant("extra_entry", "a third ReLU call Module.relu.ReLU.forward.2 inserted; against the original it is extra",
            {"dump.json": text(doc)}, [F("extra", ptr("data", "Module.relu.ReLU.forward.2"),
                                         entry="Module.relu.ReLU.forward.2")], args=AGAINST)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"]["Module.relu.ReLU.forward.0"]["output"][0]["Mean"] = f32(
        doc["data"]["Module.relu.ReLU.forward.0"]["output"][0]["Mean"] * 1.5)
    variant("golden_mean_changed", "Module.relu.ReLU.forward.0 output Mean x1.5 (rounded to float32); "
            "against the original it differs beyond rtol",
            {"dump.json": text(doc)},
            [F("statistic", ptr("data", "Module.relu.ReLU.forward.0", "output", 0, "Mean"))], args=AGAINST)

    # --- against the tensor files -------------------------------------------------------------
    e = "Module.conv1.Conv2d.forward.0"
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"][e]["input_args"][0]["shape"] = [2, 3, 8, 4]
    variant("shape_changed", "conv1 input shape [2,3,8,8] written as [2,3,8,4]; the tensor file disagrees",
            {"dump.json": text(doc)}, [F("shape", ptr("data", e, "input_args", 0, "shape"))], args=TENSORS)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"][e]["parameters"]["weight"]["dtype"] = "torch.float64"
    variant("dtype_changed", "conv1 weight dtype torch.float32 written as torch.float64; the tensor file disagrees "
            "(and current-profile float64 statistics must have null Mean/Norm)",
            {"dump.json": text(doc)}, [F("dtype", ptr("data", e, "parameters", "weight", "dtype"))], args=TENSORS)

    e = "Module.relu.ReLU.forward.0"
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    leaf = doc["data"][e]["output"][0]
    leaf["Max"] = f32_ulps(leaf["Max"], 1)
    variant("max_off_by_1ulp", "ReLU output Max moved up by one float32 ULP; Max must equal the tensor file's exactly",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "output", 0, "Max"))], args=TENSORS)

    e = "Module.conv1.Conv2d.forward.0"
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    leaf = doc["data"][e]["input_args"][0]
    leaf["Min"] = f32_ulps(leaf["Min"], 1)  # negative: one ULP further from zero
    variant("min_off_by_1ulp", "conv1 input Min moved down by one float32 ULP; Min must equal the tensor file's exactly",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "input_args", 0, "Min"))], args=TENSORS)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    leaf = doc["data"][e]["output"][0]
    leaf["Mean"] = f32(leaf["Mean"] * 1.01)
    variant("mean_off_by_1pct", "conv1 output Mean x1.01 (rounded to float32); beyond the tolerance for the tensor file",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "output", 0, "Mean"))], args=TENSORS)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    leaf = doc["data"][e]["parameters"]["weight"]
    leaf["Norm"] = f32(leaf["Norm"] * 1.01)
    variant("norm_off_by_1pct", "conv1 weight Norm x1.01 (rounded to float32); beyond the tolerance for the tensor file",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "parameters", "weight", "Norm"))], args=TENSORS)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    leaf = doc["data"][e]["output"][0]
    leaf["Max"] = float("nan")
    variant("nan_max", "conv1 output Max written as NaN (Min stays a number, the tensor holds no NaN)",
            {"dump.json": text(doc)},
            [F("statistic", ptr("data", e, "output", 0, "Max")), F("statistic", ptr("data", e, "output", 0, "Min"))],
            args=TENSORS)

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"][e]["output"][0]["shape"][1] = float("nan")
    variant("nan_shape_dim", "conv1 output shape [2,NaN,8,8]: a NaN where an integer dimension belongs",
            {"dump.json": text(doc)}, [F("schema", ptr("data", e, "output", 0, "shape", 1))])

    e = "Module.relu.ReLU.forward.0"
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"] = {e: doc["data"][e]}
    files = {"dump.json": text(doc),
             "dump_tensor_data/" + e + ".input.0.pt": ("copy", os.path.join(L0_TENSORS, e + ".input.0.pt"))}
    variant("data_name_missing_file", "a one-entry dump whose dump_tensor_data/ lacks the output's file",
            files, [F("missing", ptr("data", e, "output", 0, "data_name"), actual="")])

    files = {"dump.json": text(doc),
             "dump_tensor_data/" + e + ".input.0.pt": ("copy", os.path.join(L0_TENSORS, e + ".input.0.pt")),
             "dump_tensor_data/" + e + ".output.0.pt": ("copy", os.path.join(L0_TENSORS, e + ".output.0.pt")),
             "dump_tensor_data/" + e + ".output.1.pt": ("copy", os.path.join(L0_TENSORS, e + ".output.0.pt"))}
    variant("unreferenced_tensor_file", "a one-entry dump whose dump_tensor_data/ holds a third, unreferenced .pt",
            files, [F("extra", "", actual=e + ".output.1.pt")])

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    sec = doc["data"][e]
    sec["input_args"][0]["data_name"], sec["output"][0]["data_name"] = (
        sec["output"][0]["data_name"], sec["input_args"][0]["data_name"])
    variant("data_name_swapped", "ReLU input and output data_names swapped: each is inconsistent with its position",
            {"dump.json": text(doc)},
            [F("data_name", ptr("data", e, "input_args", 0, "data_name"), actual=e + ".output.0.pt"),
             F("data_name", ptr("data", e, "output", 0, "data_name"), actual=e + ".input.0.pt")])

    doc = l0_md5_tensor()
    e = "Module.fc.Linear.forward.0"
    doc["data"][e]["output"][0]["md5"] = "deadbeef"
    variant("md5_wrong", "md5 dump with tensor files; the fc output's md5 replaced by deadbeef",
            {"dump.json": text(doc)}, [F("checksum", ptr("data", e, "output", 0, "md5"), actual='"deadbeef"')],
            args=TENSORS)

    # --- dtype spelling -----------------------------------------------------------------------
    e = "Module.conv1.Conv2d.forward.0"
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"][e]["output"][0]["dtype"] = "Float32"
    variant("dtype_mindspore_in_pytorch", "PyTorch dump with the MindSpore dtype spelling Float32",
            {"dump.json": text(doc)}, [F("dtype", ptr("data", e, "output", 0, "dtype"), actual="Float32")])

    doc = mindspore_statistics()
    ce = "Cell.conv1.Conv2d.forward.0"
    doc["data"][ce]["output"][0]["dtype"] = "torch.float32"
    variant("dtype_torch_in_mindspore", "MindSpore dump with the PyTorch dtype spelling torch.float32",
            {"dump.json": text(doc)}, [F("dtype", ptr("data", ce, "output", 0, "dtype"), actual="torch.float32")])

    doc = mindspore_statistics()
    data = {}
    for k, v in doc["data"].items():
        data[("Module." + k[len("Cell."):]) if k == "Cell.fc.Linear.forward.0" else k] = v
    doc["data"] = data
    variant("module_in_mindspore", "MindSpore dump with one Module.* entry (MindSpore names modules Cell.*)",
            {"dump.json": text(doc)}, [F("name", ptr("data", "Module.fc.Linear.forward.0"))])

    # --- schema -------------------------------------------------------------------------------
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    del doc["data"][e]["input_args"][0]["requires_grad"]
    variant("missing_requires_grad", "PyTorch leaf without requires_grad",
            {"dump.json": text(doc)}, [F("schema", ptr("data", e, "input_args", 0))])

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"][e]["output"][0]["shape"] = [2, -4, 8, 8]
    variant("negative_shape_dim", "conv1 output shape [2,-4,8,8]",
            {"dump.json": text(doc)}, [F("schema", ptr("data", e, "output", 0, "shape", 1))])

    doc = mix_md5()
    ce = "Functional.cross_entropy.0.forward"
    doc["data"][ce]["input_args"][1]["md5"] = "4bfcf84g"
    variant("md5_malformed", "md5 dump; the cross_entropy target's md5 is not 8 hex digits (4bfcf84g)",
            {"dump.json": text(doc)}, [F("schema", ptr("data", ce, "input_args", 1, "md5"))])

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    out = {}
    for k, v in doc.items():
        if k == "data":
            out["version"] = "1.0"
        out[k] = v
    variant("unknown_top_level_key", "a \"version\" key between dump_data_dir and data",
            {"dump.json": text(out)}, [F("schema", "/version")])

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    out = {"level": doc["level"], "task": doc["task"]}
    out.update(doc)
    variant("top_level_keys_out_of_order", "header keys level, task, ... instead of task, level, ...",
            {"dump.json": text(out)}, [F("schema", "/task")])

    doc = l0_statistics()
    e = "Module.conv1.Conv2d.forward.0"
    sec = {}
    for k, v in doc["data"][e].items():
        sec[k] = v
        if k == "parameters":  # where legacy Module forward entries have it (spec 4.2)
            sec["is_recompute"] = False
    doc["data"][e] = sec
    variant("is_recompute_in_current", "current-profile statistics dump with \"is_recompute\": false in the first "
            "forward entry only (legacy dumps have it in every forward entry, current ones in none): that entry is "
            "the odd one out",
            {"dump.json": text(doc)}, [F("profile", ptr("data", e))])

    doc = load(os.path.join(LEGACY, "dump.json"))
    e = "Functional.relu.0.forward"
    del doc["data"][e]["is_recompute"]
    variant("legacy_missing_is_recompute", "legacy-profile dump with one forward entry lacking is_recompute",
            {"dump.json": text(doc)}, [F("profile", ptr("data", e))])

    doc = l0_statistics()
    e = "Module.conv1.Conv2d.forward.0"
    sec = doc["data"][e]
    doc["data"][e] = {k: sec[k] for k in ("output", "input_args", "input_kwargs", "parameters")}
    variant("entry_keys_out_of_order", "conv1 forward entry with output before input_args (spec 4.2 fixes the order)",
            {"dump.json": text(doc)}, [F("schema", ptr("data", e, "input_args"))])

    doc = l0_statistics()
    leaf = doc["data"][e]["output"][0]
    doc["data"][e]["output"][0] = {k: leaf[k] for k in ("type", "dtype", "shape", "Min", "Max", "Mean", "Norm",
                                                         "requires_grad")}
    variant("leaf_keys_out_of_order", "conv1 output leaf with Min before Max",
            {"dump.json": text(doc)}, [F("schema", ptr("data", e, "output", 0, "Max"))])

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["task"] = "statistics"
    doc["dump_data_dir"] = None
    variant("data_name_in_statistics_task", "task statistics, dump_data_dir null, but every leaf has a data_name",
            {"dump.json": text(doc)}, [F("data_name", ptr("data", e, "input_args", 0, "data_name"))])

    doc = l0_statistics()
    doc["task"] = "tensor"
    doc["dump_data_dir"] = "/srv/oracle/dumps/cnn_L0_tensor_all/step0/rank0/dump_tensor_data"
    variant("tensor_task_without_data_name", "task tensor with a dump_data_dir, but no leaf has a data_name",
            {"dump.json": text(doc)}, [F("data_name", ptr("data", e, "input_args", 0))])

    doc = l0_statistics()
    variant("stack_names_unknown_entry", "stack.json of a data_mode all dump names Module.conv9.Conv2d.forward.0, "
            "which is not in dump.json",
            {"dump.json": text(doc),
             "stack.json": text({"0": [["Module.conv9.Conv2d.forward.0"], ["File x.py, line 1, in f, \n y()"]]})},
            [F("stack", "", entry="Module.conv9.Conv2d.forward.0")])

    # --- JSON syntax --------------------------------------------------------------------------
    t = text(load(os.path.join(L0_TENSOR, "dump.json")))
    variant("truncated", "dump.json cut in the middle (a crash while writing)",
            {"dump.json": t[: len(t) // 2]}, [F("json", "")])
    variant("trailing_garbage", "text after the closing brace",
            {"dump.json": t + "\n{\"task\": \"tensor\"}\n"}, [F("json", "")])
    b = t.encode("ascii").replace(b'"type": "torch.Tensor"', b'"type": "torch.\xffTensor"', 1)
    variant("invalid_utf8", "a 0xFF byte inside the first leaf's type string",
            {"dump.json": b}, [F("json", "")])

    # --- duplicates ---------------------------------------------------------------------------
    e = "Module.relu.ReLU.forward.0"
    t = text(load(os.path.join(L0_TENSOR, "dump.json")))
    anchor = '  "' + e + '": {\n   "input_args": ['
    assert t.count(anchor) == 1
    variant("duplicate_key_in_entry", "ReLU forward entry has \"input_kwargs\" twice",
            {"dump.json": t.replace(anchor, '  "' + e + '": {\n   "input_kwargs": {},\n   "input_args": [')},
            [F("duplicate", ptr("data", e, "input_kwargs"), entry=e)])

    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    t = text(doc)
    body = text({e: doc["data"][e]})[2:-2]  # ' "<e>": {...}' without the outer braces
    body = "\n".join(" " + line for line in body.split("\n"))
    anchor = '  "Module.pool.MaxPool2d.forward.0": {'
    assert t.count(anchor) == 1
    variant("duplicate_entry_name", "Module.relu.ReLU.forward.0 appears twice in data",
            {"dump.json": t.replace(anchor, body + ",\n" + anchor)}, [F("duplicate", ptr("data", e), entry=e)])

    # --- entry names --------------------------------------------------------------------------
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    doc["data"] = rename_entry(doc["data"], "Module.pool.MaxPool2d.forward.0", "Module.pool.MaxPool2d.fwd.0")
    variant("bad_entry_name", "Module.pool.MaxPool2d.forward.0 spelled Module.pool.MaxPool2d.fwd.0",
            {"dump.json": text(doc)}, [F("name", ptr("data", "Module.pool.MaxPool2d.fwd.0"))])

    doc = l0_statistics()
    relu = doc["data"]["Module.relu.ReLU.forward.0"]
    data = {}
    for k, v in doc["data"].items():
        if k == "Module.relu.ReLU.forward.0":
            data["Functional.relu.0.forward"] = {"input_args": relu["input_args"], "input_kwargs": {},
                                                 "output": relu["output"]}
        data[k] = v
    doc["data"] = data
    variant("api_entry_in_L0", "L0 statistics dump with an API entry Functional.relu.0.forward",
            {"dump.json": text(doc)}, [F("name", ptr("data", "Functional.relu.0.forward"))])

    # --- statistics rules ---------------------------------------------------------------------
    doc = l0_statistics()
    e = "Module.relu.ReLU.forward.0"
    leaf = doc["data"][e]["output"][0]
    leaf.update({"dtype": "torch.bool", "Max": True, "Min": False, "Mean": 0.5, "Norm": None})
    variant("bool_with_mean", "a torch.bool output with Mean 0.5 (bool tensors have null Mean/Norm)",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "output", 0, "Mean"))])

    doc = l0_statistics()
    leaf = doc["data"][e]["output"][0]
    leaf["shape"] = [2, 0, 8, 8]
    variant("empty_with_stats", "an output of shape [2,0,8,8] with numeric Max/Min/Mean/Norm (must all be null)",
            {"dump.json": text(doc)},
            [F("statistic", ptr("data", e, "output", 0, k)) for k in ("Max", "Min", "Mean", "Norm")])

    doc = mix_md5()
    ce = "Functional.cross_entropy.0.forward"
    leaf = doc["data"][ce]["output"][0]
    leaf["Mean"] = f32(leaf["Mean"] / 2)
    variant("zero_dim_differs", "md5 dump; the 0-dim loss has Mean != Max (a 0-dim tensor's four statistics are equal)",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", ce, "output", 0, "Mean"))])

    doc = mix_md5()
    doc["data"][ce]["input_args"][1]["Mean"] = 3.0
    variant("int_mean_in_current", "md5 dump (current profile); the int64 target has Mean 3.0 (must be null)",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", ce, "input_args", 1, "Mean"))])

    doc = l0_statistics()
    e = "Module.conv1.Conv2d.forward.0"
    leaf = doc["data"][e]["output"][0]
    leaf["Max"], leaf["Min"] = leaf["Min"], leaf["Max"]
    variant("min_greater_than_max", "conv1 output Max and Min swapped",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "output", 0, "Min"))])

    doc = l0_statistics()
    leaf = doc["data"][e]["parameters"]["weight"]
    leaf["Norm"] = -leaf["Norm"]
    variant("negative_norm", "conv1 weight Norm negated",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "parameters", "weight", "Norm"))])

    doc = l0_statistics()
    leaf = doc["data"][e]["parameters"]["weight"]
    leaf["Mean"] = leaf["Mean"] * 1.01  # a double that no float32 equals
    variant("mean_not_float32", "conv1 weight Mean x1.01 in double precision: not a float32 value",
            {"dump.json": text(doc)}, [F("statistic", ptr("data", e, "parameters", "weight", "Mean"))])

    # --- cross-file: stack.json / construct.json ----------------------------------------------
    doc = load(os.path.join(L0_TENSOR, "dump.json"))
    stack = load(os.path.join(L0_TENSOR, "stack.json"))
    construct = load(os.path.join(L0_TENSOR, "construct.json"))
    stack["0"][0].append("Module.conv1.Conv2d.backward.0")
    variant("stack_names_backward", "stack.json lists Module.conv1.Conv2d.backward.0 (stacks exist for forward only)",
            {"dump.json": text(doc), "stack.json": text(stack), "construct.json": text(construct)},
            [F("stack", "", entry="Module.conv1.Conv2d.backward.0")])

    stack = load(os.path.join(L0_TENSOR, "stack.json"))
    del construct["Module.fc.Linear.forward.0"]
    variant("construct_missing_module", "construct.json lacks the node of Module.fc.Linear.forward.0",
            {"dump.json": text(doc), "stack.json": text(stack), "construct.json": text(construct)},
            [F("construct", "", entry="Module.fc.Linear.forward.0")])

    mix = mix_md5()
    mconstruct = load(os.path.join(MIX_MD5, "construct.json"))
    del mconstruct["Functional.linear.0.forward"]
    variant("construct_missing_api_mix", "mix dump; construct.json lacks the node of Functional.linear.0.forward",
            {"dump.json": text(mix), "construct.json": text(mconstruct)},
            [F("construct", "", entry="Functional.linear.0.forward")])


def write(out):
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    manifest = []
    for v in VARIANTS:
        d = os.path.join(out, v["name"])
        for rel, content in sorted(v["_files"].items()):
            path = os.path.join(d, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if isinstance(content, tuple):
                shutil.copyfile(os.path.join(ROOT, content[1]), path)
            elif isinstance(content, bytes):
                with open(path, "wb") as f:
                    f.write(content)
            else:
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(content)
        manifest.append({k: v[k] for k in ("name", "description", "args", "exit", "findings", "gap") if k in v})
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    lines = ["# verify mutation corpus", "",
             "Generated by `python3 testdata/gen/gen_mutations.py` from the real dumps in `testdata/good/msprobe/`;",
             "do not edit by hand. `tests/golden/run_verify_mutations.py MSDUMP` runs `msdump verify` on each",
             "variant and checks the exit code and the findings listed in `manifest.json` (kind and JSON pointer).",
             "Variants marked *gap* are defects the verifier does not detect yet.", "",
             "| variant | exit | expected findings | defect |", "|---|---|---|---|"]
    for v in manifest:
        found = ", ".join("%s `%s`" % (f["kind"], f["pointer"] or '""') for f in v["findings"]) or "none"
        args = (" (`%s`)" % " ".join(v["args"])) if v["args"] else ""
        lines.append("| `%s`%s | %d | %s | %s%s |" % (v["name"], "", v["exit"], found, v["description"] + args,
                                                      " *gap*" if "gap" in v else ""))
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return len(manifest)


def differences(a, b, rel=""):
    """Paths (relative) that differ between the trees a and b."""
    c = filecmp.dircmp(a, b)
    out = [os.path.join(rel, n) for n in c.left_only + c.right_only + c.funny_files]
    _, mismatch, errors = filecmp.cmpfiles(a, b, c.common_files, shallow=False)
    out += [os.path.join(rel, n) for n in mismatch + errors]
    for d in c.common_dirs:
        out += differences(os.path.join(a, d), os.path.join(b, d), os.path.join(rel, d))
    return out


def main():
    build()
    if sys.argv[1:] == ["--check"]:
        with tempfile.TemporaryDirectory() as tmp:
            write(os.path.join(tmp, "mutations"))
            diff = differences(os.path.join(tmp, "mutations"), OUT) if os.path.isdir(OUT) else ["testdata/mutations"]
        if diff:
            print("testdata/mutations/ is out of date (re-run testdata/gen/gen_mutations.py):\n  " + "\n  ".join(diff))
            return 1
        print("testdata/mutations/ is up to date")
        return 0
    if sys.argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    n = write(OUT)
    print("%d variants written to %s" % (n, os.path.relpath(OUT, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
