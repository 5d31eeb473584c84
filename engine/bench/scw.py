"""Benchmark: the skirmish's geometry and games: cone membership, laying a gun, one order, a whole bot game."""
from __future__ import annotations

import statistics
from pathlib import Path

import numpy as np

from ..game import Game
from . import median_ms
from ..rulesets.scw import rules_for_path
from ..rulesets.scw.cone import aim, hmg_cone, in_cone
from ..rulesets.scw.headless import play_out

DEFAULT_REPEAT = 9
SCENARIO = Path(__file__).resolve().parent.parent.parent / "scenarios" / "scw-platoon-attack.toml"
COMPANY = SCENARIO.with_name("scw-company-attack.toml")


def run(args) -> list[dict]:
    repeat = getattr(args, "repeat", None) or DEFAULT_REPEAT
    rows = []
    rng = np.random.default_rng(1936)
    cone = hmg_cone((36.0, 6.0), 90.0)
    for n in (16, 1000, 100_000):
        pts = rng.uniform((0.0, 0.0), (72.0, 48.0), size=(n, 2))
        rows.append({"bench": "scw cone membership", "teams": n,
                     "median_ms": median_ms(lambda: in_cone(cone, pts, 1.0), repeat)})
    for n in (16, 200):
        pts = rng.uniform((20.0, 10.0), (52.0, 30.0), size=(n, 2))
        rows.append({"bench": "scw lay a gun", "teams": n,
                     "median_ms": median_ms(lambda: aim((36.0, 6.0), tuple(pts[0]), pts, 1.0), repeat)})
    rules = rules_for_path(SCENARIO)
    company = rules_for_path(COMPANY)
    seeds = iter(range(10_000))

    def one_game(r):
        game = Game(r, next(seeds), r.scenario.path)
        play_out(r, game)
        return game

    orders = []
    rows.append({"bench": "scw bot game", "force": "platoon",
                 "median_ms": median_ms(lambda: orders.append(len(one_game(rules).log)), repeat),
                 "median_orders": statistics.median(orders)})
    orders.clear()
    rows.append({"bench": "scw bot game", "force": "company",
                 "median_ms": median_ms(lambda: orders.append(len(one_game(company).log)), max(3, repeat // 3)),
                 "median_orders": statistics.median(orders)})
    state = rules.initial_state(5)
    rows.append({"bench": "scw one move order", "force": "platoon",
                 "median_ms": median_ms(lambda: rules.apply(state, "move T2 24,39"), repeat)})
    return rows
