#!/usr/bin/env python3
"""msdump_record's behaviour tests (ctest recorder_tests): transparency, hook removal, exceptions,
crash safety and an unseen model recorded, converted and verified.

    test_recorder.py MSDUMP [unittest args]
"""
import gc
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import unittest
import warnings
import weakref
import zlib

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)
sys.path.insert(0, HERE)

import test_model  # noqa: E402
import zoo  # noqa: E402
from msdump_record import PrecisionDebugger, Recorder  # noqa: E402

MSDUMP = None


def run(*args):
    return subprocess.run([MSDUMP, *args], capture_output=True, text=True)


def convert_and_verify(test, capture, out, *flags):
    """`msdump convert` then `msdump verify`, both asserted to succeed; verify's result."""
    r = run("-q", "convert", capture, "-o", out, *flags)
    test.assertEqual(r.returncode, 0, r.stderr)
    v = run("verify", out)
    test.assertEqual(v.returncode, 0, v.stdout + v.stderr)
    return v


def trace_lines(capture, step=0):
    with open(os.path.join(capture, f"step{step}", "rank0", "trace.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


class Transparency(unittest.TestCase):
    def test_outputs_and_gradients_bit_identical(self):
        batches = test_model.make_batches(2)
        plain = test_model.train(test_model.fresh_model(), batches)
        for level in ("L0", "L1", "mix"):
            with tempfile.TemporaryDirectory() as tmp:
                rec = Recorder(tmp, level, rank=0)
                recorded = test_model.train(test_model.fresh_model(), batches, rec)
                rec.close()
            for (a, b) in zip(plain[0], recorded[0]):
                for x, y in zip(a, b):
                    self.assertTrue(torch.equal(x, y) or (x.isnan().any() and torch.equal(x.nan_to_num(), y.nan_to_num())),
                                    f"{level}: outputs differ")
            for d1, d2 in ((plain[1], recorded[1]), (plain[2], recorded[2])):
                for name in d1:
                    self.assertTrue(torch.equal(d1[name], d2[name]), f"{level}: {name} differs")

    def hook_state(self, model):
        return ({n: (dict(m._forward_pre_hooks), dict(m._forward_hooks)) for n, m in model.named_modules()},
                (F.linear, torch.matmul, torch.Tensor.add_, torch.Tensor.__add__, torch._VF.lstm),
                "__add__" in torch.Tensor.__dict__, "lstm" in torch._VF.__dict__)

    def test_hooks_inert_after_stop_and_removed_on_close(self):
        """msprobe's lifecycle: hooks stay from the first start() on and do nothing while not
        running (no event, same results); close() puts every original back."""
        model = test_model.fresh_model()
        before = self.hook_state(model)
        x = test_model.make_batches(1)[0][0]
        plain = model(x)[0]
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "mix", rank=0)
            rec.start(model)
            self.assertIsNot(F.linear, before[1][0])
            model(x)
            rec.stop()
            lines = len(trace_lines_after_sync(rec, tmp))
            idle = model(x)[0]
            self.assertTrue(torch.equal(idle, plain))
            torch.matmul(idle, idle.transpose(-1, -2))
            self.assertEqual(len(trace_lines_after_sync(rec, tmp)), lines, "recorded while stopped")
            rec.step()
            rec.start(model)     # the same model object: hooked once
            self.assertEqual(len(rec._modules), 1)
            rec.stop()
            rec.close()
            self.assertEqual(self.hook_state(model), before)

    def test_closed_recorder_is_freed_and_open_one_closed_at_exit(self):
        """The at-exit hook holds no recorder: a closed one nobody refers to is freed; one left
        open at exit is closed then (its step written in full, hooks off)."""
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(os.path.join(tmp, "freed"), "L1", rank=0)
            rec.start()
            torch.add(torch.ones(2), 1)
            rec.close()
            ref = weakref.ref(rec)
            del rec
            gc.collect()
            self.assertIsNone(ref(), "a closed Recorder stays alive")
            cap = os.path.join(tmp, "cap")
            script = textwrap.dedent(f"""
                import sys
                sys.path[:0] = [{PYTHON_DIR!r}]
                import torch
                from msdump_record import Recorder
                rec = Recorder({cap!r}, "L1", rank=0)
                rec.start()
                torch.add(torch.ones(2), 1)
            """)
            p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stderr, "")
            names = [e["name"] for e in trace_lines(cap)[1:] if e["kind"] == "data"]
            self.assertEqual(names, ["Torch.add.0.forward"] * 2)

    def test_second_recorder_takes_over_idle_wrappers(self):
        before = self.hook_state(test_model.fresh_model())[1]
        with tempfile.TemporaryDirectory() as tmp:
            a = Recorder(os.path.join(tmp, "a"), "L1", rank=0)
            b = Recorder(os.path.join(tmp, "b"), "L1", rank=0)
            a.start()
            with self.assertRaises(RuntimeError):
                b.start()        # a is recording
            a.stop()
            b.start()            # a is idle: its wrappers come off, b's go on
            torch.matmul(torch.ones(2, 2), torch.ones(2, 2))
            b.stop()
            a.close()            # leaves b's wrappers alone
            self.assertIsNot(torch.matmul, before[1])
            b.close()
            self.assertEqual(self.hook_state(test_model.fresh_model())[1], before)
            names = [e["name"] for e in trace_lines(os.path.join(tmp, "b"))[1:] if e["kind"] == "data"]
            self.assertEqual(names, ["Torch.matmul.0.forward"] * 2)

    @unittest.skipUnless(hasattr(os, "fork"), "needs fork")
    def test_forked_child_records_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "L1", rank=0)
            rec.start()
            pid = os.fork()
            if pid == 0:     # a DataLoader worker forked while recording
                ok = not rec.running and torch.equal(torch.add(torch.ones(2), 1), torch.full((2,), 2.0))
                os._exit(0 if ok else 1)
            _, status = os.waitpid(pid, 0)
            self.assertEqual(os.waitstatus_to_exitcode(status), 0)
            self.assertTrue(rec.running)
            rec.stop()
            rec.close()

    def test_wrappers_installed_at_creation(self):
        """As msprobe's PrecisionDebugger(): a name bound after the debugger is made but before
        start() is the wrapper, and its calls are recorded."""
        original = torch.matmul
        with tempfile.TemporaryDirectory() as tmp:
            config = os.path.join(tmp, "config.json")
            with open(config, "w", encoding="utf-8") as f:
                json.dump({"dump_path": tmp, "level": "L1", "step": [1]}, f)
            debugger = PrecisionDebugger(config_path=config)
            from torch import matmul as bound_early
            self.assertIsNot(bound_early, original)
            a = torch.ones(2, 2)
            for _ in range(2):            # step 0 is not dumped, step 1 is
                debugger.start(rank_id=0)
                bound_early(a, a)
                debugger.stop()
                debugger.step()
            debugger.recorder.close()
            self.assertIs(torch.matmul, original)
            self.assertFalse(os.path.exists(os.path.join(tmp, "step0")))
            names = [e["name"] for e in trace_lines(tmp, step=1)[1:] if e["kind"] == "data"]
            self.assertEqual(names, ["Torch.matmul.0.forward"] * 2)
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "L0", rank=0)   # L0 wraps no API
            self.assertIs(torch.matmul, original)
            rec.close()


def trace_lines_after_sync(rec, capture):
    rec.writer.sync()
    return trace_lines(capture)


class Exceptions(unittest.TestCase):
    def test_exception_reraised_unchanged_and_recording_goes_on(self):
        a, b = torch.ones(2, 3), torch.ones(4, 5)
        try:
            torch.matmul(a, b)
        except RuntimeError as e:
            plain = (type(e), str(e))
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "L1", rank=0)
            rec.start()
            with self.assertRaises(RuntimeError) as ctx:
                torch.matmul(a, b)
            self.assertEqual((type(ctx.exception), str(ctx.exception)), plain)
            torch.matmul(a, torch.ones(3, 2))  # recording goes on (msprobe's counter did not move)
            torch.add(a, a)
            rec.stop()
            rec.close()
            names = [(e["name"], sorted(k for k in e if k not in ("kind", "name")))
                     for e in trace_lines(tmp)[1:] if e["kind"] == "data"]
        inputs, output = ["input_args", "input_kwargs"], ["output"]
        self.assertEqual(names, [("Torch.matmul.0.forward", inputs), ("Torch.matmul.0.forward", inputs),
                                 ("Torch.matmul.0.forward", output), ("Torch.add.0.forward", inputs),
                                 ("Torch.add.0.forward", output)])


class Values(unittest.TestCase):
    """Non-tensor leaves and structures as msprobe writes them (docs/format.md §4.3, §5.3)."""

    def record_call(self, fn):
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "L1", rank=0)
            rec.start()
            fn()
            rec.stop()
            rec.close()
            return [e for e in trace_lines(tmp)[1:] if e["kind"] == "data"]

    def test_leaves(self):
        x = torch.zeros(2, 3)
        events = self.record_call(lambda: (x[0:1, ...], x.to(torch.float64), torch.full((2,), 3, dtype=torch.int8, device="cpu"),
                                           x.reshape(torch.Size([3, 2])), torch.topk(x, 1)))
        by_name = {}
        for e in events:
            by_name.setdefault(e["name"], {}).update(e)
        getitem = [e for n, e in by_name.items() if n.startswith("Tensor.__getitem__")]
        self.assertEqual(getitem, [])  # __getitem__ is not in msprobe's set
        to = by_name["Tensor.to.0.forward"]["input_args"]
        self.assertEqual(to[1], {})     # a positional dtype is {}
        full = by_name["Torch.full.0.forward"]
        self.assertEqual(full["input_kwargs"], {"dtype": {"type": "torch.dtype", "value": "torch.int8"},
                                                "device": {"type": "torch.device", "value": "cpu"}})
        self.assertEqual(full["input_args"], [[{"type": "int", "value": 2}], {"type": "int", "value": 3}])
        self.assertEqual(by_name["Tensor.reshape.0.forward"]["input_args"][1],
                         {"type": "torch.Size", "value": [3, 2]})
        topk = by_name["Torch.topk.0.forward"]["output"]   # a torch.return_types structseq: a list
        self.assertEqual([o["dtype"] for o in topk], ["torch.float32", "torch.int64"])

    def test_slice_and_ellipsis(self):
        x = torch.zeros(4)
        events = self.record_call(lambda: x.__setitem__((slice(0, 2, None), Ellipsis), 1.0))
        args = events[0]["input_args"]
        self.assertEqual(args[1], [{"type": "slice", "value": [0, 2, None]}, {"type": "ellipsis", "value": "..."}])
        self.assertEqual(args[2], {"type": "float", "value": 1.0})
        self.assertEqual(events[1]["output"], [None])


class BlobOrder(unittest.TestCase):
    """Hooks may run on several autograd threads at once: every source offset still points at
    its own tensor's bytes."""

    def test_concurrent_adds_keep_offsets_and_bytes_together(self):
        import threading
        from msdump_record.values import BufferPool, TensorSink
        from msdump_record.writer import BlobWriter
        with tempfile.TemporaryDirectory() as tmp:
            writer = BlobWriter(8 << 20)
            sink = TensorSink(writer, "blob.bin", BufferPool(8 << 20))
            writer.open(os.path.join(tmp, "trace.jsonl"), os.path.join(tmp, "blob.bin"))
            results = [[] for _ in range(4)]

            def produce(k):
                g = torch.Generator().manual_seed(k)
                for i in range(200):
                    n = 1 + (i * 7919 + k) % 40000   # small clones and pooled buffers alike
                    t = torch.randint(-1000, 1000, (n,), generator=g, dtype=torch.int32)
                    results[k].append((sink.add(t), t.clone()))

            threads = [threading.Thread(target=produce, args=(k,)) for k in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            writer.sync()
            writer.close_files()
            writer.sync()
            with open(os.path.join(tmp, "blob.bin"), "rb") as f:
                blob = f.read()
            total = 0
            for per_thread in results:
                for source, t in per_thread:
                    nbytes = t.numel() * 4
                    got = blob[source["offset"]:source["offset"] + nbytes]
                    self.assertEqual(got, t.numpy().tobytes(), source)
                    total += nbytes
            self.assertEqual(len(blob), total)


class CopyReuse(unittest.TestCase):
    """A tensor recorded again unchanged in one phase reuses its first copy; any change in
    between, tracked or not, gives a fresh copy of the new values (the statistics msprobe would
    compute from the live tensor)."""

    def record(self, fn, level="L1", model=None):
        """(blob offset per (entry, leaf path), the converted dump's data) of fn() recorded."""
        with tempfile.TemporaryDirectory() as tmp:
            cap, out = os.path.join(tmp, "cap"), os.path.join(tmp, "out")
            rec = Recorder(cap, level, rank=0)
            rec.start(model)
            fn()
            rec.stop()
            rec.close()
            sources = {(e["name"], key): leaf["source"]["offset"]
                       for e in trace_lines(cap)[1:] if e["kind"] == "data"
                       for key, leaf in _tensor_leaves(e)}
            r = run("-q", "convert", cap, "-o", out, "--task", "statistics", "--risk-level", "ALL")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(out, "step0", "rank0", "dump.json"), encoding="utf-8") as f:
                return sources, json.load(f)["data"]

    def test_unchanged_repeat_shares_the_copy(self):
        a = torch.ones(64, 64, requires_grad=True)

        def fn():
            y = torch.exp(a)
            torch.sin(y)
        sources, data = self.record(fn)
        self.assertEqual(sources[("Torch.exp.0.forward", "output.0")],
                         sources[("Torch.sin.0.forward", "input_args.0")])
        self.assertEqual(data["Torch.exp.0.forward"]["output"][0]["Max"],
                         data["Torch.sin.0.forward"]["input_args"][0]["Max"])

    def test_module_boundaries_share_copies(self):
        # mix: a module's output, the next module's input (a clone made for the backward hook)
        # and that module's first API input are one copy
        net = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU())
        x = torch.randn(4, 8, requires_grad=True)
        sources, _ = self.record(lambda: net(x).sum().backward(), "mix", net)
        linear_out = sources[("Module.0.Linear.forward.0", "output.0")]
        self.assertEqual(sources[("Functional.linear.0.forward", "output.0")], linear_out)
        self.assertEqual(sources[("Module.1.ReLU.forward.0", "input_args.0")], linear_out)
        self.assertEqual(sources[("Functional.relu.0.forward", "input_args.0")], linear_out)

    def test_changes_in_between_give_fresh_copies(self):
        a = torch.ones(64, 64, requires_grad=True)
        p = torch.nn.Parameter(torch.ones(8))
        grads = []

        def fn():
            y = torch.exp(a)
            torch.sin(y)                 # 0: y as recorded
            with torch.no_grad():
                y.add_(1)                # tracked: version bump
            torch.sin(y)                 # 1: y + 1
            y.data.mul_(2)               # .data: no version bump, an in-place call of the set
            torch.sin(y)                 # 2: (y + 1) * 2
            (p * 3).sum().backward()
            p.grad.numpy()[:] = 7        # after backward, untracked: no hook sees it
            torch.cos(p.grad)            # forward phase again: p.grad re-copied
        sources, data = self.record(fn)
        e = float(torch.exp(torch.tensor(1.0)))
        maxes = [data[f"Torch.sin.{i}.forward"]["input_args"][0]["Max"] for i in range(3)]
        self.assertAlmostEqual(maxes[0], e, places=5)
        self.assertAlmostEqual(maxes[1], e + 1, places=5)
        self.assertAlmostEqual(maxes[2], 2 * (e + 1), places=5)
        self.assertEqual(len({sources[(f"Torch.sin.{i}.forward", "input_args.0")] for i in range(3)}), 3)
        self.assertEqual(data["Torch.cos.0.forward"]["input_args"][0]["Max"], 7.0)
        # numpy() returns an ndarray: its leaf carries numpy's statistics, no bytes
        array = data["Tensor.numpy.0.forward"]["output"][0]
        self.assertEqual((array["type"], array["Max"]), ("numpy.ndarray", 3.0))
        self.assertAlmostEqual(array["Norm"], 3 * 8 ** 0.5, places=5)

    def test_tensors_without_storage(self):
        # sparse and meta results of graph ops: neither copied nor looked up
        i, v = torch.tensor([[0, 1], [1, 0]]), torch.tensor([1.0, 2.0], requires_grad=True)

        def fn():
            torch.sparse_coo_tensor(i, v, (2, 2)) * 2
            torch.empty(3, device="meta", requires_grad=True) * 2
        _, data = self.record(fn)
        self.assertEqual(data["Tensor.__mul__.1.forward"]["output"][0]["Max"], None)

    def test_buffers_are_copied_every_time(self):
        bn = torch.nn.BatchNorm1d(4)     # running statistics: updated in place by the kernel
        x = torch.randn(16, 4) + 5

        def fn():
            bn(x)
            bn(x)
        _, data = self.record(fn)
        first = data["Functional.batch_norm.0.forward"]["input_args"][1]
        second = data["Functional.batch_norm.1.forward"]["input_args"][1]
        self.assertEqual(first["Max"], 0.0)
        self.assertGreater(second["Max"], 0.0)


def _tensor_leaves(event, prefix=""):
    for key in ("input_args", "input_kwargs", "output", "input"):
        if key in event:
            yield from _leaves(event[key], key)


def _leaves(value, path):
    if isinstance(value, dict):
        if "source" in value and value["source"] is not None:
            yield path, value
            return
        for k, v in value.items():
            yield from _leaves(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}.{i}")


class Distributed(unittest.TestCase):
    """torch.distributed (gloo, two ranks): msprobe's Distributed family rules, converted and
    verified."""

    def test_two_ranks(self):
        worker = os.path.join(HERE, "run_distributed_worker.py")
        with tempfile.TemporaryDirectory() as tmp:
            cap, out = os.path.join(tmp, "cap"), os.path.join(tmp, "out")
            env = dict(os.environ, GLOO_SOCKET_IFNAME="lo")   # loopback, whatever the host name resolves to
            procs = [subprocess.Popen([sys.executable, worker, cap, os.path.join(tmp, "init"), str(r), "2"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
                     for r in range(2)]
            for p in procs:
                self.assertEqual(p.wait(timeout=120), 0, p.stdout.read())
            self.assertEqual(sorted(os.listdir(os.path.join(cap, "step0"))), ["rank0", "rank1"])
            r = run("-q", "convert", cap, "-o", out, "--task", "statistics")
            self.assertEqual(r.returncode, 0, r.stderr)
            v = run("verify", out)
            self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
            dumps = []
            for rank in range(2):
                with open(os.path.join(out, "step0", f"rank{rank}", "dump.json"), encoding="utf-8") as f:
                    dumps.append(json.load(f)["data"])
        r0, r1 = dumps
        # the output is the arguments after the op
        self.assertEqual(r0["Distributed.all_reduce.0.forward"]["input_args"][0]["Max"], 1.0)
        self.assertEqual(r0["Distributed.all_reduce.0.forward"]["output"][0]["Max"], 3.0)
        # async: the output recorded again once wait() returned
        self.assertEqual(r0["Distributed.all_reduce.1.forward"]["output"][0]["Max"], 2.0)
        self.assertEqual(r0["Distributed.all_reduce.1.forward"]["input_kwargs"]["op"]["type"],
                         "torch.distributed.ReduceOp")
        # ignore rules: receive buffers among the inputs, isend's tensor among the outputs
        gather = r1["Distributed.all_gather.0.forward"]
        self.assertIsNone(gather["input_args"][0])
        self.assertEqual([t["Max"] for t in gather["output"][0]], [10.0, 11.0])
        self.assertIsNone(r1["Distributed.irecv.0.forward"]["input_args"][0])
        self.assertEqual(r1["Distributed.irecv.0.forward"]["output"][0]["Max"], 42.0)
        self.assertIsNone(r0["Distributed.isend.0.forward"]["output"][0])
        self.assertEqual(r0["Distributed.isend.0.forward"]["input_args"][0]["Max"], 42.0)
        self.assertIsNone(r0["Distributed.gather.0.forward"]["input_args"][1])
        group = r0["Distributed.broadcast.0.forward"]["input_kwargs"]["group"]
        self.assertEqual(group, {"type": "torch.ProcessGroup", "group_ranks": [0, 1],
                                 "group_id": f"{zlib.crc32(b'[0, 1]'):08x}"})
        ops = r1["Distributed.batch_isend_irecv.0.forward"]["output"][0]
        self.assertEqual([o["class_type"] for o in ops], ["torch.distributed.P2POp"] * 2)
        self.assertEqual([o["op"] for o in ops], ["isend", "irecv"])
        self.assertEqual(ops[1]["tensor"]["Max"], 100.0)     # received from rank 0, after wait
        self.assertEqual((ops[0]["peer"], ops[0]["tag"]), (0, 0))


class RawWrites(unittest.TestCase):
    """The writer's writev by address: every byte in order, short writes resumed."""

    def test_spans_written_in_order(self):
        from msdump_record import rawio
        raw = rawio.load()
        self.assertIsNotNone(raw)
        tensors = [torch.arange(n, dtype=torch.int16) for n in (0, 1, 1000, 70000)] * 300
        expected = b"".join(t.numpy().tobytes() for t in tensors)
        with tempfile.TemporaryFile() as f:
            raw.write(f.fileno(), [(t.data_ptr(), t.numel() * 2) for t in tensors])
            f.seek(0)
            self.assertEqual(f.read(), expected)

    def test_short_write_resumes_mid_span(self):
        from msdump_record import rawio
        spans = [(1000, 10), (5000, 20), (9000, 5)]
        self.assertEqual(rawio._advance(spans, 0), spans)
        self.assertEqual(rawio._advance(spans, 10), spans[1:])
        self.assertEqual(rawio._advance(spans, 13), [(5003, 17), (9000, 5)])
        self.assertEqual(rawio._advance(spans, 35), [])


class ModelZoo(unittest.TestCase):
    """zoo.py's models at L0, L1 and mix: the weights after two recorded steps equal a plain
    run's bit for bit, and the capture converts and verifies clean."""

    def test_zoo(self):
        for cls in zoo.MODELS:
            torch.manual_seed(0)
            x = cls.make_input()
            init = cls().state_dict()
            plain = cls()
            plain.load_state_dict(init)
            expected = zoo.train(plain, x)
            for level in ("L0", "L1", "mix"):
                with self.subTest(model=cls.__name__, level=level), tempfile.TemporaryDirectory() as tmp:
                    model = cls()
                    model.load_state_dict(init)
                    rec = Recorder(os.path.join(tmp, "cap"), level, rank=0)
                    try:
                        got = zoo.train(model, x, rec=rec)
                    finally:
                        rec.close()
                    for name, value in expected.items():
                        self.assertTrue(torch.equal(value, got[name]), name)
                    v = convert_and_verify(self, os.path.join(tmp, "cap"), os.path.join(tmp, "out"))
                    self.assertIn("total: 2 dumps, 0 errors, 0 warnings", v.stdout)


class ScriptedBlock(torch.nn.Module):
    def forward(self, x):
        return F.relu(torch.matmul(x, x)) + x.sum()


class TorchScript(unittest.TestCase):
    """torch.jit.script compiles with the originals in place (as msprobe's wrapper of it does)
    and what the compiled code calls is not recorded; torch.jit.trace runs the Python code, is
    recorded, and the recorder's own work stays out of the traced graph."""

    def test_script_while_open_and_recording(self):
        x = torch.ones(2, 2)
        expected = ScriptedBlock()(x)
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "L1", rank=0)
            wrapper = torch.matmul
            idle = torch.jit.script(ScriptedBlock())
            rec.start()
            running = torch.jit.script(ScriptedBlock())
            self.assertIs(torch.matmul, wrapper)            # the wrappers are back
            outs = (idle(x), running(x))
            torch.add(x, 1)
            rec.stop()
            rec.close()
            for out in outs:
                self.assertTrue(torch.equal(out, expected))
            names = [e["name"] for e in trace_lines(tmp)[1:] if e["kind"] == "data"]
            self.assertEqual(names, ["Torch.add.0.forward"] * 2)

    def test_script_on_two_threads_nested_and_after_close(self):
        """The originals stay on until the last compiling thread is done (each thread's own
        nesting counted apart), and a torch.jit.script kept past close() leaves them on."""
        with tempfile.TemporaryDirectory() as tmp:
            rec = Recorder(tmp, "L1", rank=0)
            wrapper = torch.matmul
            inside = threading.Barrier(2, timeout=30)
            a_done = threading.Event()
            seen = {}

            def fake_compile(name):
                if name == "a":
                    script("a.inner")       # nested, as torch.jit.script is for a module's calls
                    seen["a after inner"] = torch.matmul
                if name in ("a", "b"):
                    inside.wait()           # both threads compile at once
                if name == "b":
                    a_done.wait(30)         # b still compiles after a has finished
                seen[name] = torch.matmul
                return name

            script = rec._apis._script_with_originals(fake_compile)
            errors = []

            def compile_on_thread(name):
                try:
                    script(name)
                    if name == "a":
                        a_done.set()
                except Exception as e:  # noqa: BLE001
                    errors.append(e)
            threads = [threading.Thread(target=compile_on_thread, args=(n,)) for n in ("a", "b")]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(errors, [])
            for name in ("a.inner", "a after inner", "a", "b"):
                self.assertIsNot(seen[name], wrapper, name)
            self.assertIs(torch.matmul, wrapper)   # the wrappers are back after the last one
            kept = torch.jit.script
            rec.close()
            original = torch.matmul
            self.assertIsNot(original, wrapper)
            kept(ScriptedBlock())
            self.assertIs(torch.matmul, original)  # not put back by a kept script wrapper

    def test_trace_while_recording_converts(self):
        x = torch.ones(2, 2)
        plain_ops = [n.kind() for n in torch.jit.trace(ScriptedBlock(), x).graph.nodes()]
        with tempfile.TemporaryDirectory() as tmp:
            cap = os.path.join(tmp, "cap")
            rec = Recorder(cap, "L1", rank=0)
            rec.start()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                traced = torch.jit.trace(ScriptedBlock(), x, check_trace=False)
            rec.stop()
            rec.close()
            # the recorder's own size reads and copies run untraced: no TracerWarning from it
            self.assertEqual([str(w.message) for w in caught if "msdump_record" in w.filename], [])
            self.assertEqual([n.kind() for n in traced.graph.nodes()], plain_ops)
            events = [e for e in trace_lines(cap)[1:] if e["kind"] == "data"]
            self.assertEqual([e["name"] for e in events][:2], ["Torch.matmul.0.forward"] * 2)
            self.assertEqual(events[0]["input_args"][0]["shape"], [2, 2])
            r = run("-q", "convert", cap, "-o", os.path.join(tmp, "out"))
            self.assertEqual(r.returncode, 0, r.stderr)


class Capture(unittest.TestCase):
    def convert_and_verify(self, capture, out, *flags):
        return convert_and_verify(self, capture, out, *flags)

    def test_unseen_model_records_converts_and_verifies(self):
        with tempfile.TemporaryDirectory() as tmp:
            cap = os.path.join(tmp, "cap")
            rec = Recorder(cap, "mix", rank=0)
            test_model.train(test_model.fresh_model(), test_model.make_batches(2), rec)
            rec.close()
            for risk in ("FOCUS", "ALL", "CORE"):
                out = os.path.join(tmp, f"out_{risk}")
                self.convert_and_verify(cap, out, "--risk-level", risk)
            out = os.path.join(tmp, "out_tensor")
            self.convert_and_verify(cap, out, "--task", "tensor")
            with open(os.path.join(tmp, "out_FOCUS", "step1", "rank0", "dump.json"), encoding="utf-8") as f:
                data = json.load(f)["data"]
            with open(os.path.join(tmp, "out_ALL", "step1", "rank0", "construct.json"), encoding="utf-8") as f:
                construct_all = json.load(f)
            with open(os.path.join(tmp, "out_FOCUS", "step1", "rank0", "construct.json"), encoding="utf-8") as f:
                construct_focus = json.load(f)
        names = list(data)
        # what the model does, as msprobe names it
        for name in ("Module.norm.LayerNorm.forward.1", "Module.attn.Attention.forward.0",
                     "Functional.embedding.0.forward", "Tensor.masked_fill.0.forward",
                     "Functional.dropout.0.forward", "Tensor.mul_.0.forward",
                     "Module.bf16.Linear.parameters_grad.0", "Functional.cross_entropy.0.backward",
                     "Tensor.argmax.0.forward", "Torch.log.0.forward"):
            self.assertIn(name, names)
        self.assertNotIn("Functional.dropout.0.backward", names)         # p == 0: no backward hook
        self.assertNotIn("Tensor.chunk.0.forward", names)                 # LOW risk under FOCUS
        self.assertIn("Tensor.chunk.0.forward", construct_focus)          # but its edge stays
        self.assertEqual(construct_all, construct_focus)
        self.assertEqual(data["Module.attn.Attention.forward.0"]["input_kwargs"], {})  # torch < 2
        out = data["Module.attn.Attention.forward.0"]["output"]
        self.assertEqual([o["shape"] for o in out], [[2, 6, 16], [2, 6, 6]])
        bf = data["Module.bf16.Linear.forward.0"]["output"][0]
        self.assertEqual(bf["dtype"], "torch.bfloat16")
        masked = data["Tensor.masked_fill.0.forward"]["output"][0]
        self.assertEqual(masked["Min"], float("-inf"))
        nan = data["Torch.log.0.forward"]["output"][0]
        self.assertTrue(nan["Max"] != nan["Max"])                       # NaN
        loss = data["Functional.cross_entropy.0.forward"]["output"][0]
        self.assertEqual(loss["shape"], [])
        top = data["Tensor.argmax.0.forward"]["output"][0]
        self.assertEqual(top["dtype"], "torch.int64")

    def test_crash_mid_step_leaves_a_convertible_capture(self):
        for how in ("exit", "kill", "raise"):
            with tempfile.TemporaryDirectory() as tmp:
                cap = os.path.join(tmp, "cap")
                script = textwrap.dedent(f"""
                    import os, signal, sys, time
                    sys.path[:0] = [{PYTHON_DIR!r}, {HERE!r}]
                    import torch, test_model
                    from msdump_record import Recorder
                    model = test_model.fresh_model()
                    rec = Recorder({cap!r}, "mix", rank=0)
                    rec.start(model)
                    tokens = test_model.make_batches(1)[0][0]
                    def die(module, args, output):
                        time.sleep(0.5)  # the writer puts events older than 50 ms on disk
                        if {how!r} == "exit": os._exit(3)
                        if {how!r} == "kill": os.kill(os.getpid(), signal.SIGKILL)
                        raise RuntimeError("training crashed")
                    model.attn.out.register_forward_hook(die)
                    model(tokens)
                """)
                p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
                self.assertNotEqual(p.returncode, 0)
                out = os.path.join(tmp, "out")
                r = run("convert", cap, "-o", out)
                self.assertIn(r.returncode, (0, 1), r.stderr)
                if r.returncode == 1:  # only a line cut off by the crash may be lost
                    self.assertIn("truncated", r.stderr)
                self.assertTrue(os.path.exists(os.path.join(out, "step0", "rank0", "dump.json")), how)
                # the calls cut by the crash have their inputs but never reached the update point
                # that writes their construct.json edge: only that may be reported
                v = run("verify", out, "--warn-only", "construct")
                self.assertEqual(v.returncode, 0, how + v.stdout + v.stderr)
                with open(os.path.join(out, "step0", "rank0", "dump.json"), encoding="utf-8") as f:
                    self.assertIn("Module.embed.Embedding.forward.0", json.load(f)["data"])


class LogOfNegative(torch.nn.Module):
    """log(-|x| - 1): every output NaN from finite inputs; with poison=False log(|x| + 1)."""

    def __init__(self, poison):
        super().__init__()
        self.poison = poison

    def forward(self, x):
        return torch.log(-x.abs() - 1) if self.poison else torch.log(x.abs() + 1)


class NanNet(torch.nn.Module):
    def __init__(self, poison):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.act = LogOfNegative(poison)
        self.fc2 = torch.nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class EndToEnd(unittest.TestCase):
    """Record, convert, verify clean, and `msdump anomalies` names where the NaN starts."""

    def anomalies(self, level, poison):
        torch.manual_seed(0)
        model = NanNet(poison)
        x, y = torch.randn(3, 4), torch.randn(3, 2)
        with tempfile.TemporaryDirectory() as tmp:
            cap, out = os.path.join(tmp, "cap"), os.path.join(tmp, "out")
            rec = Recorder(cap, level, rank=0)
            rec.start(model)
            F.mse_loss(model(x), y).backward()
            rec.stop()
            rec.step()
            rec.close()
            r = run("-q", "convert", cap, "-o", out, "--risk-level", "ALL")
            self.assertEqual(r.returncode, 0, r.stderr)
            v = run("verify", out)
            self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
            a = run("anomalies", out, "--report", "json")
        self.assertIn(a.returncode, (0, 1), a.stderr)
        report = json.loads(a.stdout)
        self.assertEqual(a.returncode, 1 if report["summary"]["origins"] else 0)
        return report["anomalies"]

    def origins(self, anomalies, direction):
        return [(a["entry"], a["kind"], a["module"]) for a in anomalies
                if a["role"] == "origin" and a["direction"] == direction]

    def test_nan_origin_named_at_every_level(self):
        act = "Module.act.LogOfNegative.forward.0"
        expected = {"L1": ("Torch.log.0.forward", "nan", None),
                    "mix": ("Torch.log.0.forward", "nan", act),   # the module folds into its call
                    "L0": (act, "nan", act)}
        for level, origin in expected.items():
            found = self.anomalies(level, poison=True)
            self.assertEqual(self.origins(found, "forward"), [origin], level)
            first = next(a for a in found if a["entry"] == origin[0])
            self.assertGreaterEqual(first["downstream"], 1, level)   # fc2 carries the NaN on
            if level != "L0":
                # backward: the loss gets a finite gradient and hands a NaN one to the model
                self.assertEqual(self.origins(found, "backward"),
                                 [("Functional.mse_loss.0.backward", "nan", None)], level)

    def test_clean_model_has_no_anomalies(self):
        for level in ("L0", "L1", "mix"):
            self.assertEqual(self.anomalies(level, poison=False), [], level)


if __name__ == "__main__":
    MSDUMP = os.path.abspath(sys.argv.pop(1))
    unittest.main()
