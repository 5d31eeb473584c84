"""Benchmark: random-bot games of every Black Wednesday scenario (``python -m engine bench bw --repeat 50``).

For each scenario file ``scenarios/black-wednesday-*.toml``, ``--repeat`` seeded games (default 3) are
played to their last turn by the random bot (every side, every chart prompt); each game's log is replayed
and must give the same state hash.  One row per scenario: ``game_s`` (median seconds a game), ``actions``
(median), the victory levels reached, and ``replay_ok``.  ``BW_SCENARIOS=1,4`` limits the scenarios.
"""
from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from pathlib import Path

from ..game import Game, replay
from ..rulesets.tcs import rules_for_path
from ..rulesets.tcs.headless import play_random

ROOT = Path(__file__).resolve().parent.parent.parent / "scenarios"


def files() -> list[Path]:
    out = sorted(ROOT.glob("black-wednesday-*.toml"))
    only = [x.strip() for x in os.environ.get("BW_SCENARIOS", "").split(",") if x.strip()]
    return [p for p in out if not only or p.stem.split("-")[2] in only]


def run(args) -> list[dict]:
    n = args.repeat or 3
    rows = []
    for path in files():
        rules = rules_for_path(path)
        times, actions, levels, ok = [], [], Counter(), True
        for seed in range(n):
            game = Game(rules, seed, str(path))
            t0 = time.perf_counter()
            play_random(rules, game, seed)
            times.append(time.perf_counter() - t0)
            actions.append(len(game.log))
            levels[game.outcome().reason] += 1
            ok &= replay(rules, seed, game.actions_text(), str(path)).hash() == game.hash()
        rows.append({"scenario": path.stem, "games": n, "game_s": round(statistics.median(times), 2),
                     "actions": int(statistics.median(actions)), "levels": dict(levels), "replay_ok": ok})
    return rows
