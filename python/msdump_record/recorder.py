"""Recorder: msprobe's PrecisionDebugger start/stop/step, writing a capture instead of a dump."""
import atexit
import itertools
import os
import sys
import traceback
import weakref

import torch

from . import __version__, distributed
from .api_hooks import ApiHooks
from .module_hooks import ModuleHooks
from .stack import stack_event
from .state import StepState
from .values import BufferPool, TensorSink
from .writer import BlobWriter

LEVELS = ("L0", "L1", "mix")
BLOB_NAME = "blob.bin"


# The live recorders, in creation order, held weakly: a recorder nothing else refers to is
# freed (and leaves this registry) as any object is.
_RECORDERS = weakref.WeakValueDictionary()
_SERIALS = itertools.count()


def _disable_in_child():
    """A forked child (a DataLoader worker) records nothing: the writer thread stayed behind."""
    for rec in list(_RECORDERS.values()):
        rec.running = False
        rec._forked = True


def _close_all():
    """At exit: closes the recorders still alive, newest first (as one atexit handler each
    would), so every queued byte is written; one that fails does not stop the others."""
    for rec in reversed(list(_RECORDERS.values())):
        try:
            rec.close()
        except Exception:  # noqa: BLE001 (reported as atexit reports a failing handler)
            print("msdump_record: closing a Recorder at exit failed:", file=sys.stderr)
            traceback.print_exc()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_disable_in_child)
atexit.register(_close_all)   # once, holding no recorder (a bound method per recorder would)


class Recorder:
    """Records the hooked calls between start() and stop() into <dir>/step<N>/rank<R>/.

    As with msprobe, API wrappers (L1, mix) are installed when the recorder is created, module
    hooks (L0, mix) at the first start() of each model object; all stay in place and do nothing
    while not running; close() removes them.
    """

    def __init__(self, dump_dir, level="mix", rank=None, max_queue_bytes=256 << 20, init_step=0):
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.dir = os.fspath(dump_dir)
        self.level = level
        self.rank = rank
        self._rank_known = rank is not None
        self.loop = init_step
        self.running = False
        self.state = StepState()
        self.sink = None
        self._modules = []          # ModuleHooks of each hooked model, in hooking order
        self._apis = None
        self._forked = False
        self._hook_apis()   # before the script binds API names (`from torch import matmul`)
        self.writer = BlobWriter(max_queue_bytes)
        self._pool = BufferPool(max_queue_bytes)
        _RECORDERS[next(_SERIALS)] = self

    # ---- public API ----
    def start(self, model=None, rank_id=None):
        """rank_id: the rank, at the first start() of a recorder made with rank=None (as
        msprobe's start(model, rank_id); else the process group's, else proc<pid>)."""
        if self.running or self._forked:
            return
        if not self._rank_known:     # decided once, at the first start()
            self.rank = distributed.current_rank(rank_id)
            self._rank_known = True
        if self.sink is None:
            self._open_step()
        if self.level in ("L0", "mix") and model is not None:
            self._hook_model(model)
        self._hook_apis()
        self.running = True

    def stop(self):
        self.running = False
        self.writer.kick()

    def step(self):
        self.stop()
        if self._apis is not None:
            self._apis.waits.clear()   # async handles not waited for in their step
        for hooks in self._modules:
            hooks.calls.clear()        # forwards that never returned (an exception)
        if self.sink is not None:
            self.writer.close_files()
            self.sink = None
        self.state = StepState()
        self.loop += 1

    def close(self):
        """Ends the current step, removes the module hooks and API wrappers and waits until
        every queued byte is written. A later start() hooks again."""
        if self._forked:
            return
        if self.sink is not None or self.running:
            self.step()
        for hooks in self._modules:
            hooks.remove()
        self._modules = []
        if self._apis is not None:
            self._apis.uninstall()
            self._apis = None
        self.writer.sync()

    # ---- used by the hooks ----
    def emit_inputs(self, name, sections):
        """A forward's stack event and its inputs' data event, written together."""
        event = {"kind": "data", "name": name}
        event.update(sections)
        self.writer.line(stack_event(name), event)

    def emit_data(self, name, sections):
        event = {"kind": "data", "name": name}
        event.update(sections)
        self.writer.line(event)

    def update_construct(self, api_name):
        """One msprobe update_construct point: the API's edge, then new module edges."""
        if self.level == "L1":
            return
        st = self.state
        line = self.writer.line
        if api_name is not None and self.level == "mix":
            line({"kind": "construct", "name": api_name, "parent": st.api_parent})
        for name, parent in st.pending_nodes:
            line({"kind": "construct", "name": name, "parent": parent})
        st.pending_nodes.clear()

    # ---- internals ----
    def _hook_apis(self):
        if self.level in ("L1", "mix"):
            if self._apis is None:
                self._apis = ApiHooks(self)
            self._apis.install()

    def _hook_model(self, model):
        """Module hooks for a model object not hooked yet (msprobe: once per object)."""
        if not any(hooks.hooks(model) for hooks in self._modules):
            self._modules.append(ModuleHooks(self, model))

    def _open_step(self):
        rank_dir = f"rank{self.rank}" if self.rank is not None else f"proc{os.getpid()}"
        step_dir = os.path.join(self.dir, f"step{self.loop}", rank_dir)
        os.makedirs(step_dir, exist_ok=True)
        trace = os.path.join(step_dir, "trace.jsonl")
        blob = os.path.join(step_dir, BLOB_NAME)
        self.writer.open(trace, blob)
        self.writer.line(self._header())
        self.sink = TensorSink(self.writer, BLOB_NAME, self._pool)

    def _header(self):
        header = {"format": "msdump-trace", "version": 1, "framework": "pytorch",
                  "step": self.loop}
        if self.rank is not None:
            header["rank"] = self.rank
        header.update({"level": self.level, "risk_level": "ALL",
                       "recorder": {"name": "msdump_record", "version": __version__,
                                    "torch": torch.__version__}})
        return header
