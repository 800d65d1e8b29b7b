"""Python values -> capture values (dump.json leaves; tensor leaves carry a blob `source`).

Follows msprobe's recursive_apply_transform: tuples and lists become lists, dicts and
namedtuples objects, special types leaves, anything else null. Tensor bytes are copied here,
synchronously, so later in-place updates cannot change what was recorded.
"""
import dataclasses
import threading

import numpy as np
import torch

from . import distributed
from .reuse import BACKWARD, FORWARD, CopyCache

MAX_DEPTH = 400
_SPECIAL = (bool, int, float, str, slice, type(Ellipsis), np.generic, np.ndarray,
            torch.device, torch.dtype, torch.Size, torch.Tensor, torch.memory_format)
_DISTRIBUTED = distributed.value_types()


class BufferPool:
    """Host buffers of large tensors, reused once the writer has written them: a fresh buffer
    costs page faults on every use, which made the copy slower than the disk write. While
    IN_FLIGHT_BYTES of one size are out (queued, not yet written), a copy of that size waits
    for one of them to come back instead of faulting in new memory: the pool stops growing
    once the writer keeps up, and each size stays warm."""

    MIN_BYTES = 64 << 10
    IN_FLIGHT_BYTES = 32 << 20
    WAIT_SECONDS, MAX_WAITS = 0.05, 100   # then a fresh buffer after all (writer stuck)

    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.cached = 0
        self.free = {}
        self.out = {}       # nbytes -> bytes of that size handed out and not yet put back
        self.cond = threading.Condition()

    def get(self, nbytes, wake=None):
        """A uint8 buffer of nbytes; wake() lets the writer start before this waits."""
        if nbytes < self.MIN_BYTES:
            return torch.empty(nbytes, dtype=torch.uint8)
        waits = 0
        with self.cond:
            while True:
                bufs = self.free.get(nbytes)
                if bufs:
                    self.cached -= nbytes
                    buf = bufs.pop()
                    break
                if (wake is None or waits >= self.MAX_WAITS
                        or self.out.get(nbytes, 0) + nbytes <= max(self.IN_FLIGHT_BYTES, nbytes)):
                    buf = None
                    break
                self.cond.release()
                try:
                    wake()
                finally:
                    self.cond.acquire()
                self.cond.wait(self.WAIT_SECONDS)
                waits += 1
            self.out[nbytes] = self.out.get(nbytes, 0) + nbytes
        return torch.empty(nbytes, dtype=torch.uint8) if buf is None else buf

    def put(self, buf):
        n = buf.numel()
        if n >= self.MIN_BYTES and buf.dtype is torch.uint8:
            with self.cond:
                self.out[n] = self.out.get(n, 0) - n
                if self.cached + n <= self.max_bytes:
                    self.free.setdefault(n, []).append(buf)
                    self.cached += n
                self.cond.notify_all()


class TensorSink:
    """Reserves blob offsets and queues host copies; one per open trace. Forward hooks record
    through the sink itself, backward hooks through `sink.grads`."""

    phase = FORWARD

    def __init__(self, writer, blob_name, pool):
        self.writer = writer
        self.blob_name = blob_name
        self.offset = 0
        self.pool = pool
        self.copies = CopyCache()
        self.grads = _Backward(self)
        # Autograd may run hooks on more than one thread: an offset is reserved and its bytes
        # queued in one step, so the blob file's order is the order of the offsets.
        self._lock = threading.Lock()

    def add(self, tensor, phase=FORWARD):
        with self._lock:
            key, source = self.copies.lookup(tensor, phase)
        if source is not None:
            return source
        host = _host_copy(tensor, self.pool, self.writer.kick)
        if host is None:
            return None
        with self._lock:
            source = {"file": self.blob_name, "offset": self.offset}
            nbytes = host.numel() * host.element_size()
            self.offset += nbytes
            self.writer.blob(host, self.pool.put, nbytes)
            if key is not None:
                self.copies.remember(key, tensor, source)
        return source

    def leaf(self, t):
        """A tensor's capture leaf; its bytes queued for the blob file (or already there)."""
        tracing = _get_tracing_state()
        if tracing is not None:   # torch.jit.trace: sizes would be traced tensors, copies traced ops
            _set_tracing_state(None)
        try:
            return {"type": "torch.Tensor", "dtype": _dtype_name(t.dtype), "shape": list(t.shape),
                    "requires_grad": t.requires_grad, "source": self.add(t, self.phase)}
        finally:
            if tracing is not None:
                _set_tracing_state(tracing)

    def alias(self, original, copy):
        with self._lock:
            self.copies.alias(original, copy)

    def forget(self):
        """An in-place call may have changed any tensor: no copy is reused after it."""
        with self._lock:
            self.copies.forget()


class _Backward:
    """The sink as backward hooks use it."""

    phase = BACKWARD

    def __init__(self, sink):
        self.add = sink.add

    leaf = TensorSink.leaf


def _host_copy(tensor, pool, wake=None):
    """The tensor's logical contents as a C-contiguous host tensor (None if impossible); large
    ones in a pooled buffer (uint8), small ones a plain contiguous clone (one call)."""
    t = tensor.detach() if tensor.requires_grad else tensor   # copies are not in the graph
    if t.is_quantized or t.layout is not torch.strided or t.is_meta:
        return None
    nbytes = t.numel() * t.element_size()
    if nbytes < pool.MIN_BYTES and t.is_cpu:
        return _clone(t, memory_format=torch.contiguous_format)
    buf = pool.get(nbytes, wake)
    try:
        _copy(_view(_view(buf, t.dtype), t.shape), t)
    except RuntimeError:
        pool.put(buf)
        return None
    return buf


_get_tracing_state, _set_tracing_state = torch._C._get_tracing_state, torch._C._set_tracing_state

# the tensor methods the writer thread calls, unwrapped (the API wrappers would only pass them on)
_TensorBase = getattr(torch._C, "TensorBase", None) or torch._C._TensorBase
_reshape, _numpy, data_ptr = _TensorBase.reshape, _TensorBase.numpy, _TensorBase.data_ptr
_clone, _copy, _view = _TensorBase.clone, _TensorBase.copy_, _TensorBase.view


def host_bytes(buf):
    """A host copy's bytes, for the writer: a view of its memory, no copy."""
    if buf.dtype is not torch.uint8 or buf.dim() != 1:
        buf = _reshape(buf, (-1,)).view(torch.uint8)
    return memoryview(_numpy(buf))


_DTYPE_NAMES = {}


def _dtype_name(dtype):
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def _device_in_kwargs(v):
    if isinstance(v, (int, str)):
        return {"type": "torch.device", "value": v}
    if isinstance(v, torch.device):
        return {"type": "torch.device", "value": f"{v.type}:{v.index}"}
    return {"type": "torch.device"}


def _slice_bound(x):
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def _ndarray(a):
    leaf = {"type": "numpy.ndarray", "dtype": str(a.dtype), "shape": list(a.shape)}
    if a.size == 0 or a.dtype.kind in "USO":
        stats = [None] * 4
    else:
        stats = [np.max(a).item(), np.min(a).item(), np.mean(a).item(), np.linalg.norm(a).item()]
    leaf.update(zip(("Max", "Min", "Mean", "Norm"), stats))
    return leaf


def _special(v, key, sink):
    if isinstance(v, torch.Tensor):
        return sink.leaf(v)
    if key in ("dtype", "output_dtype"):
        return {"type": "torch.dtype", "value": str(v)}
    if key == "device":
        return _device_in_kwargs(v)
    if isinstance(v, (bool, int, float, str)):
        return {"type": type(v).__name__, "value": v}
    if isinstance(v, torch.Size):
        return {"type": "torch.Size", "value": [int(d) for d in v]}   # traced sizes are tensors
    if isinstance(v, slice):
        return {"type": "slice", "value": [_slice_bound(v.start), _slice_bound(v.stop),
                                           _slice_bound(v.step)]}
    if v is Ellipsis:
        return {"type": "ellipsis", "value": "..."}
    if isinstance(v, np.generic):
        return {"type": type(v).__name__, "value": v.item()}
    if isinstance(v, np.ndarray):
        return _ndarray(v)
    if isinstance(v, torch.memory_format):
        return {"type": "torch.memory_format", "format": str(v).split(".")[-1]}
    return {}  # torch.dtype / torch.device outside their keys


def to_value(v, sink, key=None, depth=0):
    if isinstance(v, _SPECIAL):
        return _special(v, key, sink)
    if depth >= MAX_DEPTH:
        return None
    if _DISTRIBUTED and isinstance(v, _DISTRIBUTED):
        return distributed.special_value(v, sink.leaf)
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return {f: to_value(x, sink, f, depth + 1) for f, x in zip(v._fields, v)}
    if isinstance(v, (list, tuple)):
        return [to_value(x, sink, i, depth + 1) for i, x in enumerate(v)]
    if isinstance(v, dict):
        return {k: to_value(x, sink, k, depth + 1) for k, x in v.items()}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: to_value(getattr(v, f.name), sink, f.name, depth + 1)
                for f in dataclasses.fields(v)}
    return None


def output_value(out, sink):
    """msprobe's convert_tuple: a tuple stays itself, anything else becomes a 1-item list."""
    if isinstance(out, tuple):
        return to_value(out, sink)
    return [to_value(out, sink, 0)]
