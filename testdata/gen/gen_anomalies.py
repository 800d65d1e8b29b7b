#!/usr/bin/python3
"""Test data for `msdump anomalies`: dumps of small PyTorch models that produce NaN / Inf, written
the way msprobe writes them (dump.json / construct.json, and dump_tensor_data/*.pt in tensor mode).

Run with the Debian interpreter (torch 1.13):

    /usr/bin/python3 testdata/gen/gen_anomalies.py

It rewrites, deterministically, testdata/anomalies/:
  forward_mix/          mix level, statistics: log of zeros, division by zero, 0/0, a float16
                        overflow, each in its own module; forward only
  forward_L0_tensor/    the same model at L0 in tensor mode (.pt files: exact counts)
  attention_mask/       masked_fill(mask, -inf) before a softmax: the only non-finite value is
                        the fill argument (must exit 0)
  nan_grad/             a finite forward whose backward turns non-finite: atan2(0, 0) (a 0/0
                        = NaN gradient, reaching a Linear's backward and its parameters'
                        gradients) and sqrt at 0 (an inf gradient)
  fp16_warnings/        float16 outputs at 65504 and a float16 Norm/Mean overflow: warnings only
  tree/step<S>/rank<R>/ two steps of two ranks; only rank 1 of step 1 divides by zero
The origins each dump must give are asserted by tests/golden/run_anomaly_fixtures.py.

The recorder below is a small stand-in for msprobe's hooks: API calls go through `api()` (entry
"<Prefix>.<op>.<N>.forward", inserted when the call starts, the output added when it returns,
its backward entry from a hook on the output's grad_fn), modules through forward pre-/post-hooks
and full backward hooks ("Module.<path>.<Class>.forward.<N>"), parameter gradients through
tensor hooks ("...parameters_grad.<k>"). Statistics: Max/Min/Mean/Norm computed by torch in the
tensor's own dtype, as msprobe's low precision mode does for float16 (so a float16 Norm can
overflow while Max and Min are finite).
"""

import collections
import json
import os
import shutil

import torch

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(REPO, "testdata", "anomalies")


def stat(v):
    return float(v.item())  # the value in the tensor's dtype, widened exactly


class Recorder:
    def __init__(self, level, tensor_dir=None):
        self.level = level            # "mix" or "L0"
        self.tensor_dir = tensor_dir  # tensor mode: where the .pt files go
        self.data = {}
        self.construct = {}
        self.api_counts = collections.Counter()
        self.module_counts = collections.Counter()
        self.module_stack = []        # forward entry names of the modules being run
        self.grad_counts = collections.Counter()

    # --- leaves ---------------------------------------------------------------------------
    def leaf(self, x, file_stem):
        if isinstance(x, torch.Tensor):
            t = x.detach()
            d = {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape)}
            if t.numel() == 0:
                d.update({"Max": None, "Min": None, "Mean": None, "Norm": None})
            elif t.is_floating_point():
                d.update({"Max": stat(t.max()), "Min": stat(t.min()), "Mean": stat(t.mean()), "Norm": stat(t.norm())})
            else:  # bool / int: the extremes as they are, Mean / Norm in float64
                wide = t.double()
                d.update({"Max": t.max().item(), "Min": t.min().item(), "Mean": stat(wide.mean()), "Norm": stat(wide.norm())})
            d["requires_grad"] = x.requires_grad
            if self.tensor_dir is not None:
                name = file_stem + ".pt"
                torch.save(t.clone().contiguous(), os.path.join(self.tensor_dir, name))
                d["data_name"] = name
            return d
        if x is None:
            return None
        if isinstance(x, (list, tuple)):
            return [self.leaf(v, f"{file_stem}.{i}") for i, v in enumerate(x)]
        if isinstance(x, (bool, int, float, str)):
            return {"type": type(x).__name__, "value": x}
        return {"type": f"{type(x).__module__}.{type(x).__name__}", "value": str(x)}  # torch.dtype, ...

    def leaves(self, values, stem):
        return [self.leaf(v, f"{stem}.{i}") for i, v in enumerate(values)]

    # --- API entries (mix) ----------------------------------------------------------------
    def api(self, prefix, op, fn, *args, **kwargs):
        if self.level != "mix":
            return fn(*args, **kwargs)
        n = self.api_counts[(prefix, op)]
        self.api_counts[(prefix, op)] += 1
        name = f"{prefix}.{op}.{n}.forward"
        entry = self.data[name] = {}
        entry["input_args"] = self.leaves(args, f"{name}.input")
        entry["input_kwargs"] = {k: self.leaf(v, f"{name}.input.{k}") for k, v in kwargs.items()}
        if self.module_stack:
            self.construct[name] = self.module_stack[-1]
        out = fn(*args, **kwargs)
        entry["output"] = self.leaves([out], f"{name}.output")
        if isinstance(out, torch.Tensor) and out.grad_fn is not None:
            self.hook_api_backward(prefix, op, n, out)
        return out

    def hook_api_backward(self, prefix, op, n, out):
        name = f"{prefix}.{op}.{n}.backward"
        parent = self.module_stack[-1].replace(".forward.", ".backward.") if self.module_stack else None

        def hook(grad_inputs, grad_outputs):
            self.data[name] = {"input": self.leaves(grad_outputs, f"{name}.input"),
                               "output": self.leaves(grad_inputs, f"{name}.output")}
            if parent is not None:
                self.construct[name] = parent
        out.grad_fn.register_hook(hook)

    # --- modules --------------------------------------------------------------------------
    def attach(self, model):
        for path, module in model.named_modules():
            if path:
                self.attach_module(path, module)

    def attach_module(self, path, module):
        cls = type(module).__name__
        state = {}

        def pre(mod, args):
            n = self.module_counts[(path, cls)]
            self.module_counts[(path, cls)] += 1
            name = f"Module.{path}.{cls}.forward.{n}"
            state["name"] = name
            self.construct[name] = self.module_stack[-1] if self.module_stack else None
            self.data[name] = {"input_args": self.leaves(args, f"{name}.input"), "input_kwargs": {}}
            self.module_stack.append(name)

        def post(mod, args, out):
            name = self.module_stack.pop()
            entry = self.data[name]
            entry["output"] = self.leaves([out], f"{name}.output")
            entry["parameters"] = {k: self.leaf(p, f"{name}.parameters.{k}")
                                   for k, p in mod.named_parameters(recurse=False)}

        def backward(mod, grad_input, grad_output):
            name = state["name"].replace(".forward.", ".backward.")
            self.data[name] = {"input": self.leaves(grad_output, f"{name}.input"),
                               "output": self.leaves(grad_input, f"{name}.output")}
            parent = self.construct.get(state["name"])
            self.construct[name] = parent.replace(".forward.", ".backward.") if parent else None

        module.register_forward_pre_hook(pre)
        module.register_forward_hook(post)
        if any(True for _ in module.parameters(recurse=False)) or not list(module.children()):
            module.register_full_backward_hook(backward)
        for pname, p in module.named_parameters(recurse=False):
            self.hook_param(path, cls, pname, p)

    def hook_param(self, path, cls, pname, p):
        def hook(grad):
            k = 0
            name = f"Module.{path}.{cls}.parameters_grad.{k}"
            entry = self.data.pop(name, {})
            entry[pname] = [self.leaf(grad, f"{name}.{pname}")]
            self.data[name] = entry  # moved to the end, as msprobe does for each new gradient
        p.register_hook(hook)

    # --- output ---------------------------------------------------------------------------
    def write(self, out_dir, task):
        os.makedirs(out_dir, exist_ok=True)
        dump = {"task": task, "level": self.level, "framework": "pytorch",
                "dump_data_dir": "dump_tensor_data" if self.tensor_dir else None, "data": self.data}
        with open(os.path.join(out_dir, "dump.json"), "w") as f:
            json.dump(dump, f, indent=1)
        with open(os.path.join(out_dir, "construct.json"), "w") as f:
            json.dump(self.construct, f, indent=1)


# --- models --------------------------------------------------------------------------------
class LogBlock(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = torch.relu(self.fc(x))  # zeros where the pre-activation is negative
        return self.rec.api("Torch", "log", torch.log, y)


class DivBlock(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec

    def forward(self, x):
        zeros = torch.zeros_like(x)
        inf = self.rec.api("Torch", "div", torch.div, torch.ones_like(x), zeros)   # 1/0 = inf
        nan = self.rec.api("Torch", "div", torch.div, zeros, zeros)                # 0/0 = nan
        return inf, nan


class HalfBlock(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec

    def forward(self, x):
        h = x.abs().half() + 1.0
        return self.rec.api("Tensor", "mul", torch.mul, h, 40000.0)  # beyond float16's 65504


class ForwardNet(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.log_block = LogBlock(rec)
        self.div_block = DivBlock(rec)
        self.half_block = HalfBlock(rec)

    def forward(self, x):
        return self.log_block(x), self.div_block(x), self.half_block(x)


class Attention(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec
        self.q = torch.nn.Linear(4, 4)

    def forward(self, x):
        q = self.q(x)
        scores = self.rec.api("Torch", "matmul", torch.matmul, q, q.transpose(0, 1))
        mask = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
        masked = self.rec.api("Tensor", "masked_fill", torch.Tensor.masked_fill, scores, mask, float("-inf"))
        return self.rec.api("Functional", "softmax", torch.nn.functional.softmax, masked, dim=-1)


class SqrtBlock(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = torch.relu(self.fc(x))
        return self.rec.api("Torch", "sqrt", torch.sqrt, y)  # finite; d sqrt / dy = inf at 0


class AtanBlock(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        zero = self.fc(x) * 0.0
        return self.rec.api("Torch", "atan2", torch.atan2, zero, zero).sum()  # 0 forward; 0/0 = NaN gradient


class GradNet(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.sqrt_block = SqrtBlock(rec)
        self.atan_block = AtanBlock(rec)

    def forward(self, x):
        return self.sqrt_block(x).sum() + self.atan_block(x)


class HalfNet(torch.nn.Module):
    def __init__(self, rec):
        super().__init__()
        self.rec = rec

    def forward(self, x):
        edge = self.rec.api("Tensor", "half", torch.Tensor.half, torch.clamp(x * 70000.0, -65504.0, 65504.0))
        big = self.rec.api("Torch", "full", torch.full, (5000,), 1000.0, dtype=torch.float16)
        return edge, big


class StepNet(torch.nn.Module):
    """One training-like step; the divisor is zero only where `broken`."""

    def __init__(self, rec, broken):
        super().__init__()
        self.rec = rec
        self.broken = broken
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        d = torch.zeros(1) if self.broken else torch.full((1,), 2.0)
        return self.rec.api("Torch", "div", torch.div, y, d)


def forward_input():
    return torch.tensor([[1.0, -2.0, 0.5, 3.0], [0.0, 1.5, -1.0, 2.0], [-3.0, 0.25, 2.0, -0.5]])


def fresh(out_dir):
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)


def gen_forward(name, level, tensors):
    out_dir = os.path.join(OUT, name)
    fresh(out_dir)
    tdir = None
    if tensors:
        tdir = os.path.join(out_dir, "dump_tensor_data")
        os.makedirs(tdir)
    torch.manual_seed(0)
    rec = Recorder(level, tdir)
    net = ForwardNet(rec)
    rec.attach(net)
    with torch.no_grad():
        net(forward_input())
    rec.write(out_dir, "tensor" if tensors else "statistics")


def gen_model(name, make_net, backward):
    out_dir = os.path.join(OUT, name)
    fresh(out_dir)
    torch.manual_seed(0)
    rec = Recorder("mix")
    net = make_net(rec)
    rec.attach(net)
    x = forward_input().requires_grad_(backward)
    if backward:
        net(x).backward()
    else:
        with torch.no_grad():
            net(x)
    rec.write(out_dir, "statistics")


def gen_tree():
    for step in (0, 1):
        for rank in (0, 1):
            out_dir = os.path.join(OUT, "tree", f"step{step}", f"rank{rank}")
            fresh(out_dir)
            torch.manual_seed(step)
            rec = Recorder("mix")
            net = StepNet(rec, broken=(step == 1 and rank == 1))
            rec.attach(net)
            with torch.no_grad():
                net(forward_input())
            rec.write(out_dir, "statistics")


def main():
    torch.set_num_threads(1)
    gen_forward("forward_mix", "mix", tensors=False)
    gen_forward("forward_L0_tensor", "L0", tensors=True)
    gen_model("attention_mask", Attention, backward=False)
    gen_model("nan_grad", GradNet, backward=True)
    gen_model("fp16_warnings", HalfNet, backward=False)
    gen_tree()


if __name__ == "__main__":
    main()
