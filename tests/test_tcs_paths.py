"""TCS 5.0: a unit moves hex by hex; the engine finds the cheapest legal path to a hex it can reach and judges a
traced path before any of it is played (engine/rulesets/tcs/paths.py)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import IllegalAction
from test_tcs_action import at_red_action


def hexes(g, *ids):
    return [g.rules.board.parse_hex(h) for h in ids]


def tank_with_one_mp_left():
    """T-1 (tracked, 12 MPs) in B01.05 with 1 MP left: the road to B03.05 costs 1/2 + 1/2, the clear hexes 1 each."""
    g = at_red_action()
    g.state.units["T-1"].mp_used = Fraction(11)
    return g


def test_5_0_the_cheapest_legal_path_is_the_road_when_the_traced_one_is_dearer():
    g = tank_with_one_mp_left()
    r, st = g.rules, g.state
    traced = hexes(g, "B01.05", "B02.04", "B03.05")           # across the clear: 1 + 1 MPs
    with pytest.raises(IllegalAction, match=r"TCS 5.0: T-1 has 0 MPs left; B03.05 costs 1 \(after 1 of 2 hexes\)"):
        r.check_path(st, "T-1", traced)
    path = r.cheapest_path(st, "T-1", hexes(g, "B03.05")[0])
    assert path == hexes(g, "B01.05", "B02.05", "B03.05")     # along the road: 1/2 + 1/2
    assert r.check_path(st, "T-1", path) == Fraction(1)
    reach = r.destinations(st, "T-1")
    assert reach.destinations[path[-1]] == Fraction(1) and reach.path_to(path[-1]) == path
    for a, b in zip(path, path[1:]):                          # the moves themselves accept it, hex by hex
        g.play(f"move T-1 {r.hid(b)}")
    assert g.state.units["T-1"].hex == path[-1] and g.state.units["T-1"].mp_used == Fraction(12)


def test_5_0_the_hexes_reached_are_the_legal_moves_next_door_and_the_refused_neighbours_say_why():
    g = at_red_action()
    r, st = g.rules, g.state
    reach = r.destinations(st, "T-1")
    legal = {a.to for a in g.legal_actions() if a.text().startswith("move T-1 ")}
    near = {r.hid(h) for h in reach.destinations if h in r.board.neighbors(st.units["T-1"].hex)}
    assert near == legal
    woods = hexes(g, "B03.06")[0]
    st.units["T-1"].hex = hexes(g, "B02.06")[0]
    reach = r.destinations(st, "T-1")
    assert woods not in reach.destinations
    assert reach.blocked[woods] == "TCS 5.0: woods is prohibited terrain for tracked units (Terrain Effects Chart)"
    with pytest.raises(IllegalAction, match="woods is prohibited terrain for tracked units"):
        r.cheapest_path(st, "T-1", woods)
    assert all(cost <= r.ma(st, "T-1") for cost in reach.destinations.values())


def test_5_0_no_path_beyond_the_mps_left_and_the_answer_is_the_same_every_time():
    g = tank_with_one_mp_left()
    r, st = g.rules, g.state
    far = hexes(g, "B05.05")[0]
    with pytest.raises(IllegalAction, match="TCS 5.0: T-1 has no legal path to B05.05 with the 1 MPs it has left"):
        r.cheapest_path(st, "T-1", far)
    once, again = r.destinations(st, "T-1"), r.destinations(st, "T-1")
    assert once.destinations == again.destinations and once.came_from == again.came_from
    assert st.units["T-1"].hex == hexes(g, "B01.05")[0] and st.units["T-1"].mp_used == Fraction(11)   # untouched
