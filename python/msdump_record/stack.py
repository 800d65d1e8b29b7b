"""Call stacks as msprobe writes them: innermost first, one string per frame with source text."""
import json
import linecache
import os
import sys

_OWN_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_frame_text = {}   # (code, instruction offset) -> the frame's string, or None for own / source-less
                   # frames (the offset, unlike f_lineno, is read without decoding the line table)
_stack_json = {}   # a stack's frames -> their JSON text (a program has few distinct stacks)
_MAX_STACKS = 100_000
_encode = json.JSONEncoder(ensure_ascii=False).encode


def _text(key, lineno):
    code = key[0]
    line = linecache.getline(code.co_filename, lineno).strip() if lineno else ""
    if not line or os.path.abspath(code.co_filename).startswith(_OWN_DIR):
        s = None
    else:
        s = f"File {code.co_filename}, line {lineno}, in {code.co_name}, \n {line}"
    _frame_text[key] = s
    return s


def call_stack_from(f):
    """The Python stack from frame f outwards, without the recorder's frames: one dictionary
    look-up per frame once a call site has been seen."""
    frames = []
    get = _frame_text.get
    while f is not None:
        key = (f.f_code, f.f_lasti)
        s = get(key, 0)
        if s == 0:
            s = _text(key, f.f_lineno)
        if s is not None:
            frames.append(s)
        f = f.f_back
    return frames


def stack_event(name):
    """The caller's stack event as a JSON line: the frames' text is encoded once per distinct
    stack, not once per call."""
    frames = tuple(call_stack_from(sys._getframe(1)))
    text = _stack_json.get(frames)
    if text is None:
        if len(_stack_json) >= _MAX_STACKS:
            _stack_json.clear()
        text = _stack_json[frames] = _encode(list(frames))
    return f'{{"kind": "stack", "name": {_encode(name)}, "frames": {text}}}'
