"""Per-step recording state shared by the module and API hooks (msprobe's counters and caches)."""
import threading

_tls = threading.local()


def thread_state():
    """This thread's API nesting depth, own-op switch and module stack."""
    s = getattr(_tls, "s", None)
    if s is None:
        s = _tls.s = ThreadState()
    return s


class ThreadState:
    __slots__ = ("depth", "inner", "module_stack")

    def __init__(self):
        self.depth = 0
        self.inner = False
        self.module_stack = []


class StepState:
    """Everything msprobe resets at step(): counters, construct bookkeeping, grad indices."""

    def __init__(self):
        self.api_counts = {}
        self.module_counts = {}
        self.api_parent = None
        self.open_modules = []      # modules whose forward has begun and not ended (any thread)
        self.pending_nodes = []     # module construct edges not yet written, in pre-hook order
        self.grad_first = {}        # parameters_grad: first parameter seen per module
        self.grad_index = {}        # parameters_grad: current k per module


def find_open_parent(open_modules, name):
    """msprobe's ModuleQueue.find_last: the newest open module whose name makes it the parent."""
    child = name.split(".")[:-4]
    for parent in reversed(open_modules):
        if parent.split(".")[:-3] == child:
            return parent
    return None
