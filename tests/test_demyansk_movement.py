"""Demyansk 5, 5.1, 5.2, 5.3, 6.2, 7.1, 7.2, 8.1, 8.3, 8.4: movement, rule by rule."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.demyansk.actions import Move
from test_demyansk_fixtures import board, hexes, rules, state_in, unit


def dests(r, st, uid):
    reach = r.destinations(st, uid)
    return {r.map.hex_id(h): c for h, c in reach.destinations.items()}


def refusal(r, st, text):
    with pytest.raises(IllegalAction) as e:
        r.apply(st, r.parse_action(text))
    return e.value


def test_5_clear_hexes_cost_one_each():
    r = rules([unit("g", "german", "4-4-2", "0505")])
    st = state_in(r, "german-movement")
    d = dests(r, st, "g")
    assert d["0504"] == 1 and d["0503"] == 2 and d["0705"] == 2
    assert "0502" not in d and len(d) == 18          # every hex within 2, none further


def test_tec_woods_cost_two_and_rough_three():
    b = board({"0504": "woods", "0506": "rough"})
    r = rules([unit("g", "german", "4-4-3", "0505")], board=b)
    d = dests(r, state_in(r, "german-movement"), "g")
    assert d["0504"] == 2 and d["0503"] == 3 and d["0506"] == 3 and d["0507"] == 3  # around the rough


def test_8_3_light_infantry_pay_one_for_woods():
    b = board({"0504": "woods", "0503": "woods"})
    r = rules([unit("j", "german", "7-6-2", "0505", type="light_infantry")], board=b)
    d = dests(r, state_in(r, "german-movement"), "j")
    assert d["0504"] == 1 and d["0503"] == 2


def test_tec_crossing_a_river_hexside_costs_two_more():
    b = board(rivers=[("0505", "0504"), ("0604", "0504"), ("0404", "0504")])
    r = rules([unit("g", "german", "4-4-4", "0505")], board=b)
    d = dests(r, state_in(r, "german-movement"), "g")
    assert d["0504"] == 3          # 1 clear + 2 river, from every side
    assert d["0604"] == 1 and d["0503"] == 3   # round by 0403: no river


def test_5_a_unit_may_always_move_at_least_one_hex():
    b = board({"0504": "rough", "0503": "clear"})
    r = rules([unit("g", "german", "1-1-2", "0505")], board=b)
    d = dests(r, state_in(r, "german-movement"), "g")
    assert d["0504"] == 3 and "0503" not in d       # the one hex, not a step further


def test_5_1_no_unit_enters_an_enemy_hex():
    r = rules([unit("g", "german", "4-4-4", "0505"), unit("s", "soviet", "4-4-4", "0503")])
    st = state_in(r, "german-movement")
    assert "0503" not in dests(r, st, "g")
    reach = r.destinations(st, "g")
    e = refusal(r, st, "move g 0505-0503")
    assert e.rule == "Demyansk 5"        # out of reach: 0504 is in the Soviet zone of control
    r2 = rules([unit("g", "german", "4-4-4", "0505"), unit("s", "soviet", "4-4-4", "0504")])
    st2 = state_in(r2, "german-movement")
    e = refusal(r2, st2, "move g 0505-0504")
    assert e.rule == "Demyansk 5.1" and "enemy unit" in e.message


def test_5_2_a_unit_entering_an_enemy_zone_of_control_stops():
    r = rules([unit("g", "german", "4-4-4", "0505"), unit("s", "soviet", "4-4-4", "0503")])
    st = state_in(r, "german-movement")
    d = dests(r, st, "g")
    assert d["0504"] == 1 and d["0403"] == 2 and d["0603"] == 2    # into the zone, then stop
    assert "0502" not in d          # 3 MP through 0403 if the zone did not stop it; 6 around it
    assert d["0402"] == 4 and d["0602"] == 4                        # reached round the zone


def test_5_2_soviet_units_may_never_leave_a_german_zone_of_control():
    r = rules([unit("g", "german", "4-4-4", "0505"), unit("s", "soviet", "4-4-4", "0504")])
    st = state_in(r, "soviet-movement")
    assert dests(r, st, "s") == {}
    e = refusal(r, st, "move s 0504-0503")
    assert e.rule == "Demyansk 5.2" and "never leave" in e.message


def test_7_1_german_withdrawal_costs_half_the_ma_and_enters_no_other_soviet_zone():
    r = rules([unit("g", "german", "4-4-6", "0505"), unit("s", "soviet", "4-4-4", "0504"),
               unit("s2", "soviet", "4-4-4", "0707")])
    st = state_in(r, "german-movement")
    d = dests(r, st, "g")
    assert d["0506"] == 4                       # 3 (half of 6) + 1 clear
    assert "0606" not in d and "0706" not in d  # in the ZOC of s2 (0707)
    assert "0604" not in d                      # still in the ZOC of s
    e = refusal(r, st, "move g 0505-0604")
    assert e.rule == "Demyansk 7.1"


def test_6_2_german_infantry_move_fortification_to_fortification_past_soviets():
    feats = {"0505": {"fortification"}, "0506": {"fortification"}, "0507": {"fortification"}}
    b = board(features=feats)
    r = rules([unit("g", "german", "3-4-6", "0505"), unit("s", "soviet", "4-4-4", "0605")], board=b)
    st = state_in(r, "german-movement")
    d = dests(r, st, "g")
    assert d["0506"] == 1 and d["0507"] == 2     # Soviet ZOC does not extend into the forts
    r = rules([unit("m", "german", "4-3-6", "0505", type="mechanized"), unit("s", "soviet", "4-4-4", "0605")],
              board=b)
    m = dests(r, state_in(r, "german-movement"), "m")
    assert "0506" not in m and m["0504"] == 4    # not infantry: it withdraws (7.1) from the fort


def test_5_3_units_pass_through_friends_but_do_not_end_on_them():
    r = rules([unit("g", "german", "4-4-2", "0505"), unit("f", "german", "4-4-2", "0504")])
    st = state_in(r, "german-movement")
    d = dests(r, st, "g")
    assert "0504" not in d and d["0503"] == 2
    e = refusal(r, st, "move g 0505-0504")
    assert e.rule == "Demyansk 5.3"


def test_3_and_8_4_who_moves_in_which_phase():
    r = rules([unit("i", "german", "4-4-6", "0202"), unit("m", "german", "10-9-8", "0303", type="motorized"),
               unit("q", "soviet", "0-1-4", "0808", type="headquarters"), unit("s", "soviet", "4-4-4", "0908")])
    st = state_in(r, "german-mechanized-movement")
    e = refusal(r, st, "move i 0202-0203")
    assert e.rule == "Demyansk 8.4"
    st, _ = r.apply(st, Move("m", "0304", "0303"))
    e = refusal(r, st, "move m 0304-0305")
    assert e.rule == "Demyansk 5" and "already moved" in e.message
    st = state_in(r, "german-movement")
    r.apply(st, Move("m", "0304", "0303"))          # moves again in the movement phase (3.4)
    st = state_in(r, "soviet-hq-movement")
    assert refusal(r, st, "move s 0908-0907").rule == "Demyansk 3"
    r.apply(st, Move("q", "0807", "0808"))
    st = state_in(r, "soviet-movement")
    assert refusal(r, st, "move q 0808-0807").rule == "Demyansk 3"
    r.apply(st, Move("s", "0907", "0908"))


def test_7_2_out_of_supply_pocket_units_have_half_ma_rounded_up():
    wall = [unit(f"s{i}", "soviet", "1-1-4", f"03{i:02d}") for i in (1, 3, 5, 7)]   # the pocket east of it is cut off
    r = rules([unit("p", "german", "3-4-7", "0505", pocket=True), unit("w", "german", "3-4-7", "0104"), *wall])
    st = state_in(r, "german-movement")
    st.pocket_supplied = False
    assert r.destinations(st, "p").allowance == 4          # 7 halved, rounded up (errata)
    assert r.destinations(st, "w").allowance == 7


def test_8_1_soviet_units_outside_command_radius_lose_one_ma():
    q = unit("q", "soviet", "0-1-3", "0101", type="headquarters")
    r = rules([q, unit("in", "soviet", "4-4-4", "0302"), unit("out", "soviet", "4-4-4", "0808")])
    st = state_in(r, "soviet-movement")
    assert r.destinations(st, "in").allowance == 4
    reach = r.destinations(st, "out")
    assert reach.allowance == 3 and any("8.1" in n for n in reach.notes)


def test_8_1_radius_is_scenario_data():
    q = unit("q", "soviet", "0-1-3", "0101", type="headquarters", command_radius=12)
    r = rules([q, unit("out", "soviet", "4-4-4", "0808")])
    assert r.destinations(state_in(r, "soviet-movement"), "out").allowance == 4


def test_blocked_neighbours_say_why():
    b = board({"0504": "lake"})
    r = rules([unit("g", "german", "4-4-4", "0505"), unit("s", "soviet", "4-4-4", "0605"),
               unit("f", "german", "4-4-4", "0404")], board=b)
    reach = r.destinations(state_in(r, "german-movement"), "g")
    why = {r.map.hex_id(h): w for h, w in reach.blocked.items()}
    assert why["0605"].startswith("Demyansk 5.1")
    assert why["0404"].startswith("Demyansk 5.3")
    assert "lake" in why["0504"]
