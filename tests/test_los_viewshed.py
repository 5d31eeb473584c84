"""The vectorized viewshed gives the same answer as a loop of single exact queries, hex for hex."""
from __future__ import annotations

import math
import random

import pytest

from engine.maps.board import Obstacle
from engine.maps.hexes import FLAT, POINTY, hex_distance
from engine.los.model import SightMap
from engine.los.rules import DEFAULT_LOS_RULES
from engine.los.viewshed import viewshed, viewshed_by_loop

from test_los import blob, open_board


def rough_board(orientation: str, seed: int):
    """Hills, whole-hex towns and woods, a bog, traced woods and buildings of odd shapes."""
    rng = random.Random(seed)
    board = open_board(16, 12, orientation)
    hexes = board.hexes()
    for h in hexes:
        x, y = board.center(h)
        board.elevation[h] = float(10 * round(2 + 1.5 * math.sin(x / 5.0) + math.cos(y / 4.0)))
        roll = rng.random()
        board.terrain[h] = "town" if roll < 0.05 else "bog" if roll < 0.1 else "forest" if roll < 0.15 else "clear"
    for _ in range(30):
        h = rng.choice(hexes)
        cx, cy = board.center(h)
        cx, cy = cx + rng.uniform(-0.6, 0.6), cy + rng.uniform(-0.6, 0.6)
        n = rng.randint(4, 9)
        rad = rng.uniform(0.2, 1.1)
        pts = [(cx + rad * rng.uniform(0.5, 1) * math.cos(2 * math.pi * (i + rng.uniform(-0.3, 0.3)) / n),
                cy + rad * rng.uniform(0.5, 1) * math.sin(2 * math.pi * (i + rng.uniform(-0.3, 0.3)) / n))
               for i in range(n)]
        board.obstacles.append(Obstacle(rng.choice(("woods", "building")), rng.choice((5.0, 10.0, 20.0)), pts))
    return board


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
@pytest.mark.parametrize("edge_rule", ["both", "either"])
def test_viewshed_agrees_with_single_queries_on_every_hex(orientation, edge_rule):
    board = rough_board(orientation, seed=11 if orientation == FLAT else 12)
    sm = SightMap(board, DEFAULT_LOS_RULES.with_options(edge_rule=edge_rule))
    rng = random.Random(3)
    hexes = board.hexes()
    smoke = {rng.choice(hexes): ["smoke"] for _ in range(3)}
    total_visible = 0
    for observer in rng.sample(hexes, 3):
        for kw in ({"observer_height": 2.0}, {"observer_height": 0.0, "target_height": 3.0, "markers": smoke}):
            fast = viewshed(sm, observer, **kw)
            slow = viewshed_by_loop(sm, observer, **kw)
            assert fast.visible == slow, (observer, kw)
            total_visible += len(fast.visible)
    assert 40 < total_visible < 6 * len(hexes) // 2     # a mix of seen and unseen hexes


def test_lines_that_graze_a_traced_outline_are_decided_exactly():
    board = open_board(12, 10)
    a = board.parse_hex("A02.05")
    # A02.05 -> A10.05 is a level row: one outline has a vertex exactly on that line, another
    # an edge lying along it; both are ambiguous for the bearing arithmetic
    far = board.parse_hex("A10.05")
    (x0, y0), (x1, y1) = board.center(a), board.center(far)
    assert y0 == y1
    board.obstacles.append(Obstacle("woods", 20.0, [(x0 + 2.0, y0), (x0 + 2.5, y0 - 0.8), (x0 + 3.0, y0 - 0.2)]))
    board.obstacles.append(Obstacle("woods", 20.0, [(x0 + 5.0, y0), (x0 + 6.0, y0), (x0 + 5.5, y0 + 0.6)]))
    blob(board, "A07.08", "building", 10.0)
    seen = {}
    for rule in ("both", "either"):
        sm = SightMap(board, DEFAULT_LOS_RULES.with_options(edge_rule=rule))
        fast = viewshed(sm, a)
        assert fast.exact_rechecks >= 1
        assert fast.visible == viewshed_by_loop(sm, a)
        seen[rule] = far in fast.visible
    assert seen == {"both": True, "either": False}      # touching an outline blocks only under "either"


def test_the_visibility_limit_bounds_the_viewshed():
    board = open_board(12, 10)
    sm = SightMap(board)
    a = board.parse_hex("A06.05")
    vs = viewshed(sm, a, visibility_limit=2)
    assert vs.visible == {h for h in board.hexes() if hex_distance(a, h) <= 2}
    assert vs.visible == viewshed_by_loop(sm, a, visibility_limit=2)
    assert len(viewshed(sm, a).visible) == len(board.hexes())     # open ground: everything


def test_an_observer_standing_inside_a_traced_wood_sees_out_of_it():
    board = open_board(12, 10)
    blob(board, "A06.05", "woods", 20.0, radius=0.8)
    blob(board, "A08.05", "woods", 20.0, radius=0.6)
    sm = SightMap(board)
    a = board.parse_hex("A06.05")
    fast = viewshed(sm, a)
    assert fast.visible == viewshed_by_loop(sm, a)
    assert board.parse_hex("A10.05") not in fast.visible and board.parse_hex("A06.09") in fast.visible


def test_viewshed_honours_every_rule_hook_as_the_single_query_does():
    from engine.los.rules import FeatureElevation, KindRule, SeaCentre

    board = rough_board(FLAT, seed=21)
    rng = random.Random(8)
    hexes = board.hexes()
    for h in rng.sample(hexes, 12):
        board.features.setdefault(h, set()).add("rr embankment")
    for h in rng.sample(hexes, 10):
        board.features.setdefault(h, set()).add("pier")
    coast = rng.sample(hexes, 15)
    for h in coast:
        board.features.setdefault(h, set()).add("coast")
        cx, cy = board.center(h)
        board.obstacles.append(Obstacle("sea", 0.0, [(cx - 0.5, cy - 0.5), (cx + 0.5, cy - 0.5), (cx, cy + 0.6)]))
    for h in rng.sample(hexes, 8):
        blob(board, board.hex_id(h), "peat bog", 4.0, radius=0.7)
    rules = DEFAULT_LOS_RULES.with_options(
        fixed_elevation=(FeatureElevation("rr embankment", 80.0, "Black Wednesday 1.2a"),),
        unit_elevation=(FeatureElevation("pier", 5.0, "Leros 1.1e"),),
        sea_centre=SeaCentre("coast", "sea", 0.0, "Leros 1.1e"),
        height_override={"woods": KindRule(5.0, rule="Leros 1.1a")},
        kinds={**DEFAULT_LOS_RULES.kinds, "peat bog": KindRule(protective=True, rule="Black Wednesday 1.1g")})
    sm = SightMap(rules=rules, board=board)
    assert any(sm.stand[i] == 5.0 for i in range(sm.n)) and any(sm.ground[i] == 80.0 for i in range(sm.n))
    for observer in rng.sample(hexes, 3) + coast[:1]:
        assert viewshed(sm, observer, observer_height=1.0).visible == viewshed_by_loop(sm, observer, observer_height=1.0)
