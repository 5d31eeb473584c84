"""Benchmark: the strong Demyansk player against itself, the CPU of a whole game and the time of its phases.

For each scenario (II, the campaign, and I, "Trapped!") the strong player
plays both sides of seeded games (seeds 1 to ``--repeat``, default 2).  One
row per scenario: ``cpu_s_median`` and ``cpu_s_max``, the processor seconds
of one game (the process's CPU time, so a busy machine changes it less than
the clock); ``phase_median_s`` and ``phase_max_s`` over every phase the
player played (all its decisions of a phase, as ``balance`` times them);
and each game's final state hash, which must not change when the player is
only made faster.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

DEFAULT_REPEAT = 2
ROOT = Path(__file__).resolve().parents[2] / "scenarios"
SCENARIOS = ("demyansk-2-campaign.toml", "demyansk-1-trapped.toml")


def play(scenario: str, seed: int) -> tuple[float, list[float], str]:
    """One strong-strong game: (its CPU seconds, the seconds of each phase, its final state hash)."""
    from ..computer import side_to_act
    from ..players.match import MAX_ACTIONS, player_for
    from ..scenario.newgame import new_game

    c0 = time.process_time()
    game = new_game(scenario, seed)
    rules = game.rules
    choosers = {s: player_for("strong", rules, s, seed)[0] for s in ("german", "soviet")}
    phases: list[float] = []
    current, started = None, 0.0
    n = 0
    while not game.is_over() and n < MAX_ACTIONS:
        st = game.state
        side = side_to_act(rules, st)
        key = (st.turn, st.phase, side)
        now = time.perf_counter()
        if key != current:
            if current is not None:
                phases.append(now - started)
            current, started = key, now
        game.play(choosers[side](st))
        n += 1
    if current is not None:
        phases.append(time.perf_counter() - started)
    return time.process_time() - c0, phases, game.hash()


def run(args) -> list[dict]:
    repeat = args.repeat or DEFAULT_REPEAT
    rows = []
    for name in SCENARIOS:
        cpu, phases, hashes = [], [], []
        for seed in range(1, repeat + 1):
            c, p, h = play(str(ROOT / name), seed)
            cpu.append(c)
            phases += p
            hashes.append(h[:12])
        rows.append({"scenario": name, "games": repeat, "cpu_s_median": round(statistics.median(cpu), 2),
                     "cpu_s_max": round(max(cpu), 2), "phase_median_s": round(statistics.median(phases), 4),
                     "phase_max_s": round(max(phases), 3), "phases": len(phases), "hashes": ",".join(hashes)})
    return rows
