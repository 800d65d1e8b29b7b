"""API wrapping (levels L1 and mix): every API of the set, by the Python name the caller used."""
import functools
import threading

import torch

from . import distributed
from .apis import DROPOUT_APIS, wrap_targets
from .state import thread_state
from .values import output_value, to_value


def _first_tensor(value):
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, (list, tuple)):
        return _first_tensor(value[0]) if value else None
    if isinstance(value, dict):
        for v in value.values():
            if isinstance(v, torch.Tensor):
                return v
    return None


# dunder methods that write into self (the rest of the in-place set ends in "_")
_INPLACE_DUNDERS = {"__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__",
                    "__ifloordiv__", "__imod__", "__ipow__", "__iand__", "__ior__", "__ixor__",
                    "__ilshift__", "__irshift__", "__imatmul__", "__idiv__"}


def writes_in_place(attr):
    return attr in _INPLACE_DUNDERS or (attr.endswith("_") and not attr.startswith("__"))


def _writes(kwargs):
    return kwargs.get("out") is not None or kwargs.get("inplace") is True


def _dropout_p(args, kwargs):
    return args[1] if len(args) > 1 else kwargs.get("p", 0.5)


_installed = []   # the ApiHooks whose wrappers are on the namespaces (at most one)


def _take_over(hooks):
    """Makes way for `hooks`: another recorder's idle wrappers come off; a recording one stays
    and this is an error (msprobe's debugger is one per process)."""
    for other in list(_installed):
        if other is not hooks:
            if other.rec.running:
                raise RuntimeError("msdump_record: another Recorder is recording; stop() it first")
            other.uninstall()


class ApiHooks:
    """The wrappers, built once; install() puts them on the namespace objects, uninstall() puts
    the originals back. One recorder's wrappers are installed at a time."""

    def __init__(self, rec):
        self.rec = rec
        _take_over(self)   # the originals are read below: no other recorder's wrappers in place
        self.targets = []
        made = {}   # one wrapper per (key, original): an API on two namespaces stays one object
        for prefix, key, owner, attr, orig in wrap_targets():
            own_attr = attr in getattr(owner, "__dict__", {})
            wrapper = made.get((key, id(orig)))
            if wrapper is None:
                dropout = attr in DROPOUT_APIS and prefix in ("Functional", "Torch")
                dist = attr if prefix == distributed.PREFIX else None
                wrapper = made[(key, id(orig))] = self._wrapper(key, orig, dropout,
                                                               writes_in_place(attr), dist)
            self.targets.append((owner, attr, orig, own_attr, wrapper))
        self.waits = distributed.WaitHook()
        self.installed = False
        self._script_lock = threading.Lock()   # guards the two below and the swaps they decide
        self._compiling = 0                    # threads inside an outermost torch.jit.script

    def install(self):
        if not self.installed:
            _take_over(self)
            with self._script_lock:
                if self._compiling == 0:   # (else the last compiling thread puts them on)
                    self._put_wrappers()
                self.installed = True
            self.waits.install()
            self._script = torch.jit.script
            torch.jit.script = self._script_with_originals(self._script)
            _installed.append(self)

    def uninstall(self):
        if self.installed:
            torch.jit.script = self._script
            self.waits.uninstall()
            with self._script_lock:
                if self._compiling == 0:   # (else a compiling thread has put them back already)
                    self._put_originals()
                self.installed = False
            _installed.remove(self)

    def _put_wrappers(self):
        for owner, attr, _, _, wrapper in self.targets:
            setattr(owner, attr, wrapper)

    def _put_originals(self):
        for owner, attr, orig, own_attr, _ in reversed(self.targets):
            if own_attr:
                setattr(owner, attr, orig)
            else:
                delattr(owner, attr)

    def _script_with_originals(self, script):
        """torch.jit.script compiling with the original APIs in place, as msprobe's
        wrap_jit_script_func does: TorchScript cannot compile a Python wrapper, and calls
        inside compiled code are not recorded.

        The originals go back process-wide, not for the compiling thread alone: the compiler
        looks each API up through its module attribute (torch.matmul, F.relu), which every
        thread shares, so what it finds cannot differ by thread. While any thread compiles,
        calls made on other threads therefore run the originals and are not recorded
        (compiling happens while a model is set up, rarely while it trains). `_compiling`
        counts the threads inside an outermost torch.jit.script, under `_script_lock`: the
        originals go on when the first starts, the wrappers come back when the last is done
        (if still installed; install() and uninstall() leave the swap to a compiling thread).
        torch.jit.script calls itself for what a module calls; that nesting is counted per
        thread (`local.depth`), so one thread's nested call never ends another's compile."""
        local = threading.local()

        def script_with_originals(*args, **kwargs):
            depth = getattr(local, "depth", 0)
            if depth == 0:
                with self._script_lock:
                    if self._compiling == 0 and self.installed:
                        self._put_originals()
                    self._compiling += 1
            local.depth = depth + 1
            try:
                return script(*args, **kwargs)
            finally:
                local.depth = depth
                if depth == 0:
                    with self._script_lock:
                        self._compiling -= 1
                        if self._compiling == 0 and self.installed:
                            self._put_wrappers()
        return functools.wraps(script)(script_with_originals)

    def _wrapper(self, key, orig, dropout, in_place, dist=None):
        rec = self.rec

        def wrapper(*args, **kwargs):
            ts = thread_state()
            if ts.inner or not rec.running:
                return orig(*args, **kwargs)
            if in_place or (kwargs and _writes(kwargs)):
                rec.sink.forget()   # through `.data` an in-place write bumps no version counter
            if ts.depth:
                ts.depth += 1
                try:
                    return orig(*args, **kwargs)
                finally:
                    ts.depth -= 1
            return self._call(ts, key, orig, dropout, dist, args, kwargs)
        try:
            return functools.wraps(orig)(wrapper)
        except AttributeError:
            return wrapper

    def _call(self, ts, key, orig, dropout, dist, args, kwargs):
        """One recorded call: its inputs, the original, its outputs; the counter advances after."""
        rec = self.rec
        st = rec.state
        n = st.api_counts.get(key, 0)
        name = f"{key}{n}.forward"
        ts.depth = 1
        try:
            ts.inner = True
            try:
                if dist is None:
                    rec.emit_inputs(name, {"input_args": to_value(args, rec.sink),
                                           "input_kwargs": to_value(kwargs, rec.sink)})
                else:
                    rec.emit_inputs(name, distributed.inputs(dist, args, kwargs, self._value))
            finally:
                ts.inner = False
            out = orig(*args, **kwargs)
            ts.inner = True
            try:
                if dist is None:
                    if not (dropout and _dropout_p(args, kwargs) == 0):
                        self._hook_backward(st, f"{key}{n}.backward", out)
                    rec.update_construct(name)
                    rec.emit_data(name, {"output": output_value(out, rec.sink)})
                else:
                    self._distributed_output(st, name, dist, args, kwargs, out)
            finally:
                ts.inner = False
            st.api_counts[key] = n + 1
            return out
        finally:
            ts.depth = 0

    def _value(self, v, key):
        return to_value(v, self.rec.sink, key, 1)

    def _distributed_output(self, st, name, api, args, kwargs, out):
        """A Distributed.* call's output (distributed.py): its arguments after the op, and again
        when an async op's Work.wait() returns; no backward."""
        rec = self.rec

        def collect_output():
            rec.update_construct(name)
            rec.emit_data(name, {"output": distributed.output(api, args, kwargs, self._value)})
        collect_output()
        if distributed.is_async(api, kwargs):
            for work in distributed.works(out):
                self.waits.watch(work, lambda: self._after_wait(st, collect_output))

    def _after_wait(self, st, collect_output):
        rec, ts = self.rec, thread_state()
        if not rec.running or st is not rec.state:
            return
        saved, ts.inner = ts.inner, True
        try:
            collect_output()
        finally:
            ts.inner = saved

    def _hook_backward(self, st, name, out):
        t = _first_tensor(out)
        if t is None or not torch.is_grad_enabled() or not t.requires_grad or t.grad_fn is None:
            return
        rec = self.rec

        def hook(grad_inputs, grad_outputs):
            if st is not rec.state:
                return None
            ts = thread_state()
            saved, ts.inner = ts.inner, True
            try:
                rec.update_construct(name)
                rec.emit_data(name, {"input": to_value(tuple(grad_outputs), rec.sink.grads),
                                     "output": to_value(tuple(grad_inputs), rec.sink.grads)})
            finally:
                ts.inner = saved
            return None
        t.grad_fn.register_hook(hook)
