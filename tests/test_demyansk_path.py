"""A move along the path the player traced (Demyansk 5, 5.1, 5.2, 5.3, 7.1, TEC), refused with the rule when illegal."""
from __future__ import annotations

import random

import pytest

from engine.errors import IllegalAction
from engine.game import Game
from engine.maps.hexes import hex_distance
from engine.rulesets.demyansk.actions import Move, action_from_dict, parse_action
from test_demyansk_fixtures import board, rules, state_in, unit


def path(r, ids):
    return [r.board.parse_hex(h) for h in ids.split("-")]


def refusal(r, st, ids, uid="g"):
    with pytest.raises(IllegalAction) as e:
        r.check_path(st, uid, path(r, ids))
    return e.value


def test_the_text_form_carries_the_path_both_ways():
    m = parse_action("move g 0505-0504-0503")
    assert m == Move("g", "0503", "0505", ("0504",)) and m.text() == "move g 0505-0504-0503"
    assert action_from_dict(m.to_dict()) == m
    assert parse_action("move g 0505-0503") == Move("g", "0503", "0505")


def test_tec_a_traced_path_pays_its_own_terrain_not_the_cheapest():
    b = board({"0504": "woods"})
    r = rules([unit("g", "german", "4-4-4", "0505")], board=b)
    st = state_in(r, "german-movement")
    assert r.destinations(st, "g").destinations[r.board.parse_hex("0603")] == 2      # round the woods by 0604
    assert r.check_path(st, "g", path(r, "0505-0504-0603")) == 3                      # through them
    new, events = r.apply(st, parse_action("move g 0505-0504-0603"))
    assert r.map.hex_id(new.units["g"].hex) == "0603"
    assert events[0].text == "g moves 0505-0504-0603 (3 MP)"


def test_5_a_path_longer_than_the_allowance_is_refused_with_its_cost():
    b = board({"0504": "rough"})
    r = rules([unit("g", "german", "4-4-3", "0505")], board=b)
    st = state_in(r, "german-movement")
    e = refusal(r, st, "0505-0504-0503")
    assert e.rule == "Demyansk 5" and "costs 4 MP by 0503" in e.message


def test_5_2_a_path_may_not_go_on_after_entering_an_enemy_zone_of_control():
    r = rules([unit("g", "german", "4-4-6", "0505"), unit("s", "soviet", "4-4-4", "0703")])
    st = state_in(r, "german-movement")
    assert r.check_path(st, "g", path(r, "0505-0504-0503")) == 2
    e = refusal(r, st, "0505-0604-0603-0503")          # 0603 is next to the Soviet unit: the move stops there
    assert e.rule == "Demyansk 5.2" and "0603" in e.message


def test_5_1_a_path_through_an_enemy_unit_is_refused():
    r = rules([unit("g", "german", "4-4-6", "0505"), unit("s", "soviet", "4-4-4", "0504")])
    st = state_in(r, "german-movement")
    assert refusal(r, st, "0505-0504").rule == "Demyansk 5.1"


def test_5_3_a_path_passes_through_a_friendly_unit():
    r = rules([unit("g", "german", "4-4-6", "0505"), unit("h", "german", "4-4-6", "0504")])
    st = state_in(r, "german-movement")
    assert r.check_path(st, "g", path(r, "0505-0504-0503")) == 2


def test_5_a_path_jumping_a_hex_is_refused():
    r = rules([unit("g", "german", "4-4-6", "0505")])
    st = state_in(r, "german-movement")
    e = refusal(r, st, "0505-0503")
    assert e.rule == "Demyansk 5" and "not adjacent" in e.message


def test_7_1_a_withdrawing_unit_pays_half_and_avoids_other_zones_of_control():
    r = rules([unit("g", "german", "4-4-6", "0505"), unit("s", "soviet", "4-4-4", "0605")])
    st = state_in(r, "german-movement")
    assert r.check_path(st, "g", path(r, "0505-0405-0305")) == 5    # 3 to leave + 1 + 1
    e = refusal(r, st, "0505-0506-0406")                               # 0506 is also next to the Soviet unit
    assert e.rule == "Demyansk 7.1"


def test_every_legal_random_path_costs_at_least_the_cheapest_and_ends_on_a_legal_destination():
    """Random walks from several units: a path the rules accept never beats the cheapest cost and lands legally."""
    b = board({"0404": "woods", "0606": "rough", "0303": "woods"}, rivers=[("0505", "0504")])
    r = rules([unit("g", "german", "4-4-6", "0505"), unit("h", "german", "4-4-4", "0302"),
               unit("s", "soviet", "4-4-4", "0808")], board=b)
    st = state_in(r, "german-movement")
    rng = random.Random(5)
    accepted = 0
    for uid in ("g", "h"):
        reach = r.destinations(st, uid)
        for _ in range(300):
            walk = [st.units[uid].hex]
            for _ in range(rng.randint(1, 6)):
                walk.append(rng.choice(r.map.neighbors[walk[-1]]))
            try:
                cost = r.check_path(st, uid, walk)
            except IllegalAction as e:
                assert e.rule.startswith("Demyansk") or e.message
                continue
            accepted += 1
            assert walk[-1] in reach.destinations and cost >= reach.destinations[walk[-1]]
            assert all(hex_distance(a, c) == 1 for a, c in zip(walk, walk[1:]))
    assert accepted > 50


def test_a_game_with_a_traced_move_replays_the_same(tmp_path):
    from engine.game import read_save, replay

    r = rules([unit("g", "german", "4-4-4", "0505")], board=board({"0504": "woods"}))
    g = Game(r, 2)
    while g.state.phase != "german-movement":
        g.play("end")
    g.play("move g 0505-0504-0603")
    assert g.log[-1].events[0].text == "g moves 0505-0504-0603 (3 MP)"
    g.save(tmp_path / "game.toml")
    again = replay(r, 2, read_save(tmp_path / "game.toml", need_scenario=False)["actions"])
    assert again.hash() == g.hash() and again.actions_text()[-1] == "move g 0505-0504-0603"
