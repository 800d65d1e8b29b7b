"""Copies already made this phase, reused when the same tensor is recorded again unchanged.

In L1 and mix most tensor bytes are recorded twice or more: an API's output is the next API's
input, a module's input is its first API's input and its output the last API's output, and in
backward one node's grad_input is the next node's grad_output. msprobe computes each
occurrence's statistics from the live tensor; a repeat recorded from the first copy gives the
same bytes, hence the same statistics, as long as the tensor has not changed in between.

A repeat is found by where its elements are (data pointer, dtype, shape, strides), so the alias
a hook makes of its inputs and outputs (module backward hooks return views of them) finds the
copy too. The tensor first recorded there is held weakly: while it lives its memory cannot be
handed to another tensor, so a tensor found there is a view of the same storage, sharing its
version counter (bumped by every in-place op, through views and detach() too); a repeat is
taken as unchanged when that counter still reads as recorded. Only tensors whose contents a
version counter guards are entered or looked up:
  - forward: tensors produced by an op in the autograd graph (grad_fn set). Parameters,
    buffers and tensors made under no_grad are copied every time: an optimizer or a kernel
    writes those through `.data` or in place without a version bump (batch norm's running
    statistics on torch 1.13);
  - backward: the gradients the hooks are given (the autograd engine runs between the hooks,
    and nothing else).
A phase change (a forward hook after backward ones, or back) forgets everything: between the
two, user code runs that may rescale gradients in place from an extension (apex) without a
version bump. So does any in-place API call the API hooks see (`.data.mul_()` included).
"""
import weakref

import torch

_STRIDED = torch.strided
_TensorBase = getattr(torch._C, "TensorBase", None) or torch._C._TensorBase
_stride = _TensorBase.stride      # Tensor.stride is in the API set: its wrapper is not needed here

FORWARD, BACKWARD = 0, 1


class CopyCache:
    def __init__(self):
        self._entries = {}
        self._phase = FORWARD

    def lookup(self, tensor, phase):
        """(key, the source recorded for these elements in this phase if they are unchanged);
        key None for a tensor that is never reused."""
        if phase != self._phase:
            self._entries.clear()
            self._phase = phase
        if tensor.grad_fn is None and (phase == FORWARD or tensor.requires_grad):
            return None, None
        if tensor.layout is not _STRIDED or tensor.is_meta:
            return None, None     # sparse, meta: no storage to compare (and no bytes to copy)
        try:
            key = (tensor.data_ptr(), tensor.dtype, tensor.shape, _stride(tensor))
        except RuntimeError:      # a tensor subclass without storage (fake tensors)
            return None, None
        hit = self._entries.get(key)
        if hit is not None and hit[0]() is not None and tensor._version == hit[1]:
            return key, hit[2]
        return key, None

    def alias(self, original, copy):
        """`copy`, just made from `original` (same values), shares original's recorded copy."""
        key, source = self.lookup(original, self._phase)
        if source is not None:
            new_key, _ = self.lookup(copy, self._phase)
            if new_key is not None:
                self.remember(new_key, copy, source)

    def remember(self, key, tensor, source):
        entries = self._entries
        try:
            ref = weakref.ref(tensor, lambda _: entries.pop(key, None))
        except TypeError:
            return
        entries[key] = (ref, tensor._version, source)

    def forget(self):
        self._entries.clear()
