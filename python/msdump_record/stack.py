"""Call stacks as msprobe writes them: innermost first, one string per frame with source text."""
import linecache
import os
import sys

_OWN_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_frame_text = {}   # (code, lineno) -> the frame's string, or None for own / source-less frames


def _text(code, lineno):
    key = (code, lineno)
    line = linecache.getline(code.co_filename, lineno).strip()
    if not line or os.path.abspath(code.co_filename).startswith(_OWN_DIR):
        s = None
    else:
        s = f"File {code.co_filename}, line {lineno}, in {code.co_name}, \n {line}"
    _frame_text[key] = s
    return s


def call_stack():
    """The Python stack of the caller of the recorder's hook, without the recorder's frames:
    one dictionary look-up per frame once a call site has been seen."""
    frames = []
    get = _frame_text.get
    f = sys._getframe(1)
    while f is not None:
        code, lineno = f.f_code, f.f_lineno
        s = get((code, lineno), 0)
        if s == 0:
            s = _text(code, lineno)
        if s is not None:
            frames.append(s)
        f = f.f_back
    return frames
