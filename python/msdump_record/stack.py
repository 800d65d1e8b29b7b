"""Call stacks as msprobe writes them: innermost first, one string per frame with source text."""
import linecache
import os
import sys

_OWN_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_frame_text = {}


def _text(code, lineno):
    key = (code, lineno)
    s = _frame_text.get(key)
    if s is None:
        line = linecache.getline(code.co_filename, lineno).strip()
        s = f"File {code.co_filename}, line {lineno}, in {code.co_name}, \n {line}" if line else ""
        _frame_text[key] = s
    return s


def _own(filename, cache={}):
    own = cache.get(filename)
    if own is None:
        own = cache[filename] = os.path.abspath(filename).startswith(_OWN_DIR)
    return own


def call_stack():
    """The Python stack of the caller of the recorder's hook, without the recorder's frames."""
    frames = []
    f = sys._getframe(1)
    while f is not None:
        code = f.f_code
        if not _own(code.co_filename):
            s = _text(code, f.f_lineno)
            if s:
                frames.append(s)
        f = f.f_back
    return frames
