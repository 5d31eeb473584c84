"""Benchmark: the random-player playouts of every Black Wednesday and Leros scenario, in rounds of seeds.

``python -m engine bench playouts --repeat 50 --json`` plays seed 1 of every scenario, then seed 2 of every
scenario, and so on to ``--repeat`` (default 3): a run cut short still has as many games of each scenario.
Each game is played by the random player (``engine.players.random``, the one ``python -m engine play --bot
random`` uses) and its log replayed to the state hash.  One row per game as it ends (``scenario``, ``seed``,
``ended``, ``seconds`` of the clock, ``cpu_s`` of the process, ``actions``, ``level``, ``replay_same`` or
``error``), then one summary row per scenario (``games``, ``ended``, ``replay_same``, ``median_s``, ``max_s``,
``median_cpu_s``, ``max_cpu_s``: the game alone, its replay not counted).  The scenarios are Black
Wednesday 1-8 and Leros 1, 1a, 2, 3, 4 and 5; ``PLAYOUT_SCENARIOS`` (file stems, comma separated) picks
others.  docs/playouts.md holds a run's table.
"""
from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from ..errors import SandtableError
from ..game import Game, load_rules, replay
from ..players.random import play_random
from . import bw, leros

BW = ("1", "2", "3", "4", "5", "6", "7", "8")


def files() -> list[Path]:
    wanted = [x.strip() for x in os.environ.get("PLAYOUT_SCENARIOS", "").split(",") if x.strip()]
    if wanted:
        return [bw.ROOT / f"{w}.toml" for w in wanted]
    scenarios = [p for p in sorted(bw.ROOT.glob("black-wednesday-*.toml")) if p.stem.split("-")[2] in BW]
    return scenarios + [p for p in sorted(bw.ROOT.glob("leros-*.toml")) if p.stem.split("-")[1] in leros.DEFAULT]


def one_game(rules, path: Path, seed: int) -> dict:
    """One random-player game of ``path`` and its replay: a per-game row."""
    game = Game(rules, seed, str(path))
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        play_random(game, seed)
    except (SandtableError, ValueError, KeyError) as e:       # a ruleset's bug: reported, the run goes on
        return {"scenario": path.stem, "seed": seed, "ended": False, "seconds": round(time.perf_counter() - t0, 2),
                "actions": len(game.log), "error": f"{type(e).__name__}: {e}"[:300]}
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    same = replay(rules, seed, game.actions_text(), str(path)).hash() == game.hash()
    return {"scenario": path.stem, "seed": seed, "ended": game.is_over(), "seconds": round(seconds, 2),
            "cpu_s": round(cpu, 2), "actions": len(game.log), "level": game.outcome().reason, "replay_same": same}


def run(args):
    """Yields each game's row as it ends, then the summary rows."""
    n = args.repeat or 3
    paths = files()
    rules = {p: load_rules(str(p)) for p in paths}
    rows: dict = {p.stem: [] for p in paths}
    for seed in range(1, n + 1):
        for p in paths:
            row = one_game(rules[p], p, seed)
            rows[p.stem].append(row)
            yield row
    for p in paths:
        yield summary(p.stem, rows[p.stem])


def summary(stem: str, games: list[dict]) -> dict:
    """A scenario's line of the table: games run, ended, replay-hash equal, median and max seconds of ended games."""
    ended = [g["seconds"] for g in games if g["ended"]]
    cpu = [g["cpu_s"] for g in games if g["ended"]]
    errors = [g for g in games if "error" in g]
    out = {"scenario": stem, "games": len(games), "ended": len(ended),
           "replay_same": sum(1 for g in games if g.get("replay_same")),
           "median_s": round(statistics.median(ended), 2) if ended else None,
           "max_s": round(max(ended), 2) if ended else None,
           "median_cpu_s": round(statistics.median(cpu), 2) if cpu else None,
           "max_cpu_s": round(max(cpu), 2) if cpu else None}
    if errors:
        out["errors"] = len(errors)
        out["first_error"] = f"seed {errors[0]['seed']}: {errors[0]['error']}"
    return out
