"""Small jobs run on the GUI thread between events, a few milliseconds at a time, newest first.

Reading a tile or drawing a counter takes a few milliseconds.  Done in
Python worker threads they would fight the painting thread for the
interpreter lock; done here, in slices between events, painting never waits
for them and the newest request (what the view shows now) comes first.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from typing import Callable

from PySide6.QtCore import QObject, QTimer

SLICE_MS = 6.0
MAX_QUEUED = 512


class IdleQueue(QObject):
    """Jobs by key, run newest first in slices of ``SLICE_MS`` between the GUI's events.

    ``limit``: the most jobs kept (the oldest are dropped past it); None keeps every job,
    for work that must all be done (the grid's blocks), not just what the view shows now.
    """

    def __init__(self, parent=None, slice_ms: float = SLICE_MS, limit: int | None = MAX_QUEUED):
        super().__init__(parent)
        self.slice = slice_ms / 1000.0
        self.limit = limit
        self._jobs: OrderedDict[object, Callable[[], None]] = OrderedDict()
        self._timer = QTimer(self, interval=0, timeout=self._run)

    def submit(self, key, job: Callable[[], None]) -> None:
        """Queue a job unless one with this key is queued; the oldest are dropped past ``limit``."""
        if key in self._jobs:
            self._jobs.move_to_end(key)
            return
        self._jobs[key] = job
        while self.limit is not None and len(self._jobs) > self.limit:
            self._jobs.popitem(last=False)
        if not self._timer.isActive():
            self._timer.start()

    def __contains__(self, key) -> bool:
        return key in self._jobs

    def pending(self) -> int:
        return len(self._jobs)

    def run_all(self) -> None:
        """Run every queued job now (tests, screenshots)."""
        while self._jobs:
            self._jobs.popitem(last=True)[1]()
        self._timer.stop()

    def clear(self) -> None:
        self._jobs.clear()
        self._timer.stop()

    def _run(self) -> None:
        end = time.perf_counter() + self.slice
        while self._jobs and time.perf_counter() < end:
            _, job = self._jobs.popitem(last=True)
            job()
        if not self._jobs:
            self._timer.stop()
