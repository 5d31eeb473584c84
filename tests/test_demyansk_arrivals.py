"""Demyansk 8.2 parachute drops, 9.1 reinforcements, 9.3 withdrawals and victory, 3 the sequence of play."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.demyansk.actions import Declare, Drop, EndPhase, Enter, Resolve, Withdraw
from engine.rulesets.demyansk.state import PHASES
from test_demyansk_fixtures import board, rules, state_in, unit

POCKET = [f"{c:02d}{r:02d}" for c in range(5, 9) for r in range(2, 7)]
HQ = unit("hq", "soviet", "0-1-4", "1001", type="headquarters", command_radius=20)


def para(uid="para", **kw):
    return unit(uid, "soviet", "3-2-5", None, type="airborne", arrives=2, **kw)


def refused(r, st, action):
    with pytest.raises(IllegalAction) as e:
        r.apply(st, action)
    return e.value


def test_8_2_drops_from_turn_2_into_clear_hexes_inside_the_perimeter():
    b = board({"0604": "woods"}, pocket=POCKET)
    r = rules([HQ, para(), unit("g", "german", "3-4-7", "0505")], board=b)
    assert refused(r, state_in(r, "soviet-reinforcement", turn=1), Drop("para", "0603")).rule == "Demyansk 8.2"
    st = state_in(r, "soviet-reinforcement", turn=2)
    assert "perimeter" in refused(r, st, Drop("para", "0303")).message
    assert "clear" in refused(r, st, Drop("para", "0604")).message
    st, ev = r.apply(st, Drop("para", "0603"))
    assert r.map.hex_id(st.units["para"].hex) == "0603" and not [e for e in ev if e.kind == "roll"]
    assert refused(r, st, Drop("para", "0703")).rule == "Demyansk 8.2"       # only once


def test_8_2_landing_on_a_german_unit_needs_an_adjacent_soviet_unit_and_survives_on_5_or_6():
    b = board(pocket=POCKET)
    units = [HQ, para(), unit("g", "german", "3-4-7", "0505"), unit("s", "soviet", "4-4-4", "0504")]
    r = rules(units[:3], board=b)
    assert "adjacent" in refused(r, state_in(r, "soviet-reinforcement", turn=2), Drop("para", "0505")).message
    r = rules(units, board=b)
    st, ev = r.apply(state_in(r, "soviet-reinforcement", turn=2, dice=[4]), Drop("para", "0505"))
    assert st.units["para"].status == "eliminated"
    st, ev = r.apply(state_in(r, "soviet-reinforcement", turn=2, dice=[5]), Drop("para", "0505"))
    assert st.units["para"].status == "map" and st.units["para"].landed_on == "g"
    # it must attack that unit, adds its strength and shifts the odds one (8.2)
    for ph in ("soviet-hq-movement", "soviet-combat"):
        st, _ = r.apply(st, EndPhase())
    assert refused(r, st, Declare("g", ("s",))).rule == "Demyansk 8.2"
    st2, ev = r.apply(st, Declare("g", ("s", "para")))
    from engine.rulesets.demyansk.combat import battle_odds
    o = battle_odds(r, st, "g", ("s", "para"))
    assert (o.attack, o.defense, o.ratio, o.label) == (7, 4, 1, "2:1") and "8.2" in o.shift


def test_8_2_a_drop_in_or_next_to_the_antiaircraft_battalion_is_destroyed():
    b = board(pocket=POCKET)
    r = rules([HQ, para(), unit("aa", "german", "1-3-8", "0704", type="antiaircraft")], board=b)
    st, ev = r.apply(state_in(r, "soviet-reinforcement", turn=2), Drop("para", "0703"))
    assert st.units["para"].status == "eliminated" and "antiaircraft" in ev[-1].text


def test_8_2_from_turn_3_the_brigades_may_enter_on_the_east_edge():
    r = rules([HQ, para()])
    assert refused(r, state_in(r, "soviet-reinforcement", turn=2), Enter("para", "1004")).rule == "Demyansk 8.2"
    st, _ = r.apply(state_in(r, "soviet-reinforcement", turn=3), Enter("para", "1004"))
    assert r.map.hex_id(st.units["para"].hex) == "1004"


def test_9_1_reinforcements_enter_on_their_edge_never_in_enemy_hex_or_zoc_and_pay_the_entry_cost():
    b = board({"0104": "woods"})
    r = rules([unit("w", "german", "3-4-7", None, arrives=3), unit("s", "soviet", "4-4-4", "0202")], board=b)
    st = state_in(r, "german-reinforcement", turn=3)
    assert refused(r, st, Enter("w", "0505")).rule == "Demyansk 9.1"          # not the west edge
    assert "zone of control" in refused(r, st, Enter("w", "0102")).message
    assert refused(r, state_in(r, "german-reinforcement", turn=2), Enter("w", "0104")).rule == "Demyansk 9.1"
    st, _ = r.apply(st, Enter("w", "0104"))
    assert st.units["w"].entry_mp == 2
    st.phase = "german-movement"
    assert r.destinations(st, "w").allowance == 5


def test_9_3_withdrawing_divisions_may_not_attack_and_cost_a_vp_per_turn_late():
    r = rules([HQ, unit("m", "german", "10-9-8", "0505", type="motorized", division="18M", withdraw_turn=10),
               unit("s", "soviet", "1-1-4", "0504")], withdrawals=True, turns=18)
    st = state_in(r, "german-combat", turn=10)
    assert refused(r, st, Declare("s", ("m",))).rule == "Demyansk 9.3"
    st = state_in(r, "soviet-movement", turn=11)
    st, ev = r.apply(st, EndPhase())
    assert st.withdrawal_vp == 1
    st = state_in(r, "german-movement", turn=9)
    st, ev = r.apply(st, Withdraw("m"))
    assert st.units["m"].status == "withdrawn"


def test_9_2_victory_is_an_open_line_from_the_pocket_to_the_west_edge():
    units = [unit("p", "german", "3-4-7", "0805", pocket=True),
             *[unit(f"s{i}", "soviet", "4-5-7", f"06{i:02d}") for i in range(1, 9, 2)]]
    r = rules(units, turns=1)
    st = state_in(r, "soviet-movement")
    st, ev = r.apply(st, EndPhase())
    assert st.over and r.outcome(st).winner == "soviet"
    r = rules(units[:3], turns=1)
    st, _ = r.apply(state_in(r, "soviet-movement"), EndPhase())
    out = r.outcome(st)
    assert out.winner == "german" and out.breakdown["pocket units with a free line to the west"] == 1


def test_9_3_victory_points_with_their_breakdown():
    units = [unit("inf", "german", "3-4-7", "0102"), unit("gun", "german", "2-4-6", "0104", type="assault_gun"),
             unit("dead", "german", "3-4-7", "0106"), unit("deadm", "german", "4-3-6", "0108", type="mechanized"),
             unit("p", "german", "3-4-7", "0805", pocket=True),
             *[unit(f"s{i}", "soviet", "4-5-7", f"06{i:02d}") for i in range(1, 9, 2)]]
    r = rules(units, turns=1, victory="points")
    st = state_in(r, "soviet-movement")
    for uid in ("dead", "deadm"):
        st.units[uid].status, st.units[uid].destroyed_in_combat = "eliminated", True
    st.front_failures = [1]
    st, ev = r.apply(st, EndPhase())
    out = r.outcome(st)
    assert out.breakdown["soviet"] == {"non-infantry destroyed (3 each)": 3, "infantry destroyed (1 each)": 1,
                                       "east of the front at the end (as destroyed)": 1,
                                       "turns without a continuous front (1 each)": 1,
                                       "withdrawing units left on the map (1 per unit-turn)": 0}
    assert out.breakdown["german"] == {"units in or west of the front (2 each)": 4}
    assert (out.breakdown["soviet total"], out.breakdown["german total"], out.winner) == (6, 4, "soviet")


def test_3_the_eight_phases_come_in_order_and_the_turn_advances():
    r = rules([unit("g", "german", "3-4-7", "0303")], turns=2)
    st = r.initial_state(1)
    seen = [st.phase]
    for _ in range(8):
        st, _ = r.apply(st, EndPhase())
        seen.append(st.phase)
    assert seen == list(PHASES) + ["german-reinforcement"] and st.turn == 2


def test_3_a_pending_choice_blocks_everything_else():
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504")])
    st = state_in(r, "soviet-combat", dice=[1])
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, _ = r.apply(st, Resolve("d"))
    assert st.pending and st.pending[0]["side"] == "german"
    assert refused(r, st, EndPhase()).rule == "Demyansk 6.7"


def test_8_2_errata_a_brigade_is_at_full_strength_on_its_drop_turn_then_under_the_hq_rule():
    b = board(pocket=POCKET)
    far_hq = unit("hq", "soviet", "0-1-1", "1008", type="headquarters")
    r = rules([far_hq, para(), unit("g", "german", "1-1-7", "0604")], board=b)
    st, _ = r.apply(state_in(r, "soviet-reinforcement", turn=2), Drop("para", "0603"))
    for _ in range(2):
        st, _ = r.apply(st, EndPhase())
    assert st.phase == "soviet-combat" and st.units["para"].out_of_command
    from engine.rulesets.demyansk.combat import battle_odds
    assert battle_odds(r, st, "g", ("para",)).attack == 3                 # full strength on the drop turn
    st.turn = 3
    assert battle_odds(r, st, "g", ("para",)).attack == 2                 # then half outside the radius (8.1)


def test_9_3_pocket_units_may_not_move_west_of_the_front_before_the_end_of_turn_10():
    wall = [unit(f"s{i}", "soviet", "4-5-7", f"02{i:02d}") for i in range(1, 9, 2)]   # cuts the west edge off
    b = board(pocket=POCKET)
    r = rules([unit("p", "german", "3-4-7", "0604", pocket=True)] + wall, board=b, pocket_stays_until=10, turns=18)
    st = state_in(r, "german-movement", turn=10)
    e = refused(r, st, r.parse_action("move p 0604-0404"))
    assert e.rule == "Demyansk 9.3" and "west of the continuous front" in e.message
    r.apply(st, r.parse_action("move p 0604-0504"))                       # inside the pocket: free to move
    st = state_in(r, "german-movement", turn=11)
    r.apply(st, r.parse_action("move p 0604-0404"))
