"""Demyansk 7.2 supply, 7.3 continuous front and 6.2 garrison duty."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.demyansk.actions import Declare, EndPhase, Move
from engine.rulesets.demyansk.supply import continuous_front
from test_demyansk_fixtures import board, rules, state_in, unit


def supply_turn(r, dice, turn=2, mutate=None):
    """Run the German reinforcement phase's supply determination of ``turn`` with the dice given."""
    st = r.initial_state(1, list(dice))
    st.turn = turn
    if mutate:
        mutate(st)
    events = []
    from engine.rulesets.demyansk.supply import determine_supply
    determine_supply(r, st, events)
    return st, events


# A pocket unit at 0805 walled off from the west by Soviet units in column 6.
WALL = [unit("p", "german", "3-4-7", "0805", pocket=True),
        *[unit(f"s{i}", "soviet", "4-5-7", f"06{i:02d}") for i in range(1, 9, 2)]]


def test_7_2_first_turn_supplied_without_a_roll():
    r = rules(WALL)
    st = r.initial_state(1)
    assert st.pocket_supplied and st.turn == 1


def test_7_2_the_supplied_faces_are_an_option_shipped_as_the_even_faces():
    r = rules(WALL)
    assert r.options["air_supply_faces"] == [2, 4, 6]
    st, ev = supply_turn(r, [4])
    assert st.pocket_supplied and st.pocket_attack_limit is None
    st, ev = supply_turn(r, [3, 2])
    assert not st.pocket_supplied and st.pocket_attack_limit == 2
    odd = rules(WALL, options={"air_supply_faces": [1, 3, 5]})
    assert supply_turn(odd, [3])[0].pocket_supplied


def test_7_2_out_of_supply_the_pocket_attacks_only_as_many_soviet_units_as_the_die_says():
    wall = [unit(f"s{i}", "soviet", "1-1-4", f"02{i:02d}") for i in (1, 3, 5, 7)]   # cuts off the west edge
    r = rules([unit("p", "german", "3-4-7", "0505", pocket=True), unit("q", "german", "3-4-7", "0406", pocket=True),
               unit("a", "soviet", "1-1-4", "0504"), unit("b", "soviet", "1-1-4", "0407"), *wall])
    st = state_in(r, "german-combat", turn=3)
    st.pocket_supplied, st.pocket_attack_limit = False, 1
    st, _ = r.apply(st, Declare("a", ("p",)))
    with pytest.raises(IllegalAction) as e:
        r.apply(st, Declare("b", ("q",)))
    assert e.value.rule == "Demyansk 7.2"


def test_7_2_a_soviet_unit_on_the_airfield_cuts_air_supply_until_a_german_retakes_it():
    b = board(features={"0805": {"airfield"}})
    units = [unit("p", "german", "3-4-7", "0804", pocket=True), unit("a", "soviet", "4-4-4", "0906"),
             *[unit(f"s{i}", "soviet", "4-5-7", f"06{i:02d}") for i in range(1, 9, 2)]]
    r = rules(units, board=b)
    st = state_in(r, "soviet-movement")
    st, _ = r.apply(st, Move("a", "0805", "0906"))
    assert st.airfield_soviet
    st2, ev = supply_turn(r, [6, 3], mutate=lambda s: setattr(s, "airfield_soviet", True))
    assert not st2.pocket_supplied and st2.pocket_attack_limit == 6       # no supply roll: the first die is the limit
    assert any("airfield" in e.text for e in ev)
    st = state_in(r, "german-movement")
    st.units["a"].status = "eliminated"
    st.airfield_soviet = True
    st, _ = r.apply(st, Move("p", "0805", "0804"))
    assert not st.airfield_soviet


def test_7_2_a_free_path_to_the_west_supplies_the_pocket_automatically():
    r = rules([unit("p", "german", "3-4-7", "0805", pocket=True), unit("s", "soviet", "4-5-7", "0601")])
    st, ev = supply_turn(r, [1, 1])
    assert st.pocket_linked and st.pocket_supplied and not [e for e in ev if e.kind == "roll"]


def test_7_2_a_path_opened_during_the_turn_supplies_the_pocket_from_the_next_german_phase():
    r = rules(WALL)
    st = state_in(r, "german-reinforcement", turn=3)
    st.pocket_supplied, st.pocket_attack_limit = False, 2
    st.units["s3"].status = "eliminated"                  # the wall opens (say, in combat)
    from engine.rulesets.demyansk.zoc import forget
    forget(st)
    st, ev = r.apply(st, EndPhase())
    assert st.phase == "german-mechanized-movement" and st.pocket_supplied and st.pocket_attack_limit is None


def test_7_2_western_units_cut_off_later_suffer_the_same():
    units = WALL + [unit("w", "german", "3-4-7", "0905")]
    r = rules(units)
    st, ev = supply_turn(r, [1, 5])
    assert st.trapped == ["w"] and not st.pocket_supplied
    st.phase = "german-movement"
    assert r.destinations(st, "w").allowance == 4


def test_7_3_front_from_north_to_south_edge_of_units_and_their_zoc():
    col = [unit(f"g{i}", "german", "3-4-7", f"03{i:02d}") for i in (1, 3, 5, 7)]
    r = rules(col + [unit("s", "soviet", "4-4-4", "0808")])
    st = state_in(r, "german-movement")
    assert continuous_front(r, st)
    r = rules(col[:2] + col[3:] + [unit("s", "soviet", "4-4-4", "0808")])
    assert not continuous_front(r, state_in(r, "german-movement"))


def test_7_3_a_soviet_unit_negates_the_zoc_link_and_a_broken_front_is_recorded():
    col = [unit(f"g{i}", "german", "3-4-7", f"03{i:02d}") for i in (1, 4, 7)]
    r = rules(col + [unit("s", "soviet", "4-4-4", "0808")])
    st = state_in(r, "german-movement")
    assert continuous_front(r, st)
    r = rules(col + [unit("s", "soviet", "4-4-4", "0206"), unit("t", "soviet", "4-4-4", "0305")])
    st = state_in(r, "german-movement")
    assert not continuous_front(r, st)
    st, ev = r.apply(st, EndPhase())
    assert st.front_failures == [1] and any("7.3" in e.text for e in ev)


def test_6_2_every_fortification_hex_must_be_garrisoned_at_the_end_of_german_movement():
    b = board(features={"0505": {"fortification"}})
    r = rules([unit("g", "german", "3-4-7", "0303")], board=b)
    st = state_in(r, "german-movement")
    with pytest.raises(IllegalAction) as e:
        r.apply(st, EndPhase())
    assert e.value.rule == "Demyansk 6.2" and "0505" in e.value.message
    st, _ = r.apply(st, Move("g", "0505", "0303"))
    r.apply(st, EndPhase())


def test_6_2_no_penalty_when_too_few_units_and_none_after_turn_10_in_scenario_ii():
    b = board(features={"0505": {"fortification"}, "0707": {"fortification"}})
    r = rules([unit("g", "german", "3-4-7", "0505")], board=b)
    r.apply(state_in(r, "german-movement"), EndPhase())          # errata: the one unit holds one fort
    r = rules([unit("g", "german", "3-4-7", "0303")], board=b, garrison_until=10)
    r.apply(state_in(r, "german-movement", turn=11), EndPhase())
    with pytest.raises(IllegalAction):
        r.apply(state_in(r, "german-movement", turn=10), EndPhase())


def test_6_2_a_fortification_entered_by_a_soviet_unit_needs_no_garrison():
    b = board(features={"0505": {"fortification"}})
    r = rules([unit("g", "german", "3-4-7", "0303"), unit("s", "soviet", "4-4-4", "0707")], board=b)
    st = state_in(r, "soviet-movement")
    st, _ = r.apply(st, Move("s", "0505", "0707"))
    assert b.parse_hex("0505") in st.forts_lost
    st.units["s"].status = "eliminated"
    st.phase = "german-movement"
    r.apply(st, EndPhase())
