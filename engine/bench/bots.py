"""Benchmark: how long a computer player takes over one phase of Demyansk, against the baseline.

For each scenario (II, the campaign, and I, "Trapped!") and each side, the
strong player plays one whole seeded game against the baseline; every phase
it plays (all its decisions from the phase's first action to its last,
retreats and advances it chooses included) is timed.  One row per scenario
and side: ``median_s`` and ``max_s`` of its phases, ``phases`` timed, and
the baseline's median for comparison.  ``--repeat N`` plays N seeds each.
"""
from __future__ import annotations

import statistics
from pathlib import Path

DEFAULT_REPEAT = 1
ROOT = Path(__file__).resolve().parents[2] / "scenarios"
SCENARIOS = ("demyansk-2-campaign.toml", "demyansk-1-trapped.toml")


def run(args) -> list[dict]:
    from ..players.match import play_game

    repeat = args.repeat or DEFAULT_REPEAT
    rows = []
    for name in SCENARIOS:
        for strong_side, other in (("german", "soviet"), ("soviet", "german")):
            strong, base = [], []
            for seed in range(1, repeat + 1):
                r = play_game(str(ROOT / name), seed, {strong_side: "strong", other: "baseline"})
                strong += r.phase_seconds["strong"]
                base += r.phase_seconds["baseline"]
            rows.append({"scenario": name, "strong_side": strong_side, "median_s": round(statistics.median(strong), 3),
                         "max_s": round(max(strong), 3), "phases": len(strong),
                         "baseline_median_s": round(statistics.median(base), 3), "games": repeat})
    return rows
