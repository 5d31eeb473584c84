"""Benchmark: random-player games of every Leros scenario (``python -m engine bench leros --repeat 50``).

The same rows as ``bench bw`` (``engine/bench/bw.py``) for ``scenarios/leros-*.toml``: scenarios 1, 1a, 2,
3, 4 and 5 by default; ``LEROS_SCENARIOS=2,c1`` picks others (the campaign starts are ``c1``, ``c4``, ``c5``).
"""
from __future__ import annotations

import os
from pathlib import Path

from .bw import ROOT, random_games

DEFAULT = ("1", "1a", "2", "3", "4", "5")


def files() -> list[Path]:
    only = [x.strip() for x in os.environ.get("LEROS_SCENARIOS", "").split(",") if x.strip()] or list(DEFAULT)
    return [p for p in sorted(ROOT.glob("leros-*.toml")) if p.stem.split("-")[1] in only]


def run(args) -> list[dict]:
    return [random_games(path, args.repeat or 3) for path in files()]
