"""msprobe's rules for the `Distributed.*` family (torch.distributed collectives and p2p).

- The `output` section is not the return value (None or a Work handle) but the call's
  arguments read after it: `args + kwargs.values()`, so it shows what the op wrote.
- Built-in ignore rules (msprobe's builtin_ignore_ops.yaml) write `null` instead of the receive
  buffers among the inputs, whose contents before the op are garbage, and instead of isend's
  tensor among the outputs; those bytes are never copied.
- Async ops (`async_op=True`, isend, irecv, batch_isend_irecv) record their output again, with a
  construct update, when `Work.wait()` returns: only then has the op written it.
"""
import zlib

import torch

PREFIX = "Distributed"     # its names: api_set.json's "distributed" namespace
ALWAYS_ASYNC = {"isend", "irecv", "batch_isend_irecv"}

# api -> (ignored input_args positions, ignored input_kwargs names, ignored output positions)
_RECEIVE_BUFFER_FIRST = ("recv", "all_gather", "scatter", "reduce_scatter", "_reduce_scatter_base",
                         "_all_gather_base", "all_to_all_single", "all_to_all",
                         "all_gather_into_tensor", "reduce_scatter_tensor")
IGNORED = {name: ({0}, set(), set()) for name in _RECEIVE_BUFFER_FIRST}
IGNORED["irecv"] = ({0}, {"tensor"}, set())
IGNORED["gather"] = ({1}, set(), set())
IGNORED["isend"] = (set(), set(), {0})
_NONE = (set(), set(), set())


def namespaces():
    """The objects the family is installed on: torch.distributed and distributed_c10d."""
    if not torch.distributed.is_available():
        return []
    from torch.distributed import distributed_c10d
    return [torch.distributed, distributed_c10d]


def inputs(api, args, kwargs, value):
    """input_args / input_kwargs with the ignored items null; value(x, key) records one item."""
    pos, names, _ = IGNORED.get(api, _NONE)
    return {"input_args": [None if i in pos else value(a, i) for i, a in enumerate(args)],
            "input_kwargs": {k: None if k in names else value(v, k) for k, v in kwargs.items()}}


def output(api, args, kwargs, value):
    """The output section: the arguments as they are after the op, ignored items null."""
    _, _, pos = IGNORED.get(api, _NONE)
    items = list(args) + list(kwargs.values())
    return [None if i in pos else value(a, i) for i, a in enumerate(items)]


def is_async(api, kwargs):
    return api in ALWAYS_ASYNC or kwargs.get("async_op") is True


def works(result):
    """The Work handles an async op returned (batch_isend_irecv: a list of them)."""
    if isinstance(result, (list, tuple)):
        return [w for w in result if hasattr(w, "wait")]
    return [result] if hasattr(result, "wait") else []


class WaitHook:
    """Patches Work.wait (the class attribute, as msprobe does) while recording: a watched
    handle's callback runs once its wait returns."""

    def __init__(self):
        self.pending = {}     # id(work) -> (work, callback); the work is kept until waited
        self.work_type = None
        self.orig = None

    def install(self):
        if self.orig is not None or not torch.distributed.is_available():
            return
        from torch.distributed import distributed_c10d
        self.work_type = getattr(distributed_c10d, "Work", None)
        if self.work_type is None:
            return
        self.orig = orig = self.work_type.wait
        pending = self.pending

        def wait(work, *args, **kwargs):
            result = orig(work, *args, **kwargs)
            entry = pending.pop(id(work), None)
            if entry is not None and entry[0] is work:
                entry[1]()
            return result
        self.work_type.wait = wait

    def uninstall(self):
        if self.orig is not None:
            self.work_type.wait = self.orig
            self.orig = None

    def watch(self, work, callback):
        self.pending[id(work)] = (work, callback)

    def clear(self):
        self.pending.clear()


def current_rank(rank_id=None):
    """msprobe's rank at the first start(): rank_id, else the global rank once
    torch.distributed is initialised, else None (the directory is then proc<pid>)."""
    if rank_id is not None:
        return rank_id
    dist = torch.distributed
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank()
    return None


def value_types():
    """The argument types msprobe writes specially: ProcessGroup, ReduceOp, P2POp."""
    if not torch.distributed.is_available():
        return ()
    dist = torch.distributed
    return tuple(t for t in (getattr(dist, "ProcessGroup", None), getattr(dist, "ReduceOp", None),
                             getattr(dist, "P2POp", None)) if isinstance(t, type))


def special_value(v, leaf):
    """A ProcessGroup, ReduceOp or P2POp as msprobe writes it; leaf(tensor) records a tensor."""
    dist = torch.distributed
    if isinstance(v, dist.ReduceOp):
        return {"type": "torch.distributed.ReduceOp", "value": str(v)}
    if isinstance(v, dist.P2POp):
        return {"class_type": "torch.distributed.P2POp", "tensor": leaf(v.tensor),
                "op": getattr(v.op, "__name__", str(v.op)), "peer": v.peer, "tag": v.tag,
                "group_id": _group_id(v.group)}
    return {"type": "torch.ProcessGroup", "group_ranks": _ranks(v), "group_id": _group_id(v)}


def _ranks(group):
    try:
        return list(torch.distributed.get_process_group_ranks(group))
    except (AttributeError, RuntimeError, KeyError, ValueError):
        return []


def _group_id(group):
    """crc32 of str(ranks) as 8 hex digits; the default group for None."""
    if group is None:
        try:
            group = torch.distributed.distributed_c10d._get_default_group()
        except (AttributeError, RuntimeError):
            return None
    return f"{zlib.crc32(str(_ranks(group)).encode()):08x}"
