#!/usr/bin/env python3
"""Writes the msdump JSON Schemas (draft 7) into this directory.

The four dump.json schemas share most of their rules and differ in a few places (framework
name, tensor types, dtype spellings, requires_grad, is_recompute, Module/Cell prefix), so they
are generated from one description here instead of being kept in sync by hand. Run
`python3 schemas/generate_schemas.py` after editing this file and commit the *.schema.json it
writes; the build embeds those files (cmake/EmbedSchemas.cmake), never this script.

Rules come from docs/format.md (the section numbers in the "description"s are its sections) and
docs/trace-format.md. Conventions of every schema:
  - every analysed Python value is null, a list or an object; an object whose "type" member is
    a string is a leaf (a plain dict's members are values, never bare strings), its shape is
    chosen by that string with if/then; an object with "class_type" is a P2POp;
  - "integer" means a JSON integer token: msdump's validators treat 3.0 as a float, as Python
    does (the JSON Schema spec would accept it as an integer);
  - NaN/Infinity are numbers.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DRAFT = "http://json-schema.org/draft-07/schema#"

TASKS = ["statistics", "tensor", "structure", "nan_check", "diff_check"]
LEVELS = ["L0", "L1", "mix"]
FRAMEWORKS = ["pytorch", "mindspore", "mindtorch"]

TORCH_TENSOR_TYPES = [
    "torch.Tensor",
    "torch.distributed.tensor.DTensor",
    "torch._subclasses.fake_tensor.FakeTensor",
    "torch.distributed._functional_collectives.AsyncCollectiveTensor",
    "torch.nested._internal.nested_tensor.NestedTensor",
    "BatchedTensor",
    "GradTrackingTensor",
]
MINDSPORE_TENSOR_TYPES = ["mindspore.Tensor"]
ALL_TENSOR_TYPES = TORCH_TENSOR_TYPES + MINDSPORE_TENSOR_TYPES

TORCH_DTYPES = [
    "torch.float16", "torch.bfloat16", "torch.float32", "torch.float64",
    "torch.complex32", "torch.complex64", "torch.complex128",
    "torch.int8", "torch.int16", "torch.int32", "torch.int64",
    "torch.uint8", "torch.uint16", "torch.uint32", "torch.uint64", "torch.bool",
    "torch.float8_e4m3fn", "torch.float8_e5m2", "torch.float8_e4m3fnuz", "torch.float8_e5m2fnuz",
    "torch.float8_e8m0fnu", "torch.float4_e2m1fn_x2",
    "torch.qint8", "torch.quint8", "torch.qint32", "torch.quint4x2",
    "torch_npu.HiFloat8Tensor",
]
MINDSPORE_DTYPES = [
    "Float16", "BFloat16", "Float32", "Float64",
    "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Bool",
    "Complex64", "Complex128", "Float8E5M2", "Float8E4M3FN", "HiFloat8",
]

# type(v).__name__ of the Python and numpy scalars msprobe records as {"type", "value"} (§5.3).
BUILTIN_VALUE_TYPES = ["bool", "int", "float", "str", "slice", "ellipsis"]
NUMPY_SCALAR_TYPES = [
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "longlong", "ulonglong", "intc", "uintc", "float16", "float32", "float64", "float128",
    "longdouble", "str_", "bytes_",
]
TORCH_VALUE_TYPES = ["torch.Size", "torch.dtype", "torch.device", "torch.distributed.ReduceOp"]
MINDSPORE_VALUE_TYPES = ["mindspore.dtype"]

# Entry names, docs/format.md §3 / §15.
API_FORWARD = r"^.+\.[^.]+\.[0-9]+\.forward$"
API_BACKWARD = r"^.+\.[^.]+\.[0-9]+\.backward$"


def module_patterns(prefixes, unnumbered_grads=False):
    """`unnumbered_grads`: parameters_grad names may lack their counter, as msprobe wrote them up
    to 8.x (docs/format.md §16); dump.json accepts both forms, a capture trace only the
    numbered one."""
    p = "(" + "|".join(prefixes) + ")" if len(prefixes) > 1 else prefixes[0]
    counter = r"(\.[0-9]+)?" if unnumbered_grads else r"\.[0-9]+"
    return {
        "forward": r"^" + p + r"\..+\.[^.]+\.forward\.[0-9]+$",
        "backward": r"^" + p + r"\..+\.[^.]+\.backward\.[0-9]+$",
        "parameters_grad": r"^" + p + r"\..+\.[^.]+\.parameters_grad" + counter + "$",
    }


def one_of_patterns(patterns):
    """One anchored pattern matching any of the anchored `patterns`."""
    return "^(" + "|".join(p[1:-1] for p in patterns) + ")$"


def ref(name):
    return {"$ref": "#/definitions/" + name}


def if_type(types, then):
    # "required": an absent "type" must not make the condition vacuously true.
    cond = {"required": ["type"],
            "properties": {"type": {"const": types[0]} if len(types) == 1 else {"enum": types}}}
    return {"if": cond, "then": then}


# ---- leaves shared by every dump schema ---------------------------------------------------

def common_definitions():
    return {
        "shape": {
            "description": "§5.1: list of non-negative ints; 0-dim tensors have []",
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
        },
        "stat": {
            "description": "§6: Max/Min/Mean/Norm: a number (NaN/Infinity included), a bool (bool tensors) or null",
            "type": ["number", "boolean", "null"],
        },
        "md5": {
            "description": "§6.6: CRC-32 '%08x', XOR '0x%016x', a number (xor of a 0-dim float) or null",
            "type": ["string", "number", "null"],
            "pattern": "^([0-9a-f]{8}|0x[0-9a-f]{16})$",
        },
        "data_name": {
            "description": "§7: <entry>.<category>[.<suffix>].pt|.npy",
            "type": "string",
            "pattern": r"^.+\.(pt|npy)$",
        },
        "int_list": {"type": "array", "items": {"type": "integer"}},
        "ndarray_leaf": {
            "description": "§5.3 numpy.ndarray",
            "type": "object",
            "required": ["type", "dtype", "shape"],
            "properties": {
                "type": {"const": "numpy.ndarray"},
                "dtype": {"type": "string"},
                "shape": ref("shape"),
                "Max": ref("stat"), "Min": ref("stat"), "Mean": ref("stat"), "Norm": ref("stat"),
                "data_name": ref("data_name"),
                "md5": ref("md5"),
            },
            "additionalProperties": False,
        },
        "memory_format_leaf": {
            "description": "§5.3 torch.memory_format",
            "type": "object",
            "required": ["type", "format"],
            "properties": {
                "type": {"const": "torch.memory_format"},
                "format": {"enum": ["contiguous_format", "channels_last", "channels_last_3d",
                                    "preserve_format", None]},
            },
            "additionalProperties": False,
        },
        "process_group_leaf": {
            "description": "§5.3 dist.ProcessGroup (mindtorch: mindspore.ProcessGroup)",
            "type": "object",
            "required": ["type", "group_ranks", "group_id"],
            "properties": {
                "type": {"enum": ["torch.ProcessGroup", "mindspore.ProcessGroup"]},
                "group_ranks": ref("int_list"),
                "group_id": {"type": ["string", "null"]},
            },
            "additionalProperties": False,
        },
        "device_leaf": {
            "description": "§5.3 torch.device under key 'device': value int/str, or no value",
            "type": "object",
            "required": ["type"],
            "properties": {
                "type": {"const": "torch.device"},
                "value": {"type": ["string", "integer"]},
            },
            "additionalProperties": False,
        },
        "value_leaf": {
            "description": "§5.3 {type, value}: Python/numpy scalars, slice, ellipsis, torch.Size, dtypes, ReduceOp",
            "type": "object",
            "required": ["type", "value"],
            "properties": {"type": {"type": "string"}, "value": True},
            "additionalProperties": False,
            "allOf": [
                if_type(["bool"], {"properties": {"value": {"type": "boolean"}}}),
                if_type(["int"], {"properties": {"value": {"type": "integer"}}}),
                if_type(["float"], {"properties": {"value": {"type": "number"}}}),
                if_type(["str"], {"properties": {"value": {"type": "string"}}}),
                if_type(["slice"], {"properties": {"value": {
                    "type": "array", "minItems": 3, "maxItems": 3,
                    "items": {"type": ["integer", "null"]}}}}),
                if_type(["ellipsis"], {"properties": {"value": {"const": "..."}}}),
                if_type(["torch.Size"], {"properties": {"value": ref("shape")}}),
                if_type(["torch.dtype"], {"properties": {"value": {"type": "string", "pattern": r"^torch(_npu)?\."}}}),
                if_type(["mindspore.dtype", "torch.distributed.ReduceOp"],
                        {"properties": {"value": {"type": "string"}}}),
            ],
        },
    }


def dump_schema(framework, profile):
    torch_like = framework in ("pytorch", "mindtorch")
    pytorch = framework == "pytorch"
    tensor_types = TORCH_TENSOR_TYPES if pytorch else MINDSPORE_TENSOR_TYPES
    dtypes = TORCH_DTYPES if pytorch else MINDSPORE_DTYPES
    value_types = BUILTIN_VALUE_TYPES + NUMPY_SCALAR_TYPES
    if torch_like:
        value_types = value_types + TORCH_VALUE_TYPES
    if framework in ("mindspore", "mindtorch"):
        value_types = value_types + MINDSPORE_VALUE_TYPES
    mod = module_patterns(["Cell"] if framework == "mindspore" else ["Module"], unnumbered_grads=True)
    entry_name = one_of_patterns([API_FORWARD, API_BACKWARD, mod["forward"], mod["backward"],
                                  mod["parameters_grad"]])

    d = common_definitions()

    # -- tensor leaf (§5.1 / §5.2)
    tensor_props = {
        "type": {"enum": tensor_types},
        "dtype": {"enum": dtypes},
        "shape": ref("shape"),
        "Max": ref("stat"), "Min": ref("stat"), "Mean": ref("stat"), "Norm": ref("stat"),
    }
    if pytorch:
        tensor_props["requires_grad"] = {"type": "boolean"}
        tensor_props["device_mesh"] = {"type": "array"}
        tensor_props["placements"] = {"type": "array", "items": {"type": "object"}}
    else:
        tensor_props["layout"] = {"type": "object"}
        tensor_props["hsdp_shard_size"] = {"type": "integer"}
        if framework == "mindtorch":
            # Optional: the 8.x MSAdapter documentation shows it after Norm, msprobe's code
            # does not write it (docs/format.md §16).
            tensor_props["requires_grad"] = {"type": "boolean"}
    tensor_props["data_name"] = ref("data_name")
    tensor_props["md5"] = ref("md5")
    required = ["type", "dtype", "shape"] + (["requires_grad"] if pytorch else [])
    stats = ["Max", "Min", "Mean", "Norm"]
    d["tensor_leaf"] = {
        "description": "§5.1 (PyTorch) / §5.2 (MindSpore, mindtorch) tensor leaf; the four stats "
                       "come together or not at all (xor and nan_check modes have none)",
        "type": "object",
        "required": required,
        "properties": tensor_props,
        "additionalProperties": False,
        "dependencies": {s: [t for t in stats if t != s] for s in stats},
    }

    # -- P2POp (§5.3): no "type" key
    d["p2pop_leaf"] = {
        "description": "§5.3 dist.P2POp / mint.distributed.P2POp",
        "type": "object",
        "required": ["class_type", "tensor", "op", "peer", "tag", "group_id"],
        "properties": {
            "class_type": {"enum": ["torch.distributed.P2POp", "mindspore.mint.distributed.P2POp"]},
            "tensor": ref("tensor_leaf"),
            "op": {"type": "string"},
            "peer": {"type": "integer"},
            "tag": {"type": "integer"},
            "group_id": {"type": ["string", "null"]},
        },
        "additionalProperties": False,
    }

    # -- dispatch of a leaf on its "type" string
    special = list(tensor_types) + ["numpy.ndarray"]
    typed = [
        if_type(tensor_types, ref("tensor_leaf")),
        if_type(["numpy.ndarray"], ref("ndarray_leaf")),
    ]
    if torch_like:
        typed.append(if_type(["torch.memory_format"], ref("memory_format_leaf")))
        typed.append(if_type(["torch.device"], ref("device_leaf")))
        special += ["torch.memory_format", "torch.device"]
    if framework in ("pytorch", "mindtorch"):
        pg_types = ["torch.ProcessGroup"] if pytorch else ["torch.ProcessGroup", "mindspore.ProcessGroup"]
        typed.append(if_type(pg_types, ref("process_group_leaf")))
        special += pg_types
    others = [t for t in value_types if t not in special]
    typed.append({
        "if": {"required": ["type"], "properties": {"type": {"not": {"enum": special}}}},
        "then": {"allOf": [ref("value_leaf"), {"properties": {"type": {"enum": others}}}]},
    })
    d["typed_leaf"] = {
        "description": "an object whose 'type' is a string: its shape depends on the type",
        "allOf": typed,
    }
    d["value"] = {
        "description": "§5: one analysed Python value: null, a list of values, a leaf, a P2POp, or a dict of values",
        "type": ["null", "array", "object"],
        "items": ref("value"),
        "if": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}},
        "then": ref("typed_leaf"),
        "else": {
            "if": {"type": "object", "required": ["class_type"]},
            "then": ref("p2pop_leaf"),
            "else": {"additionalProperties": ref("value")},
        },
    }

    # -- sections and entries (§4.2, §4.3)
    d["value_list"] = {"type": "array", "items": ref("value")}
    d["value_object"] = {"type": "object", "additionalProperties": ref("value")}
    d["output"] = {
        "description": "§4.3: a list (convert_tuple), or an object for namedtuple outputs",
        "type": ["array", "object"],
        "items": ref("value"),
        "additionalProperties": ref("value"),
    }
    forward_props = {
        "input_args": ref("value_list"),
        "input_kwargs": ref("value_object"),
        "output": ref("output"),
    }
    if pytorch and profile == "legacy":
        forward_props["is_recompute"] = {"type": "boolean"}
    if pytorch:
        forward_props["is_nan"] = {"enum": [0, 1, None]}
    # Legacy PyTorch forward entries may carry is_recompute (§0, §4.2); it is optional because
    # msprobe's 8.x documentation shows legacy entries without it. That a file carries it in all
    # of its forward entries or in none is checked by msdump verify (profile evidence).
    legacy_required = []
    d["api_forward_entry"] = {
        "description": "§4.2 API forward entry",
        "type": "object", "minProperties": 1,
        "properties": forward_props,
        "additionalProperties": False,
    }
    if legacy_required:
        d["api_forward_entry"]["required"] = legacy_required
    module_props = dict(forward_props)
    module_props["parameters"] = {"type": "object", "additionalProperties": ref("tensor_leaf")}
    d["module_forward_entry"] = {
        "description": "§4.2 Module/Cell forward entry: parameters = object of tensor leaves",
        "type": "object", "minProperties": 1,
        "properties": module_props,
        "additionalProperties": False,
    }
    if legacy_required:
        d["module_forward_entry"]["required"] = legacy_required
    backward_props = {"input": ref("value_list"), "output": ref("value_list")}
    if pytorch:
        backward_props["is_nan"] = {"enum": [0, 1, None]}
    d["backward_entry"] = {
        "description": "§4.2 backward entry (API, Module/Cell, Jit, Primitive)",
        "type": "object", "minProperties": 1,
        "properties": backward_props,
        "additionalProperties": False,
    }
    d["parameters_grad_entry"] = {
        "description": "§4.2: one key per parameter, each a one-element list holding a tensor leaf",
        "type": "object", "minProperties": 1,
        "additionalProperties": {"type": "array", "minItems": 1, "maxItems": 1, "items": ref("tensor_leaf")},
    }
    d["entry_name"] = {
        "description": "§3 / §15 entry-name grammar (API, " + ("Cell" if framework == "mindspore" else "Module") +
                       " forward/backward, parameters_grad)",
        "type": "string",
        "pattern": entry_name,
    }
    d["data"] = {
        "description": "§2 'data': entry name -> entry; the name selects the entry's shape",
        "type": "object",
        "propertyNames": ref("entry_name"),
        "patternProperties": {
            API_FORWARD: ref("api_forward_entry"),
            API_BACKWARD: ref("backward_entry"),
            mod["forward"]: ref("module_forward_entry"),
            mod["backward"]: ref("backward_entry"),
            mod["parameters_grad"]: ref("parameters_grad_entry"),
        },
    }
    d["entry"] = {
        "description": "ONE entry for streaming validation: an object with exactly one member "
                       "{<entry name>: <entry>}, checked by the same rules as 'data'",
        "allOf": [ref("data")],
        "minProperties": 1,
        "maxProperties": 1,
    }
    top = {
        "task": {"enum": TASKS},
        "level": {"enum": LEVELS},
        "framework": {"const": framework},
        "dump_data_dir": {"type": ["string", "null"]},
    }
    d["header"] = {
        "description": "§2 top level without the entries ('data' only has to be an object); "
                       "for streaming validation together with #/definitions/entry",
        "type": "object",
        "required": ["task", "level", "dump_data_dir", "data"],
        "properties": dict(top, data={"type": "object"}),
        "additionalProperties": False,
    }
    title = {
        ("pytorch", "current"): "msprobe dump.json, PyTorch, current profile (msprobe master)",
        ("pytorch", "legacy"): "msprobe dump.json, PyTorch, legacy profile (is_recompute allowed in forward entries)",
        ("mindspore", None): "msprobe dump.json, MindSpore (Cell entries, no requires_grad)",
        ("mindtorch", None): "msprobe dump.json, mindtorch / MSAdapter (Module entries, requires_grad optional)",
    }[(framework, profile)]
    return {
        "$schema": DRAFT,
        "title": title,
        "description": "docs/format.md §2-§5, §15. Key order, cross-entry and cross-file rules are "
                       "checked by msdump verify, not by this schema. 'framework' may be missing (old files).",
        "type": "object",
        "required": ["task", "level", "dump_data_dir", "data"],
        "properties": dict(top, data=ref("data")),
        "additionalProperties": False,
        "definitions": d,
    }


# ---- stack.json and construct.json (§8) --------------------------------------------------

ANY_MODULE = module_patterns(["Module", "Cell"])
NODE_NAME = one_of_patterns([API_FORWARD, API_BACKWARD, ANY_MODULE["forward"], ANY_MODULE["backward"]])
FORWARD_NAME = one_of_patterns([API_FORWARD, ANY_MODULE["forward"]])


def stack_schema():
    return {
        "$schema": DRAFT,
        "title": "msprobe stack.json",
        "description": "docs/format.md §8.1. Current format {\"0\": [[names], [frames]], ...} (stacks only for "
                       "forward entries); a file without a key \"0\" is the legacy format {name: [frames]}.",
        "type": "object",
        "if": {"required": ["0"]},
        "then": ref("groups"),
        "else": ref("legacy"),
        "definitions": {
            # propertyNames sub-schemas are always $refs: valijson 1.0 loses an inline one inside
            # a definition reached through if/then.
            "group_key": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
            "forward_name": {"type": "string", "pattern": FORWARD_NAME},
            "frames": {"type": "array", "items": {"type": "string"}},
            "group": {
                "type": "array",
                "items": [
                    {"type": "array", "minItems": 1, "items": ref("forward_name")},
                    ref("frames"),
                ],
                "minItems": 2,
                "maxItems": 2,
            },
            "groups": {
                "type": "object",
                "propertyNames": ref("group_key"),
                "additionalProperties": ref("group"),
            },
            "legacy": {
                "type": "object",
                "propertyNames": ref("forward_name"),
                "additionalProperties": ref("frames"),
            },
        },
    }


def construct_schema():
    special = ["optimizer", "clip_grad"]
    key = "^(" + "|".join(special) + "|" + NODE_NAME[2:-2] + ")$"
    return {
        "$schema": DRAFT,
        "title": "msprobe construct.json",
        "description": "docs/format.md §8.2: child -> parent (null, or \"\" in old fixtures); the Megatron "
                       "variant maps child -> [parent, micro_step] and adds megatron_micro_step_number.",
        "type": "object",
        "if": {"required": ["megatron_micro_step_number"]},
        "then": ref("megatron"),
        "else": ref("plain"),
        "definitions": {
            "node_name": {"type": "string", "pattern": key},
            "megatron_key": {"anyOf": [ref("node_name"), {"const": "megatron_micro_step_number"}]},
            "parent": {"type": ["string", "null"], "pattern": "^(|" + key[1:-1] + ")$"},
            "plain": {
                "type": "object",
                "propertyNames": ref("node_name"),
                "additionalProperties": ref("parent"),
            },
            "megatron": {
                "type": "object",
                "required": ["megatron_micro_step_number"],
                "properties": {"megatron_micro_step_number": {"type": "integer", "minimum": 0}},
                "propertyNames": ref("megatron_key"),
                "additionalProperties": {
                    "type": "array",
                    "items": [ref("parent"), {"type": "integer", "minimum": 0}],
                    "minItems": 2,
                    "maxItems": 2,
                },
            },
        },
    }


# ---- capture trace (docs/trace-format.md) --------------------------------------------------

def trace_schema():
    d = common_definitions()
    # Tensor leaves of a capture: no statistics, no data_name, a source instead. The framework
    # is in the header, so the leaf accepts both spellings; requires_grad (required for PyTorch)
    # is checked by the trace reader, which knows the header.
    d["source"] = {
        "description": "where the tensor's bytes are; null = the capture could not copy it",
        "type": ["object", "null"],
        "required": ["file"],
        "properties": {
            "file": {
                "type": "string",
                "minLength": 1,
                "not": {"pattern": r"(^/|(^|/)\.\.(/|$))"},
            },
            "offset": {"type": "integer", "minimum": 0},
        },
        "additionalProperties": False,
    }
    d["ndarray_leaf"] = {
        "description": "numpy.ndarray leaf of a capture: its bytes in a source file, no statistics",
        "type": "object",
        "required": ["type", "dtype", "shape", "source"],
        "properties": {
            "type": {"const": "numpy.ndarray"},
            "dtype": {"type": "string"},
            "shape": ref("shape"),
            "source": ref("source"),
        },
        "additionalProperties": False,
    }
    d["tensor_leaf"] = {
        "type": "object",
        "required": ["type", "dtype", "shape", "source"],
        "properties": {
            "type": {"enum": ALL_TENSOR_TYPES},
            "dtype": {"enum": TORCH_DTYPES + MINDSPORE_DTYPES},
            "shape": ref("shape"),
            "requires_grad": {"type": "boolean"},
            "source": ref("source"),
            "device_mesh": {"type": "array"},
            "placements": {"type": "array", "items": {"type": "object"}},
            "layout": {"type": "object"},
            "hsdp_shard_size": {"type": "integer"},
        },
        "additionalProperties": False,
    }
    d["p2pop_leaf"] = {
        "type": "object",
        "required": ["class_type", "tensor", "op", "peer", "tag", "group_id"],
        "properties": {
            "class_type": {"enum": ["torch.distributed.P2POp", "mindspore.mint.distributed.P2POp"]},
            "tensor": ref("tensor_leaf"),
            "op": {"type": "string"},
            "peer": {"type": "integer"},
            "tag": {"type": "integer"},
            "group_id": {"type": ["string", "null"]},
        },
        "additionalProperties": False,
    }
    special = ALL_TENSOR_TYPES + ["numpy.ndarray", "torch.memory_format", "torch.device",
                                  "torch.ProcessGroup", "mindspore.ProcessGroup"]
    others = [t for t in BUILTIN_VALUE_TYPES + NUMPY_SCALAR_TYPES + TORCH_VALUE_TYPES +
              MINDSPORE_VALUE_TYPES if t not in special]
    d["typed_leaf"] = {
        "allOf": [
            if_type(ALL_TENSOR_TYPES, ref("tensor_leaf")),
            if_type(["numpy.ndarray"], ref("ndarray_leaf")),
            if_type(["torch.memory_format"], ref("memory_format_leaf")),
            if_type(["torch.device"], ref("device_leaf")),
            if_type(["torch.ProcessGroup", "mindspore.ProcessGroup"], ref("process_group_leaf")),
            {
                "if": {"required": ["type"], "properties": {"type": {"not": {"enum": special}}}},
                "then": {"allOf": [ref("value_leaf"), {"properties": {"type": {"enum": others}}}]},
            },
        ],
    }
    d["value"] = {
        "type": ["null", "array", "object"],
        "items": ref("value"),
        "if": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}},
        "then": ref("typed_leaf"),
        "else": {
            "if": {"type": "object", "required": ["class_type"]},
            "then": ref("p2pop_leaf"),
            "else": {"additionalProperties": ref("value")},
        },
    }
    d["value_list"] = {"type": "array", "items": ref("value")}
    d["value_object"] = {"type": "object", "additionalProperties": ref("value")}
    pg = one_of_patterns([ANY_MODULE["parameters_grad"]])
    entry_name = one_of_patterns([API_FORWARD, API_BACKWARD, ANY_MODULE["forward"],
                                  ANY_MODULE["backward"], ANY_MODULE["parameters_grad"]])
    d["header"] = {
        "description": "line 1 of trace.jsonl; unknown keys are warnings of the reader, so allowed here",
        "type": "object",
        "required": ["format", "version", "framework"],
        "properties": {
            "format": {"const": "msdump-trace"},
            "version": {"const": 1},
            "framework": {"enum": FRAMEWORKS},
            "step": {"type": "integer", "minimum": 0},
            "rank": {"type": "integer", "minimum": 0},
            "level": {"enum": LEVELS},
            "task": {"enum": ["statistics", "tensor"]},
            "summary_mode": {"enum": ["statistics", "md5", "xor"]},
            "dump_path": {"type": "string"},
            "megatron": {"type": "boolean"},
            "risk_level": {
                "description": "the msprobe API risk level whose calls the capture holds all of "
                               "(msdump_record: ALL); convert applies --risk-level (default FOCUS) on it",
                "enum": ["CORE", "FOCUS", "ALL"],
            },
            "recorder": {
                "description": "the program that wrote the capture",
                "type": "object",
                "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
            },
        },
    }
    d["data_event"] = {
        "type": "object",
        "required": ["kind", "name"],
        "properties": {"kind": {"const": "data"}, "name": {"type": "string", "pattern": entry_name}},
        "if": {"required": ["name"], "properties": {"name": {"pattern": pg}}},
        "then": {
            "description": "parameters_grad: one key per parameter holding [<tensor leaf>]",
            "properties": {"kind": True, "name": True},
            "additionalProperties": {"type": "array", "minItems": 1, "maxItems": 1, "items": ref("tensor_leaf")},
        },
        "else": {
            "properties": {
                "kind": True,
                "name": True,
                "input_args": ref("value_list"),
                "input_kwargs": ref("value_object"),
                "output": {"type": ["array", "object"], "items": ref("value"),
                           "additionalProperties": ref("value")},
                "parameters": {"type": "object", "additionalProperties": ref("tensor_leaf")},
                "input": ref("value_list"),
                "is_recompute": {"type": "boolean"},
            },
            "additionalProperties": False,
        },
    }
    d["stack_event"] = {
        "type": "object",
        "required": ["kind", "name", "frames"],
        "properties": {
            "kind": {"const": "stack"},
            "name": {"type": "string", "pattern": entry_name},
            "frames": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": False,
    }
    node = "^(optimizer|clip_grad|" + NODE_NAME[2:-2] + ")$"
    d["construct_event"] = {
        "type": "object",
        "required": ["kind", "name", "parent"],
        "properties": {
            "kind": {"const": "construct"},
            "name": {"type": "string", "pattern": node},
            "parent": {"type": ["string", "null"], "pattern": node},
            "micro_step": {"type": "integer", "minimum": 0},
        },
        "additionalProperties": False,
    }
    d["event"] = {
        "description": "lines 2.. of trace.jsonl; unknown kinds are warnings of the reader, so allowed here",
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"type": "string"}},
        "allOf": [
            {"if": {"required": ["kind"], "properties": {"kind": {"const": "data"}}}, "then": ref("data_event")},
            {"if": {"required": ["kind"], "properties": {"kind": {"const": "stack"}}}, "then": ref("stack_event")},
            {"if": {"required": ["kind"], "properties": {"kind": {"const": "construct"}}}, "then": ref("construct_event")},
        ],
    }
    return {
        "$schema": DRAFT,
        "title": "msdump capture trace (trace.jsonl), version 1",
        "description": "docs/trace-format.md. Validates ONE line: the header (a line with 'format') or an "
                       "event. Use #/definitions/header for line 1 and #/definitions/event for the others.",
        "if": {"type": "object", "required": ["format"]},
        "then": ref("header"),
        "else": ref("event"),
        "definitions": d,
    }


def main():
    out = {
        "dump-pytorch-current": dump_schema("pytorch", "current"),
        "dump-pytorch-legacy": dump_schema("pytorch", "legacy"),
        "dump-mindspore": dump_schema("mindspore", None),
        "dump-mindtorch": dump_schema("mindtorch", None),
        "stack": stack_schema(),
        "construct": construct_schema(),
        "trace": trace_schema(),
    }
    for name, schema in out.items():
        path = os.path.join(HERE, name + ".schema.json")
        with open(path, "w", encoding="ascii") as f:
            json.dump(schema, f, indent=1)
            f.write("\n")
        print("wrote", os.path.relpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
