"""Demyansk's general rules written as classic data agree with the Python ruleset in scenario I's opening position,
except where a Demyansk special rule accounts for the difference (each listed below with its rule)."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from engine.game import load_rules
from engine.rulesets.demyansk.movement import may_move_now, reach
from engine.rulesets.demyansk.zoc import forget

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / "scenarios" / "demyansk-1-trapped.toml")
CLASSIC = str(ROOT / "scenarios" / "demyansk-1-classic.toml")
MOVEMENT = ("german-mechanized-movement", "german-movement", "soviet-hq-movement", "soviet-movement")

# Demyansk 6.2: Soviet zones of control do not extend into fortification hexes, so German infantry move from
# fortification to fortification past Soviet units.  The classic data cannot say "a ZOC does not extend into this
# terrain for infantry of one side only"; these German units in the German movement phase reach other hexes.
DIFFERENCES = {("german-movement", uid): "Demyansk 6.2" for uid in (
    "ger-12-27", "ger-12-48", "ger-12-89", "ger-ir-415", "ger-ir-416", "ger-290-501", "ger-290-502", "ger-290-503",
    "ger-30-6", "ger-30-26", "ger-30-46", "ger-32-4", "ger-32-94", "ger-32-96", "ger-ir-418")}


@pytest.fixture(scope="module")
def both():
    return load_rules(PYTHON), load_rules(CLASSIC)


def opening(py, cl, phase):
    s = py.initial_state(1).copy()
    s.phase = phase
    py._begin_phase(s, [])
    forget(s)
    c = cl.initial_state(1)
    c.phase = phase
    cl._begin_phase(c, [])
    return s, c


def movement_differences(py, cl) -> tuple[dict, int]:
    diff, compared = {}, 0
    for phase in MOVEMENT:
        s, c = opening(py, cl, phase)
        for uid in py.order:
            moves_py, moves_cl = may_move_now(py, s, uid) is None, cl.may_move(c, uid) is None
            if moves_py != moves_cl:
                diff[(phase, uid)] = "who moves"
                continue
            if not moves_py:
                continue
            compared += 1
            a = {py.map.hex_id(h): cost for h, cost in reach(py, s, uid).destinations.items()}
            b = {cl.map.hex_id(h): cost for h, cost in cl.reach(c, uid).destinations.items()}
            if a != b:
                diff[(phase, uid)] = sorted(set(a) ^ set(b))
    return diff, compared


def test_every_units_destinations_and_costs_agree_but_for_the_listed_special_rule(both):
    py, cl = both
    diff, compared = movement_differences(py, cl)
    assert compared == 80                      # every unit that may move in one of the four movement phases
    assert set(diff) == set(DIFFERENCES), {k: v for k, v in diff.items() if k not in DIFFERENCES}
    assert all(isinstance(v, list) and v for v in diff.values())       # destinations differ, never who moves


def test_the_differences_vanish_when_the_special_rule_is_set_aside(both):
    py, cl = both
    forts = py.map.forts
    py.map.forts = frozenset()                  # Demyansk 6.2 set aside: Soviet ZOC extends into fortifications
    try:
        diff, _ = movement_differences(py, cl)
    finally:
        py.map.forts = forts
    assert diff == {}


def test_every_possible_battles_odds_agree(both):
    py, cl = both
    compared = 0
    for phase in ("german-combat", "soviet-combat"):
        s, c = opening(py, cl, phase)
        side = phase.split("-")[0]
        occ = {u.hex: uid for uid, u in s.units.items() if u.status == "map"}
        for d in py.order:
            u = s.units[d]
            if u.status != "map" or py.specs[d].side == side:
                continue
            near = [occ[h] for h in py.map.neighbors[u.hex]
                    if h in occ and py.specs[occ[h]].side == side and py.specs[occ[h]].attack > 0]
            for k in range(1, min(6, len(near)) + 1):
                for group in combinations(near, k):
                    compared += 1
                    a, b = py.odds(s, d, group), cl.odds(c, d, group)
                    assert (a.column, a.attack, a.defense) == (b.column, b.attack, b.defense), (d, group, a, b)
    # Demyansk 6.5 (divisional integrity), 8.1 (HQ command) and 8.2 (paradrops) change no battle of the opening
    assert compared == 24


def test_the_moves_benchmark_reports_the_classic_rules_on_the_demyansk_map():
    from engine.bench.moves import _classic

    row = _classic(1)
    assert row["classic_units"] == 70 and row["classic_destinations"] == 1666
    assert row["classic_moves_ms"] > 0 and row["demyansk_i_moves_ms"] > 0
