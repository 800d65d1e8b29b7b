"""PrecisionDebugger: msprobe's entry point over a Recorder, for scripts written for msprobe.

Reads `dump_path`, `level`, `rank` and `step` from msprobe's config.json (keyword arguments
override them). Options that filter what is written (task, summary_mode, data_mode, scope, list,
risk_level) are applied offline by `msdump convert` and ignored here.
"""
import json

from .distributed import current_rank
from .recorder import Recorder


class PrecisionDebugger:
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
        self.recorder = None
        self.loop = 0

    def _active(self):
        return not self.steps or self.loop in self.steps

    def start(self, model=None, rank_id=None):
        if self.recorder is None:
            rank = current_rank(rank_id)
            if self.ranks and rank not in self.ranks:
                return
            self.recorder = Recorder(self.dump_path, self.level, rank=rank, init_step=self.loop)
        if self._active():
            self.recorder.start(model)

    def stop(self):
        if self.recorder is not None:
            self.recorder.stop()

    def step(self):
        if self.recorder is not None:
            self.recorder.step()
        self.loop += 1
