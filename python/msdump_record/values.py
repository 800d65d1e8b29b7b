"""Python values -> capture values (dump.json leaves; tensor leaves carry a blob `source`).

Follows msprobe's recursive_apply_transform: tuples and lists become lists, dicts and
namedtuples objects, special types leaves, anything else null. Tensor bytes are copied here,
synchronously, so later in-place updates cannot change what was recorded.
"""
import dataclasses

import numpy as np
import torch

MAX_DEPTH = 400
_NUMPY_VIEW = {torch.bfloat16: torch.int16}
_SPECIAL = (bool, int, float, str, slice, type(Ellipsis), np.generic, np.ndarray,
            torch.device, torch.dtype, torch.Size, torch.Tensor, torch.memory_format)


class TensorSink:
    """Reserves blob offsets and queues host copies; one per open trace."""

    def __init__(self, writer, blob_name):
        self.writer = writer
        self.blob_name = blob_name
        self.offset = 0

    def add(self, tensor):
        host = _host_copy(tensor)
        if host is None:
            return None
        source = {"file": self.blob_name, "offset": self.offset}
        self.offset += host.nbytes
        self.writer.blob(host)
        return source


def _host_copy(tensor):
    """A C-contiguous host numpy copy of the tensor's logical contents, or None if impossible."""
    t = tensor.detach()
    if t.layout != torch.strided or t.is_quantized or t.device.type == "meta":
        return None
    if t.device.type != "cpu":
        t = t.to("cpu")
    else:
        t = t.clone(memory_format=torch.contiguous_format)
    t = t.contiguous()
    view = _NUMPY_VIEW.get(t.dtype)
    if view is not None:
        t = t.view(view)
    try:
        return t.numpy().reshape(-1)
    except (TypeError, RuntimeError):
        return None


def tensor_leaf(t, sink):
    return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape),
            "requires_grad": t.requires_grad, "source": sink.add(t)}


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
        return tensor_leaf(v, sink)
    if key in ("dtype", "output_dtype"):
        return {"type": "torch.dtype", "value": str(v)}
    if key == "device":
        return _device_in_kwargs(v)
    if isinstance(v, (bool, int, float, str)):
        return {"type": type(v).__name__, "value": v}
    if isinstance(v, torch.Size):
        return {"type": "torch.Size", "value": list(v)}
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
