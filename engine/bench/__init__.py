"""Benchmarks: each module ``WHAT.py`` has ``run(args) -> list[dict]`` (``python -m engine bench WHAT``)."""
from __future__ import annotations

import statistics
import time


def median_ms(fn, repeat: int, digits: int = 3) -> float:
    """The median wall-clock time of ``repeat`` calls of ``fn``, in milliseconds rounded to ``digits``."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000.0, digits)
