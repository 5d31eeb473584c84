"""Benchmark: random-player games of every Black Wednesday scenario (``python -m engine bench bw --repeat 50``).

For each scenario file ``scenarios/black-wednesday-*.toml``, ``--repeat`` seeded games (default 3, seeds 1..N)
are played to their last turn by the random player (``engine.players.random``, the one ``python -m engine play
--bot random`` uses: every side, every chart prompt); each game's log is replayed and must give the same state
hash.  One row per scenario: ``game_s`` (median seconds a game), ``max_s``, ``actions`` (median), the victory
levels reached, ``replay_same`` (games whose replay gave the same hash), ``replay_ok`` (all of them) and
``errors`` (games a ruleset error stopped, with the first message).
``BW_SCENARIOS=1,4`` limits the scenarios.
"""
from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from pathlib import Path

from ..errors import SandtableError
from ..game import Game, load_rules, replay
from ..players.random import play_random

ROOT = Path(__file__).resolve().parent.parent.parent / "scenarios"


def files() -> list[Path]:
    out = sorted(ROOT.glob("black-wednesday-*.toml"))
    only = [x.strip() for x in os.environ.get("BW_SCENARIOS", "").split(",") if x.strip()]
    return [p for p in out if not only or p.stem.split("-")[2] in only]


def random_games(path: Path, n: int) -> dict:
    """``n`` random-player games of one scenario (seeds 1..n), each replayed to its hash: one benchmark row."""
    rules = load_rules(str(path))
    times, actions, levels, same, errors, first = [], [], Counter(), 0, 0, ""
    for seed in range(1, n + 1):
        game = Game(rules, seed, str(path))
        t0 = time.perf_counter()
        try:
            play_random(game, seed)
        except (SandtableError, ValueError, KeyError) as e:     # a ruleset's bug: counted and reported
            errors += 1
            first = first or f"seed {seed}: {type(e).__name__}: {e}"
            continue
        times.append(time.perf_counter() - t0)
        actions.append(len(game.log))
        levels[game.outcome().reason] += 1
        same += replay(rules, seed, game.actions_text(), str(path)).hash() == game.hash()
    row = {"scenario": path.stem, "games": n, "ended": len(times),
           "game_s": round(statistics.median(times), 2) if times else None,
           "max_s": round(max(times), 2) if times else None,
           "actions": int(statistics.median(actions)) if actions else None, "levels": dict(levels),
           "replay_same": same, "replay_ok": same == len(times), "errors": errors}
    if first:
        row["first_error"] = first[:300]
    return row


def run(args) -> list[dict]:
    return [random_games(path, args.repeat or 3) for path in files()]
