"""writev(2) of host tensors by address.

Handing a tensor to os.writev takes a Python buffer object, which costs the writer thread up to
three tensor calls per tensor, all under the GIL, and the training thread waits for the GIL
whenever the writer holds it. Through ctypes the writer passes each tensor's data pointer and
length straight to libc's writev, which runs with the GIL released. `load()` returns None where
libc's writev cannot be found, and the writer keeps to os.writev.
"""
import ctypes
import errno
import os

IOV_MAX = 512


class _IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


class RawWriter:
    def __init__(self, writev):
        self._writev = writev

    def write(self, fd, spans):
        """Writes every byte of the (address, length) spans, in order."""
        spans = [s for s in spans if s[1]]
        while spans:
            part = spans[:IOV_MAX]
            done = self._writev(fd, (_IoVec * len(part))(*part), len(part))
            if done < 0:
                err = ctypes.get_errno()
                if err == errno.EINTR:
                    continue
                raise OSError(err, os.strerror(err))
            spans = _advance(spans, done)


def _advance(spans, done):
    """The spans left once `done` bytes from their start are written."""
    i = 0
    while i < len(spans) and done >= spans[i][1]:
        done -= spans[i][1]
        i += 1
    rest = spans[i:]
    if done:
        address, length = rest[0]
        rest[0] = (address + done, length - done)
    return rest


def load():
    try:
        writev = ctypes.CDLL(None, use_errno=True).writev
    except (OSError, AttributeError):
        return None
    writev.argtypes = [ctypes.c_int, ctypes.POINTER(_IoVec), ctypes.c_int]
    writev.restype = ctypes.c_ssize_t
    return RawWriter(writev)
