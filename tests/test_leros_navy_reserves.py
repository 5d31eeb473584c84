"""Leros 2.5 (the Royal Navy's bombardment noted at 1200 and fired at 2400) and 3.5 (Army Group E's reserves
requested, released on a 6, locked for 24 hours, and the surrender deadlines), with fixed dice and the printed
cells an owner would type."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.game import Game, load_rules
from engine.rulesets.tcs.games import leros as L
from engine.rulesets.tcs.proc import Ctx, Need

SCEN = Path(__file__).resolve().parent.parent / "scenarios"
C1 = str(SCEN / "leros-c1-campaign.toml")


@pytest.fixture(scope="module")
def c1():
    return load_rules(C1)


def turn_of(rules, label: str) -> int:
    return next(i for i, t in enumerate(rules.turns) if t.label == label)


def at(rules, label: str, step: str, side: str, dice=()):
    """A game of ``rules`` put at the ``step`` of ``side`` on the turn ``label``."""
    game = Game(rules, 1, C1)
    st = game.state
    st.turn = turn_of(rules, label)
    st.step = rules.sequence(st.turn).index(("command", step, side)) if step == "review" else st.step
    st.pending, st.preset_dice, st.setup = [], list(dice), []      # past the set-up phase
    return game


# ---------------------------------------------------------------- 2.5 British naval gunfire

def test_2_5_the_british_note_two_hexes_on_a_1200_turn_and_nowhere_else(c1):
    g = at(c1, "1200 12 Nov", "review", "british")
    assert [a.text() for a in g.legal_actions() if a.text().startswith("naval")]           # offered at 1200
    with pytest.raises(IllegalAction, match="Leros 2.5: note two different hexes"):
        g.play("naval B40.20+B41.20+B42.20")
    with pytest.raises(IllegalAction, match="Leros 2.5: Z99.99 is not a hex of the map"):
        g.play("naval B40.20+Z99.99")
    g.play("naval B40.20+B41.20")
    assert g.state.leros.naval_plot == ["B40.20", "B41.20"]
    with pytest.raises(IllegalAction, match="already noted"):
        g.play("naval B40.21+B41.21")
    g2 = at(c1, "1220 12 Nov", "review", "british")
    with pytest.raises(IllegalAction, match="Leros 2.5: the Royal Navy's hexes are noted on a 1200 turn"):
        g2.play("naval B40.20+B41.20")
    g3 = at(c1, "1200 12 Nov", "review", "german")
    with pytest.raises(IllegalAction, match="only the British plot"):
        g3.play("naval B40.20+B41.20")


def test_2_5_at_2400_a_1_or_2_cancels_else_each_hex_is_a_100mm_battalion_mission_on_the_4_6_row(c1):
    st = at(c1, "0000 13 Nov", "review", "british").state
    empty = [h for h in ("B20.02", "B22.02") if not any(u.hex == c1.hex(h) for u in st.units.values())]
    assert len(empty) == 2
    st.leros.naval_plot = list(empty)
    st.preset_dice = [2]
    ctx = Ctx(c1, st, [], [])
    L.naval_fire(c1, st, ctx)                                           # 2: cancelled
    assert st.leros.naval_plot == [] and not [m for m in st.markers if m.battery == "Royal Navy"]
    assert ctx.events[-1].text == "the Royal Navy's bombardment is cancelled (Leros 2.5)"
    st.leros.naval_plot = list(empty)
    st.preset_dice = [5, 3, 4]
    with pytest.raises(Need) as need:
        L.naval_fire(c1, st, Ctx(c1, st, [], []))
    p = need.value.pending["prompt"]
    assert (p.slot, p.key) == ("tcs.artillery_adjustment", ("british", "4-6", "3"))        # no spotter: 4-6 row
    st.memory.put("tcs.artillery_adjustment", ("british", "4-6", "3"), "Good")
    st.memory.put("tcs.artillery_adjustment", ("british", "4-6", "4"), "Good")
    st.preset_dice = []
    work = st.copy()                                    # as the game runs a procedure: on a copy until it ends
    with pytest.raises(Need) as need:
        L.naval_fire(c1, work, Ctx(c1, work, [5, 3, 4], []))
    assert (need.value.pending["prompt"].slot, need.value.pending["prompt"].key) == (
        "tcs.barrage_values", ("100mm", "battalion"))
    st.memory.put("tcs.barrage_values", ("100mm", "battalion"), 4)
    L.naval_fire(c1, st, Ctx(c1, st, [5, 3, 4], []))
    navy = [m for m in st.markers if m.battery == "Royal Navy"]
    assert [c1.hid(m.hex) for m in navy] == empty and all(len(m.zone) == 7 and m.kind == "he" for m in navy)
    assert st.leros.naval_plot == []


def test_2_5_the_solitaire_plot_of_five_draws_two_before_the_cancellation_die(c1):
    st = at(c1, "0000 13 Nov", "review", "british").state
    five = ["B20.02", "B22.02", "B24.02", "B26.02", "B28.02"]
    st.leros.naval_plot = list(five)
    st.preset_dice = [3, 3, 6, 5, 1]                 # slip 3, slip 3 again (re-rolled), 6 (re-rolled), slip 5; 1
    ctx = Ctx(c1, st, [], [])
    L.naval_fire(c1, st, ctx)
    texts = [e.text for e in ctx.events if e.kind == "naval"]
    assert texts == ["the slips drawn: B24.02, B28.02 (Leros 2.5 solitaire play)",
                     "the Royal Navy's bombardment is cancelled (Leros 2.5)"]


def test_2_5_the_noted_hexes_are_fired_at_the_start_of_the_2400_turns_artillery_phase(c1):
    g = at(c1, "0000 13 Nov", "review", "british")
    st = g.state
    st.leros.naval_plot = ["B20.02", "B22.02"]
    st.step = c1.sequence(st.turn).index(("artillery", "initiative", "")) - 1
    st.preset_dice = [1]
    events = []
    c1._next_step(st, events)                                   # into the Aircraft & Artillery Phase
    assert "the Royal Navy's bombardment is cancelled (Leros 2.5)" in [e.text for e in events]
    assert st.leros.naval_plot == []


# ---------------------------------------------------------------- 3.5 Army Group E reserves

def test_3_5_reserves_are_requested_by_the_germans_of_a_campaign_from_1800_nov_12(c1):
    g = at(c1, "1740 12 Nov", "review", "german")
    with pytest.raises(IllegalAction, match="Leros 3.5: reserves may be requested from 1800 Nov 12"):
        g.play("request")
    assert "request" not in [a.text() for a in g.legal_actions()]
    g = at(c1, "1800 12 Nov", "review", "british")
    with pytest.raises(IllegalAction, match="only the Germans"):
        g.play("request")
    s1 = load_rules(str(SCEN / "leros-1-curtain-rises.toml"))
    assert "campaign games" in L.reserve_refused(s1, s1.initial_state(1), L.GERMAN)
    g = at(c1, "1800 12 Nov", "review", "german", dice=[4])
    assert "request" in [a.text() for a in g.legal_actions()]
    g.play("request")                                           # an hour turn: the first die at once
    assert g.state.leros.reserve_requested and g.state.leros.reserve_groups == 0
    assert g.state.leros.boxed["Para-Co-1"] == "reserve" and g.state.units["Para-Co-1"].hex is None
    with pytest.raises(IllegalAction, match="the request is made"):
        g.play("request")


def test_3_5_a_six_releases_the_next_group_into_kos_and_athens_and_locks_requests_for_24_hours(c1):
    g = at(c1, "1800 12 Nov", "review", "german", dice=[6])
    g.play("request")
    tr = g.state.leros
    assert tr.reserve_groups == 1 and not tr.reserve_requested
    assert tr.boxed["Para-Co-1"] == "athens" and tr.boxed["9-III-Brg-3"] == "kos"          # released
    assert tr.boxed["10-III-Brg-1"] == "reserve"                                          # the next group waits
    assert c1.turns[tr.reserve_lock_until].label == "1800 13 Nov"
    assert "Para-Co-1" in c1.leros["paratroops"]
    g.state.turn = turn_of(c1, "1700 13 Nov")
    with pytest.raises(IllegalAction, match="no request until 24 hours after the last release: 1800 13 Nov"):
        g.play("request")


def test_3_5_a_requested_group_is_rolled_for_each_hour_turn_not_on_twenty_minute_turns(c1):
    events = []
    st = at(c1, "0620 13 Nov", "review", "german").state
    st.leros.reserve_requested, st.preset_dice = True, [6]
    st.step = c1.sequence(st.turn).index(("command", "review", "german")) - 1 if \
        c1.sequence(st.turn)[0] != ("command", "review", "german") else st.step
    c1._begin_step(st, events)
    assert st.leros.reserve_groups == 0 and st.preset_dice == [6]                         # 0620: no roll
    st.turn = turn_of(c1, "0700 13 Nov")
    c1._begin_step(st, events)
    assert st.leros.reserve_groups == 1 and "releases group 1" in events[-1].text


def test_3_5_in_scenario_1_as_a_campaign_the_second_and_third_groups_set_surrender_deadlines(c1):
    st = at(c1, "1800 13 Nov", "review", "german").state
    st.leros.reserve_groups = 1
    st.preset_dice = [6]
    L.reserve_request(c1, st, Ctx(c1, st, [], []))
    assert st.leros.reserve_groups == 2 and c1.turns[st.leros.deadline].label == "1800 16 Nov"   # 72 hours
    st.turn = turn_of(c1, "1800 14 Nov")
    st.preset_dice = [6]
    L.reserve_request(c1, st, Ctx(c1, st, [], []))
    assert st.leros.reserve_groups == 3 and c1.turns[st.leros.deadline].label == "1800 15 Nov"   # 24 hours
    assert all(st.leros.boxed[f"{c}-II-Brg-{i}"] == "kos" for c in "567" for i in (1, 2, 3))
    st.turn = st.leros.deadline
    st.step = len(c1.sequence(st.turn)) - 1
    events = []
    c1._next_step(st, events)                                   # the deadline turn ends with no surrender
    assert st.over and events[-1].kind == "game-over"
    out = c1.outcome(st)
    assert out.winner == "british" and out.breakdown["surrender deadline"] == "1800 15 Nov"


def test_3_5_where_groups_are_released_at_the_start_requests_begin_at_once_and_no_deadline_applies():
    c4 = load_rules(str(SCEN / "leros-c4-campaign.toml"))
    st = c4.initial_state(1)
    assert st.leros.reserve_groups == 2 and not L.reserve_refused(c4, st, L.GERMAN)
    assert st.leros.boxed["5-II-Brg-1"] == "reserve"
    st.preset_dice = [6]
    L.reserve_request(c4, st, Ctx(c4, st, [], []))
    assert st.leros.reserve_groups == 3 and st.leros.deadline == -1
    assert "every reserve group" in L.reserve_refused(c4, st, L.GERMAN)
