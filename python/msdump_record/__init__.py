"""msdump_record: record a PyTorch training step as an msdump capture.

    from msdump_record import Recorder
    rec = Recorder("capture", level="mix", rank=0)
    rec.start(model); ...; rec.stop(); rec.step()

`msdump convert capture -o dump` then writes the dump.json / stack.json / construct.json msprobe
would have written for the same run.
"""
__version__ = "0.1.0"

from .recorder import Recorder  # noqa: E402
from .debugger import PrecisionDebugger  # noqa: E402

__all__ = ["Recorder", "PrecisionDebugger", "__version__"]
