"""PrecisionDebugger: msprobe's entry point over a Recorder, for scripts written for msprobe.

Reads `dump_path`, `level`, `rank` and `step` from msprobe's config.json (keyword arguments
override them). Options that filter what is written (task, summary_mode, data_mode, scope, list,
risk_level) are applied offline by `msdump convert` and ignored here.
"""
import json

from .distributed import current_rank
from .recorder import Recorder


class PrecisionDebugger:
    """Its recorder, and with it the API wrappers, exists from construction on, as msprobe's
    wrappers do; the rank filter is applied at the first start() of a dumped step."""

    def __init__(self, config_path=None, task=None, dump_path=None, level=None, step=None,
                 **_ignored):
        config = {}
        if config_path is not None:
            with open(config_path, encoding="utf-8") as f:
                config = json.load(f)
        self.dump_path = dump_path or config.get("dump_path") or "./msdump_capture"
        self.level = level or config.get("level") or "L1"
        self.steps = set(step if step is not None else config.get("step") or [])
        self.ranks = set(config.get("rank") or [])
        self.recorder = Recorder(self.dump_path, self.level)
        self._rank_checked = False
        self.loop = 0

    def _active(self):
        return not self.steps or self.loop in self.steps

    def start(self, model=None, rank_id=None):
        if self.recorder is None or not self._active():
            return
        if not self._rank_checked:
            self._rank_checked = True
            if self.ranks and current_rank(rank_id) not in self.ranks:
                self.recorder.close()    # this rank never records: the wrappers come off
                self.recorder = None
                return
        self.recorder.start(model, rank_id)

    def stop(self):
        if self.recorder is not None:
            self.recorder.stop()

    def step(self):
        if self.recorder is not None:
            self.recorder.step()
        self.loop += 1
