"""The API set msprobe wraps (api_set.json) and where each namespace lives in torch."""
import json
import os

import torch

from . import distributed

_HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_HERE, "api_set.json"), encoding="utf-8") as _f:
    API_SET = json.load(_f)

# YAML key -> (entry-name prefix, the namespace objects the attributes are replaced on)
NAMESPACES = {
    "functional": ("Functional", [torch.nn.functional]),
    "tensor": ("Tensor", [torch.Tensor]),
    "torch": ("Torch", [torch]),
    "_VF": ("VF", [torch._VF]),
    "distributed": (distributed.PREFIX, distributed.namespaces()),
}

DROPOUT_APIS = {"dropout", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
                "_npu_dropout"}


def wrap_targets():
    """(entry prefix, counter key, owner object, attribute, original) for each API present; an
    API installed on two namespaces (torch.distributed and distributed_c10d) is two targets
    sharing one counter key."""
    out = []
    for key, (prefix, spaces) in NAMESPACES.items():
        for space in spaces:
            for yaml_name in API_SET["namespaces"][key]:
                owner, attr = space, yaml_name
                if "." in yaml_name:
                    head, attr = yaml_name.split(".", 1)
                    owner = getattr(space, head, None)
                    if owner is None or "." in attr:
                        continue
                orig = getattr(owner, attr, None)
                if orig is None or not callable(orig):
                    continue
                out.append((prefix, f"{prefix}.{attr}.", owner, attr, orig))
    return out
