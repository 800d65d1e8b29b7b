"""Module hooks (levels L0 and mix): forward entries, module backward and parameters_grad."""
import weakref

import torch
from torch.utils.hooks import BackwardHook

from .state import find_open_parent, thread_state
from .values import output_value, to_value

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2


def as_models(model):
    """start()'s model argument as a tuple of modules."""
    return tuple(model) if isinstance(model, (list, tuple)) else (model,)


def module_prefixes(models):
    """(prefix, module) per hooked module: named_modules() of each model, its root skipped."""
    indexed = isinstance(models, (list, tuple))
    out = []
    for i, model in enumerate(models if indexed else [models]):
        for path, module in model.named_modules():
            if module is model or type(module).__name__ == "FullyShardedDataParallel":
                continue
            index = f"{i}." if indexed else ""
            out.append((f"Module.{index}{path}.{type(module).__name__}.", module))
    return out


def _grad_tensors(value, found):
    if isinstance(value, torch.Tensor):
        if value.requires_grad:
            found.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _grad_tensors(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _grad_tensors(v, found)


def _replace(value, it):
    """value with its grad-requiring tensors replaced by the next ones of `it`, in the order
    _grad_tensors found them."""
    if isinstance(value, torch.Tensor):
        return next(it) if value.requires_grad else value
    if isinstance(value, (list, tuple)):
        items = [_replace(v, it) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        if isinstance(value, list):
            return items
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if isinstance(value, dict):
        items = {k: _replace(v, it) for k, v in value.items()}
        if all(items[k] is v for k, v in value.items()):
            return value
        out = type(value)()
        out.update(items)
        return out
    return value


def hook_grad_tensors(value, setup, sink=None):
    """msprobe's patched BackwardHook setup: only grad-requiring tensors, flattened depth-first.

    The hooked tensors come back as clones of BackwardHookFunction's outputs: those are views
    autograd forbids to modify in place (torch's own full backward hooks fail on `x += ...` or
    ReLU(inplace=True)); a clone has the same values and passes gradients through unchanged.
    A clone of a tensor the sink has just copied shares that copy (sink.alias).
    """
    found = []
    if torch.is_grad_enabled():
        _grad_tensors(value, found)
    new = setup(tuple(found))
    if not found:
        return value
    new = [t.clone() for t in new]
    if sink is not None:
        for original, clone in zip(found, new):
            sink.alias(original, clone)
    return _replace(value, iter(new))


class ModuleHooks:
    def __init__(self, rec, models):
        self.rec = rec
        self.models = tuple(weakref.ref(m) for m in as_models(models))
        self.handles = []
        self.calls = {}        # id(module) -> stack of (name, BackwardHook) of running forwards
        self.param_hooks = {}  # "<prefix><param>" -> (AccumulateGrad node, handle)
        for prefix, module in module_prefixes(models):
            self._register(prefix, module)

    def hooks(self, model):
        """Whether these hooks are those of `model` (the same objects, still alive)."""
        models = as_models(model)
        return len(models) == len(self.models) and all(r() is m for r, m in zip(self.models, models))

    def remove(self):
        for h in self.handles:
            h.remove()
        for _, h in self.param_hooks.values():
            h.remove()
        self.handles, self.param_hooks, self.calls = [], {}, {}

    def _register(self, prefix, module):
        if TORCH_2:
            def pre(mod, args, kwargs):
                new_args = self._pre(prefix, mod, args, kwargs)
                return None if new_args is args else (new_args, kwargs)
            self.handles.append(module.register_forward_pre_hook(pre, with_kwargs=True))
        else:
            def pre(mod, args):
                new_args = self._pre(prefix, mod, args, {})
                return None if new_args is args else new_args
            self.handles.append(module.register_forward_pre_hook(pre))

        def post(mod, args, output):
            return self._post(prefix, mod, output)
        handle = module.register_forward_hook(post)
        module._forward_hooks.move_to_end(handle.id, last=False)  # before user forward hooks
        self.handles.append(handle)

    def _pre(self, prefix, module, args, kwargs):
        rec, ts = self.rec, thread_state()
        if not rec.running or ts.inner:
            return args
        st = rec.state
        n = st.module_counts[prefix] = st.module_counts.get(prefix, -1) + 1
        name = f"{prefix}forward.{n}"
        stack = ts.module_stack
        parent = stack[-1] if stack else find_open_parent(st.open_modules, name)
        st.pending_nodes.append((name, parent))
        stack.append(name)
        st.open_modules.append(name)
        st.api_parent = name
        ts.inner = True
        try:
            rec.emit_inputs(name, {"input_args": to_value(args, rec.sink),
                                   "input_kwargs": to_value(kwargs, rec.sink)})
            bw = BackwardHook(module, [self._backward_hook(st, f"{prefix}backward.{n}")],
                              *([[]] if TORCH_2 else []))
            new_args = hook_grad_tensors(args, bw.setup_input_hook, rec.sink)
        finally:
            ts.inner = False
        self.calls.setdefault(id(module), []).append(bw)
        return new_args

    def _post(self, prefix, module, output):
        rec, ts = self.rec, thread_state()
        if not rec.running or ts.inner:
            return None
        calls = self.calls.get(id(module))
        if not calls:
            return None
        bw = calls.pop()
        st = rec.state
        name = f"{prefix}forward.{st.module_counts.get(prefix, 0)}"
        ts.inner = True
        try:
            params = dict(module.named_parameters(recurse=False))
            self._hook_params(st, prefix, params)
            rec.update_construct(None)
            rec.emit_data(name, {"output": output_value(output, rec.sink),
                                 "parameters": to_value(params, rec.sink)})
            if ts.module_stack:
                ts.module_stack.pop()
            if name in st.open_modules:
                st.open_modules.remove(name)
            st.api_parent = ts.module_stack[-1] if ts.module_stack else None
            new_output = hook_grad_tensors(output, bw.setup_output_hook, rec.sink)
        finally:
            ts.inner = False
        return None if new_output is output else new_output

    def _backward_hook(self, st, name):
        def hook(module, grad_input, grad_output):
            rec, ts = self.rec, thread_state()
            if not rec.running or st is not rec.state:
                return None
            ts.inner = True
            try:
                rec.update_construct(None)
                rec.emit_data(name, {"input": to_value(tuple(grad_output), rec.sink.grads),
                                     "output": to_value(tuple(grad_input), rec.sink.grads)})
                st.api_parent = name   # torch < 2: never popped (msprobe's 1.13 behaviour)
            finally:
                ts.inner = False
            return None
        return hook

    def _hook_params(self, st, prefix, params):
        if not torch.is_grad_enabled():
            return
        ori = prefix[:-1]
        for pname, p in params.items():
            if not p.requires_grad:
                continue
            key = prefix + pname
            old = self.param_hooks.pop(key, None)
            if old is not None:
                old[1].remove()
            acc = p.expand_as(p).grad_fn.next_functions[0][0]
            self.param_hooks[key] = (acc, acc.register_hook(self._grad_hook(ori, pname, p)))

    def _grad_hook(self, ori, pname, param):
        def hook(grad_inputs, grad_outputs):
            rec, ts = self.rec, thread_state()
            if not rec.running:
                return None
            st = rec.state
            if ori not in st.grad_first:
                st.grad_first[ori], st.grad_index[ori] = pname, 0
            elif st.grad_first[ori] == pname:
                st.grad_index[ori] += 1
            ts.inner = True
            try:
                rec.emit_data(f"{ori}.parameters_grad.{st.grad_index[ori]}",
                              {pname: [to_value(param.grad, rec.sink.grads, 0)]})
            finally:
                ts.inner = False
            return None
        return hook
