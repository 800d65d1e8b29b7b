"""The background writer: appends raw tensor bytes to a blob file and event lines to trace.jsonl.

The training thread copies each tensor synchronously and hands the copy over with the blob offset
it reserved; this thread writes the bytes, then the lines that reference them, so a line on disk
never points at bytes that are not there yet. Memory held by queued copies is bounded by
`max_bytes`: a producer waits for the writer, nothing is ever dropped.
"""
import collections
import json
import threading

from .state import thread_state
from .values import host_bytes

_BLOB, _LINE, _OPEN, _CLOSE, _SYNC = range(5)
WAKE_ITEMS, WAKE_BYTES = 512, 16 << 20
FLUSH_SECONDS = 0.05


class BlobWriter:
    def __init__(self, max_bytes=256 << 20):
        self.max_bytes = max_bytes
        self._queue = collections.deque()
        self._cond = threading.Condition()
        self._pending = 0
        self._error = None
        self._trace = None
        self._blob = None
        self._woken = False
        self._thread = threading.Thread(target=self._run, name="msdump_record-writer", daemon=True)
        self._thread.start()

    # ---- producer side (training thread) ----
    def _put(self, item, nbytes=0):
        with self._cond:
            if self._error is not None:
                raise RuntimeError("msdump_record writer failed") from self._error
            while self._pending and self._pending + nbytes > self.max_bytes:
                self._woken = True
                self._cond.notify_all()
                self._cond.wait()
            self._pending += nbytes
            self._queue.append(item)
            # wake the writer for a batch, not per item: fewer hand-overs of the GIL
            if (len(self._queue) >= WAKE_ITEMS or self._pending >= WAKE_BYTES
                    or item[0] not in (_BLOB, _LINE)):
                self._woken = True
                self._cond.notify_all()
            elif len(self._queue) == 1:
                self._cond.notify_all()  # starts the writer's batch timer

    def open(self, trace_path, blob_path):
        self._put((_OPEN, trace_path, blob_path))

    def blob(self, buf, release=None):
        """Queues a contiguous host tensor for the blob file; release(buf) is called once written."""
        self._put((_BLOB, buf, release), buf.numel() * buf.element_size())

    def line(self, *events):
        """Queues event lines; the lines of one call reach the file in one write."""
        self._put((_LINE, events))

    def kick(self):
        """Lets the writer start on what is queued (it otherwise waits for a batch)."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def close_files(self):
        self._put((_CLOSE,))

    def sync(self):
        """Waits until everything queued so far is on disk (flushed to the OS)."""
        done = threading.Event()
        self._put((_SYNC, done))
        while not done.wait(0.1):
            if not self._thread.is_alive():
                break
        if self._error is not None:
            raise RuntimeError("msdump_record writer failed") from self._error

    # ---- consumer side ----
    def _run(self):
        thread_state().inner = True  # the writer's own tensor calls (numpy()) are never recorded
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.wait()
                if not self._woken and len(self._queue) < WAKE_ITEMS:
                    self._cond.wait(FLUSH_SECONDS)  # a batch, but nothing older than this
                self._woken = False
                batch = list(self._queue)
                self._queue.clear()
            try:
                self._write(batch)
            except BaseException as e:  # keep the producer from waiting forever
                with self._cond:
                    self._error = e
                    self._pending = 0
                    self._cond.notify_all()
                return

    def _write(self, batch):
        lines = []
        freed = 0
        for item in batch:
            kind = item[0]
            if kind == _BLOB:
                buf = item[1]
                data = host_bytes(buf)
                self._blob.write(data)
                freed += data.nbytes
                if item[2] is not None:
                    item[2](buf)
            elif kind == _LINE:
                group = [json.dumps(e, ensure_ascii=False) for e in item[1]]
                lines.append("\n".join(group))
            else:
                self._flush(lines)
                lines = []
                if kind == _OPEN:
                    self._close_files()
                    self._trace = open(item[1], "wb", buffering=0)
                    self._blob = open(item[2], "wb")
                elif kind == _CLOSE:
                    self._close_files()
                elif kind == _SYNC:
                    item[1].set()
        self._flush(lines)
        with self._cond:
            self._pending -= freed
            self._cond.notify_all()

    def _flush(self, lines):
        if self._blob is not None:
            self._blob.flush()  # bytes reach the file before the lines naming them
        if lines:
            data = ("\n".join(lines) + "\n").encode("utf-8")
            view = memoryview(data)
            while view:  # one write call unless the OS writes less: a crash cuts at most one line
                view = view[self._trace.write(view):]

    def _close_files(self):
        for f in (self._blob, self._trace):
            if f is not None:
                f.close()
        self._blob = self._trace = None
