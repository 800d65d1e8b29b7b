#!/usr/bin/env python3
"""Writes testdata/generations/: small hand-made dumps in the forms of older msprobe builds
(docs/format.md §16), for the golden CLI tests of tests/cli/verify/generation_*.sh and
tests/cli/convert/generation_*.sh.

The shapes follow the dump.json examples of msprobe's 8.x documentation (PyTorch, MindSpore and
MSAdapter "L0" examples: a Conv2d forward, its un-numbered parameters_grad and its backward);
the numbers are our own, chosen to be exact float32 values that satisfy verify's statistics
rules. Run `python3 testdata/gen/gen_generations.py` after editing; do not edit the output.

  good/pytorch_8x          PyTorch, no is_recompute, "Module.conv2.Conv2d.parameters_grad"
  good/mindspore_8x        MindSpore, "Cell.conv2.Conv2d.parameters_grad", .npy data_names
  good/mindtorch_8x        MSAdapter: Module names, .npy, requires_grad on every leaf
  good/pytorch_8x_statistics  pytorch_8x as a statistics dump (no tensor files to convert from)
  good/md5_word_in_value   a statistics dump whose only "md5" is a string value (summary mode)
  bad/mixed_grad_names     numbered and un-numbered parameters_grad in one file
  bad/mixed_profiles       is_recompute everywhere (legacy) and native integer statistics (current)
  bad/grad_data_name       un-numbered parameters_grad whose data_name carries a counter
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "generations")


def tensor(fw, shape, stats, data_name=None, requires_grad=None):
    leaf = {"type": "torch.Tensor" if fw == "pytorch" else "mindspore.Tensor",
            "dtype": "torch.float32" if fw == "pytorch" else "Float32",
            "shape": shape}
    leaf.update(zip(("Max", "Min", "Mean", "Norm"), stats))
    if requires_grad is not None:
        leaf["requires_grad"] = requires_grad
    if data_name is not None:
        leaf["data_name"] = data_name
    return leaf


def conv_dump(fw, grad_name_suffix="", is_recompute=None, task="tensor"):
    """An L0 dump of one Conv2d: forward, parameters_grad, backward (the 8.x documentation's example)."""
    prefix = "Cell" if fw == "mindspore" else "Module"
    ext = ".pt" if fw == "pytorch" else ".npy"
    rg = (lambda v: v) if fw in ("pytorch", "mindtorch") else (lambda v: None)
    base = prefix + ".conv2.Conv2d"
    fwd, bwd, grads = base + ".forward.0", base + ".backward.0", base + ".parameters_grad" + grad_name_suffix

    def dn(name):
        return name + ext if task == "tensor" else None

    forward = {
        "input_args": [tensor(fw, [8, 16, 14, 14], [1.5, 0.0, 0.25, 70.5], dn(fwd + ".input.0"), rg(True))],
        "input_kwargs": {},
        "output": [tensor(fw, [8, 32, 10, 10], [1.75, -1.5, -0.03125, 149.5], dn(fwd + ".output.0"), rg(True))],
        "parameters": {
            "weight": tensor(fw, [32, 16, 5, 5], [0.0625, -0.0625, -0.0009765625, 3.5], dn(fwd + ".parameters.weight"), rg(True)),
            "bias": tensor(fw, [32], [0.0625, -0.046875, 0.0078125, 0.171875], dn(fwd + ".parameters.bias"), rg(True)),
        },
    }
    if is_recompute is not None:
        forward["is_recompute"] = is_recompute
    data = {
        fwd: forward,
        grads: {
            "weight": [tensor(fw, [32, 16, 5, 5], [0.0185546875, -0.0087890625, 0.000732421875, 0.2607421875],
                              dn(grads + ".weight"), rg(False))],
            "bias": [tensor(fw, [32], [0.0146484375, -0.0068359375, 0.00262451171875, 0.029541015625],
                            dn(grads + ".bias"), rg(False))],
        },
        bwd: {
            "input": [tensor(fw, [8, 32, 10, 10], [0.0015, -0.00115, 3.0e-06, 0.0205], dn(bwd + ".input.0"), rg(False))],
            "output": [tensor(fw, [8, 16, 14, 14], [0.00075, -0.00045, 6.5e-06, 0.01475], dn(bwd + ".output.0"), rg(False))],
        },
    }
    return {"task": task, "level": "L0", "framework": fw,
            "dump_data_dir": "/dump/path/step0/rank0/dump_tensor_data" if task == "tensor" else None, "data": data}


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def fix_f32(doc):
    """Rounds every statistic to float32, as msprobe writes them."""
    def walk(v):
        if isinstance(v, dict):
            for k in ("Max", "Min", "Mean", "Norm"):
                if isinstance(v.get(k), float):
                    v[k] = f32(v[k])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(doc)
    return doc


def write(rel, doc, construct=None):
    d = os.path.join(OUT, rel)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "dump.json"), "w") as f:
        json.dump(fix_f32(doc), f, indent=1)
    if construct is not None:
        with open(os.path.join(d, "construct.json"), "w") as f:
            json.dump(construct, f, indent=1)


def api_entry(name, leaves_in, leaves_out, is_recompute=None, kwargs=None):
    e = {"input_args": leaves_in, "input_kwargs": kwargs or {}}
    if is_recompute is not None:
        e["is_recompute"] = is_recompute
    e["output"] = leaves_out
    return e


def main():
    for fw in ("pytorch", "mindspore", "mindtorch"):
        prefix = "Cell" if fw == "mindspore" else "Module"
        write(f"good/{fw}_8x", conv_dump(fw),
              {f"{prefix}.conv2.Conv2d.forward.0": None, f"{prefix}.conv2.Conv2d.backward.0": None})

    write("good/pytorch_8x_statistics", conv_dump("pytorch", task="statistics"))

    # "md5" as a string value, statistics leaves: the summary mode is statistics.
    leaf = tensor("pytorch", [4], [2.0, -1.0, 0.5, 3.0], requires_grad=False)
    doc = {"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": None, "data": {
        "Functional.hash.0.forward": api_entry("Functional.hash.0.forward", [leaf], [dict(leaf)],
                                               kwargs={"algorithm": {"type": "str", "value": "md5"}}),
    }}
    write("good/md5_word_in_value", doc)

    doc = conv_dump("pytorch", task="statistics")
    second = json.loads(json.dumps(doc["data"]["Module.conv2.Conv2d.parameters_grad"]))
    doc["data"] = {"Module.conv1.Conv2d.parameters_grad.0": second, **doc["data"]}
    write("bad/mixed_grad_names", doc)

    int_current = {"type": "torch.Tensor", "dtype": "torch.int64", "shape": [8], "Max": 9, "Min": 0,
                   "Mean": None, "Norm": None, "requires_grad": False}
    logits = tensor("pytorch", [8, 10], [4.0, -4.0, 0.125, 12.0], requires_grad=True)
    loss = {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "Max": 2.25, "Min": 2.25,
            "Mean": 2.25, "Norm": 2.25, "requires_grad": True}
    doc = {"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": None, "data": {
        "Functional.relu.0.forward": api_entry("", [dict(logits)], [dict(logits)], is_recompute=False),
        "Functional.relu.1.forward": api_entry("", [dict(logits)], [dict(logits)], is_recompute=False),
        "Functional.cross_entropy.0.forward": api_entry("", [dict(logits), int_current], [loss], is_recompute=False),
    }}
    write("bad/mixed_profiles", doc)

    doc = conv_dump("pytorch")
    grads = doc["data"]["Module.conv2.Conv2d.parameters_grad"]
    grads["weight"][0]["data_name"] = "Module.conv2.Conv2d.parameters_grad.0.weight.pt"
    write("bad/grad_data_name", doc)


if __name__ == "__main__":
    main()
