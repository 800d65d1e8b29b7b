"""The background writer: appends raw tensor bytes to a blob file and event lines to trace.jsonl.

The training thread copies each tensor synchronously and hands the copy over with the blob offset
it reserved; this thread writes the bytes, then the lines that reference them, so a line on disk
never points at bytes that are not there yet. Memory held by queued copies is bounded by
`max_bytes`: a producer waits for the writer, nothing is ever dropped.

The hand-over costs the training thread one deque append per item (atomic under the GIL, no
lock; a blob's byte count takes a plain lock): the byte counts have one side each (queued by
the producers, written by this thread), and the condition is taken only to wake this thread
for a batch or to wait for room. This thread also wakes on its own every FLUSH_SECONDS, so no
line waits longer than that.
"""
import collections
import json
import os
import threading

from . import rawio
from .state import thread_state
from .values import data_ptr as _data_ptr, host_bytes

_BLOB, _LINE, _OPEN, _CLOSE, _SYNC = range(5)
WAKE_ITEMS, WAKE_BYTES = 512, 16 << 20
FLUSH_SECONDS = 0.05
IOV_MAX = rawio.IOV_MAX
_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps builds one per call


class BlobWriter:
    def __init__(self, max_bytes=256 << 20):
        self.max_bytes = max_bytes
        self._queue = collections.deque()
        self._cond = threading.Condition()
        self._queued = 0      # bytes handed over (producers, under _count_lock)
        self._count_lock = threading.Lock()   # autograd may run hooks on more than one thread
        self._written = 0     # bytes written (writer side only)
        self._unwoken = 0     # items / bytes since the last wake-up (producer side only)
        self._unwoken_bytes = 0
        self._error = None
        self._trace = None
        self._blob = None
        self._raw = rawio.load()
        self._thread = threading.Thread(target=self._run, name="msdump_record-writer", daemon=True)
        self._thread.start()

    # ---- producer side (training thread) ----
    def _check(self):
        if self._error is not None:
            raise RuntimeError("msdump_record writer failed") from self._error

    def _wake(self):
        self._unwoken = self._unwoken_bytes = 0
        with self._cond:
            self._cond.notify_all()

    def _put(self, item, nbytes=0):
        if self._error is not None:
            self._check()
        if nbytes:
            if self._queued - self._written + nbytes > self.max_bytes:
                self._wait_for_room(nbytes)
            with self._count_lock:
                self._queued += nbytes
        self._queue.append(item)
        self._unwoken += 1
        self._unwoken_bytes += nbytes
        if self._unwoken >= WAKE_ITEMS or self._unwoken_bytes >= WAKE_BYTES:
            self._wake()

    def _wait_for_room(self, nbytes):
        self._wake()
        with self._cond:
            while (self._queued > self._written and self._error is None
                   and self._queued - self._written + nbytes > self.max_bytes):
                self._cond.wait(FLUSH_SECONDS)
        self._check()

    def open(self, trace_path, blob_path):
        self._put((_OPEN, trace_path, blob_path))
        self._wake()

    def blob(self, buf, release=None, nbytes=None):
        """Queues a contiguous host tensor (nbytes long) for the blob file; release(buf) is
        called once it is written."""
        if nbytes is None:
            nbytes = buf.numel() * buf.element_size()
        self._put((_BLOB, buf, release, nbytes), nbytes)

    def line(self, *events):
        """Queues event lines (dicts, or their JSON text); the lines of one call reach the file
        in one write."""
        self._put((_LINE, events))

    def kick(self):
        """Lets the writer start on what is queued (it otherwise waits for a batch)."""
        self._wake()

    def close_files(self):
        self._put((_CLOSE,))
        self._wake()

    def sync(self):
        """Waits until everything queued so far is on disk (flushed to the OS)."""
        done = threading.Event()
        self._put((_SYNC, done))
        self._wake()
        while not done.wait(0.1):
            if not self._thread.is_alive():
                break
        self._check()

    # ---- consumer side ----
    def _run(self):
        thread_state().inner = True  # the writer's own tensor calls (numpy()) are never recorded
        queue = self._queue
        while True:
            if not queue:
                with self._cond:
                    self._cond.wait(FLUSH_SECONDS)  # woken for a batch, or a line's time is up
                continue
            batch = [queue.popleft() for _ in range(len(queue))]
            try:
                self._write(batch)
            except BaseException as e:  # keep the producer from waiting forever
                self._error = e
                with self._cond:
                    self._cond.notify_all()
                return

    def _write(self, batch):
        lines, blobs = [], []
        for item in batch:
            kind = item[0]
            if kind == _BLOB:
                blobs.append(item)
            elif kind == _LINE:
                lines.append("\n".join([e if e.__class__ is str else _encode(e) for e in item[1]]))
            else:
                self._flush(blobs, lines)
                blobs, lines = [], []
                if kind == _OPEN:
                    self._close_files()
                    self._trace = os.open(item[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
                    self._blob = os.open(item[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
                elif kind == _CLOSE:
                    self._close_files()
                elif kind == _SYNC:
                    item[1].set()
        self._flush(blobs, lines)

    def _flush(self, blobs, lines):
        """The blobs' bytes, then the lines naming them (one write call unless the OS writes
        less: a crash cuts at most one line)."""
        for i in range(0, len(blobs), IOV_MAX):
            part = blobs[i:i + IOV_MAX]
            if self._raw is not None:
                self._raw.write(self._blob, [(_data_ptr(item[1]), item[3]) for item in part])
            else:
                _write_all(self._blob, [host_bytes(item[1]) for item in part])
            self._written += sum(item[3] for item in part)
            for _, buf, release, _ in part:
                if release is not None:
                    release(buf)
            with self._cond:
                self._cond.notify_all()  # room for a waiting producer
        if lines:
            _write_all(self._trace, [("\n".join(lines) + "\n").encode("utf-8")])

    def _close_files(self):
        for fd in (self._blob, self._trace):
            if fd is not None:
                os.close(fd)
        self._blob = self._trace = None


def _write_all(fd, views):
    """os.writev of the buffers, straight from their memory, until every byte is written."""
    views = [memoryview(v).cast("B") for v in views]
    views = [v for v in views if v.nbytes]
    while views:
        n = os.writev(fd, views)
        while views and n >= views[0].nbytes:
            n -= views[0].nbytes
            views.pop(0)
        if n:
            views[0] = views[0][n:]
