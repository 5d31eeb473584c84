"""Demyansk 6.2 garrison duty, 7.2 who is in the pocket, 8.2 a brigade that cannot attack: positions a
hostile reading found, each with the asserted result."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.demyansk.actions import Declare, Drop, EndPhase, Move, Resolve
from engine.rulesets.demyansk.supply import determine_supply
from test_demyansk_fixtures import board, rules, state_in, unit

FORT = {"0505": {"fortification"}}


def refused(r, st, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        r.apply(st, action)
    return e.value


def moves_of(r, st, uid) -> list[str]:
    return sorted(a.to for a in r.legal_actions(st) if isinstance(a, Move) and a.unit == uid)


# ------------------------------------------------------------------ 6.2 garrison duty

def test_6_2_the_only_garrison_may_not_walk_out_of_its_fortification():
    r = rules([unit("g", "german", "3-4-7", "0505")], board=board(features=FORT))
    st = state_in(r, "german-movement")
    e = refused(r, st, Move("g", "0303", "0505"))
    assert e.rule == "Demyansk 6.2" and "0505" in e.message and "g" in e.message
    assert moves_of(r, st, "g") == []                 # no move is offered that empties it
    r.apply(st, EndPhase())                           # staying put, the phase ends


def test_6_2_a_garrison_may_leave_when_another_unit_can_still_take_its_place():
    r = rules([unit("g", "german", "3-4-7", "0505"), unit("h", "german", "3-4-7", "0303")],
              board=board(features=FORT))
    st = state_in(r, "german-movement")
    st, _ = r.apply(st, Move("g", "0808", "0505"))    # h can still reach 0505
    e = refused(r, st, EndPhase())
    assert e.rule == "Demyansk 6.2" and "0505 is empty and h could still hold it" in e.message
    assert refused(r, st, Move("h", "0302", "0303")).rule == "Demyansk 6.2"   # h is the last one now
    assert moves_of(r, st, "h") == ["0505"]
    st, _ = r.apply(st, Move("h", "0505", "0303"))
    r.apply(st, EndPhase())


def test_6_2_two_forts_two_units_each_needed_for_one():
    # g can reach only 0505; h can reach both: h must not take 0505 from g, nor go elsewhere
    b = board(features={"0505": {"fortification"}, "0509": {"fortification"}}, rows=10)
    r = rules([unit("g", "german", "3-4-1", "0504"), unit("h", "german", "3-4-7", "0507")], board=b)
    st = state_in(r, "german-movement")
    assert moves_of(r, st, "h") == ["0509"]
    assert refused(r, st, Move("h", "0505", "0507")).rule == "Demyansk 6.2"
    st, _ = r.apply(st, Move("h", "0509", "0507"))
    st, _ = r.apply(st, Move("g", "0505", "0504"))
    r.apply(st, EndPhase())


def test_6_2_too_few_units_one_garrison_holds_one_fort_and_the_phase_ends():
    b = board(features={"0505": {"fortification"}, "0707": {"fortification"}})
    r = rules([unit("g", "german", "3-4-7", "0505")], board=b)
    st = state_in(r, "german-movement")
    assert moves_of(r, st, "g") == ["0707"]          # it may swap forts, not leave both empty
    st, _ = r.apply(st, Move("g", "0707", "0505"))
    r.apply(st, EndPhase())


def test_6_2_the_duty_binds_only_the_german_movement_phase_and_not_after_turn_10_in_scenario_ii():
    r = rules([unit("g", "german", "3-4-7", "0505", type="mechanized")], board=board(features=FORT),
              garrison_until=10)
    st = state_in(r, "german-mechanized-movement")
    r.apply(st, Move("g", "0303", "0505"))           # it may come back in the German movement phase
    st = state_in(r, "german-movement", turn=11)
    r.apply(st, Move("g", "0303", "0505"))


def test_6_2_a_random_german_movement_phase_always_ends_with_every_holdable_fort_held():
    from engine.players.random import RandomPlayer
    b = board(features={"0505": {"fortification"}, "0707": {"fortification"}, "0303": {"fortification"}})
    units = [unit("g", "german", "3-4-7", "0505"), unit("h", "german", "3-4-1", "1001"),
             unit("k", "german", "3-4-7", "0101")]
    r = rules(units, board=b)
    for seed in range(1, 30):
        st = state_in(r, "german-movement")
        p = RandomPlayer(seed)
        while st.phase == "german-movement":
            legal = r.legal_actions(st)
            assert legal
            st, _ = r.apply(st, p.choose(legal))
        held = {st.units[u].hex for u in ("g", "h", "k")} & set(r.map.forts)
        assert len(held) == 2, seed                   # h (1 MP, in a corner) reaches none: g and k hold two


# ------------------------------------------------------------------ 7.2 who is in the pocket

POCKET = [f"{c:02d}{r:02d}" for c in range(7, 11) for r in range(3, 7)]


def ring(centre: str, name: str):
    """Soviet units around a hex of the fixture board (its six neighbours, as printed ids)."""
    from engine.maps.hexes import hex_neighbors
    b = board()
    h = b.parse_hex(centre)
    return [unit(f"{name}{i}", "soviet", "1-1-4", b.hex_id(n)) for i, n in enumerate(hex_neighbors(h)) if n in b]


def pocket_game():
    """A pocket (columns 7-10, rows 3-6) cut off by a Soviet wall in column 6; a western unit ``far`` cut off
    by a ring of Soviet units next to the west edge; a western unit ``inside`` that entered the pocket."""
    wall = [unit(f"w{i}", "soviet", "4-3-7", f"06{i:02d}") for i in range(1, 9, 2)]
    units = [unit("p", "german", "3-4-7", "0904", pocket=True), unit("inside", "german", "4-4-8", "0705"),
             unit("far", "german", "4-4-8", "0304"), *wall, *ring("0304", "r")]
    return rules(units, board=board(pocket=POCKET))


def test_7_2_a_western_unit_cut_off_far_from_the_pocket_stays_in_supply_one_that_entered_it_does_not():
    r = pocket_game()
    st = r.initial_state(1, [1, 2])                  # turn 2: the air supply fails, the pocket may attack 2
    st.turn = 2
    determine_supply(r, st, [])
    assert not st.pocket_supplied and st.pocket_attack_limit == 2
    assert st.trapped == ["inside"]
    st.phase = "german-movement"
    assert r.destinations(st, "far").allowance == 8                # 7.2.3: outside the pocket, in supply
    assert r.destinations(st, "inside").allowance == 4             # isolated in the pocket: halved
    assert r.is_pocket_unit(st, "inside") and not r.is_pocket_unit(st, "far")


def test_7_2_a_western_unit_cut_off_far_from_the_pocket_does_not_count_against_its_attack_limit():
    r = pocket_game()
    st = r.initial_state(1, [1, 1])                  # turn 3: the air supply fails, the pocket may attack 1
    st.turn = 3
    determine_supply(r, st, [])
    assert st.pocket_attack_limit == 1
    st.phase = "german-combat"
    st, _ = r.apply(st, Declare("w5", ("inside",)))               # the pocket's one attack
    st, _ = r.apply(st, Declare("r0", ("far",)))                   # not a pocket attack: allowed


def test_7_2_a_pocket_unit_that_broke_out_alone_does_not_link_the_pocket():
    wall = [unit(f"w{i}", "soviet", "4-5-7", f"06{i:02d}") for i in range(1, 9, 2)]
    units = [unit("p", "german", "3-4-7", "0904", pocket=True), unit("out", "german", "3-4-7", "0204", pocket=True),
             *wall]
    r = rules(units, board=board(pocket=POCKET))
    st = r.initial_state(1, [1, 3])
    st.turn = 2
    determine_supply(r, st, [])
    assert not st.pocket_linked and not st.pocket_supplied and st.pocket_attack_limit == 3
    st.phase = "german-movement"
    assert r.destinations(st, "p").allowance == 4                  # the pocket: out of supply, halved
    assert r.destinations(st, "out").allowance == 7                # reached the west: in supply


# ------------------------------------------------------------------ 8.2 a brigade that cannot attack

PARA_POCKET = [f"{c:02d}{r:02d}" for c in range(5, 9) for r in range(2, 7)]


def landed(german_values="3-9-7"):
    """A brigade that survived landing on ``g``, beside a Soviet rifle unit ``s``, in the Soviet combat phase."""
    hq = unit("hq", "soviet", "0-1-4", "1001", type="headquarters", command_radius=20)
    units = [hq, unit("para", "soviet", "3-2-5", None, type="airborne", arrives=2),
             unit("g", "german", german_values, "0505"), unit("s", "soviet", "1-1-4", "0504"),
             unit("x", "german", "1-1-4", "0404")]
    r = rules(units, board=board(pocket=PARA_POCKET))
    st, _ = r.apply(state_in(r, "soviet-reinforcement", turn=2, dice=[6]), Drop("para", "0505"))
    assert st.units["para"].landed_on == "g"
    for _ in range(2):
        st, _ = r.apply(st, EndPhase())
    assert st.phase == "soviet-combat"
    return r, st


def test_8_2_a_brigade_attacks_only_the_unit_it_landed_on_and_no_resolve_is_offered_before():
    r, st = landed("3-3-7")                           # the brigade alone attacks at 1:1
    assert refused(r, st, Declare("x", ("para",))).rule == "Demyansk 8.2"
    st, _ = r.apply(st, Declare("x", ("s",)))
    assert not [a for a in r.legal_actions(st) if isinstance(a, Resolve)]
    assert refused(r, st, Resolve("x")).rule == "Demyansk 8.2"


def test_8_2_a_brigade_that_cannot_attack_at_1_to_1_is_lost_and_the_phase_still_ends():
    r, st = landed("3-9-7")                           # 3 + 1 against 9: below 1:1
    assert not [a for a in r.legal_actions(st) if isinstance(a, Declare) and "para" in a.attackers]
    assert any(a.text() == "end" for a in r.legal_actions(st))
    st, ev = r.apply(st, EndPhase())
    assert st.units["para"].status == "eliminated" and any("8.2" in e.text for e in ev)
