"""Demyansk 3, 5, 6, 8.4: why a unit can do nothing now (rule and the phase that allows it), which units may act,
and the one line of guidance each phase gives the player."""
from __future__ import annotations

from engine.rulesets.demyansk.actions import Declare, Move
from test_demyansk_fixtures import rules, state_in, unit


def sides():
    return rules([unit("i", "german", "4-4-6", "0202"), unit("m", "german", "10-9-8", "0303", type="motorized"),
                  unit("q", "soviet", "0-1-4", "0808", type="headquarters"), unit("s", "soviet", "4-4-4", "0304")])


def test_3_a_unit_outside_its_phase_is_told_the_phase_that_moves_it_and_the_rule():
    r = sides()
    st = state_in(r, "german-reinforcement")
    e = r.why_idle(st, "i")
    assert e.rule == "Demyansk 3" and "German reinforcement phase" in e.message
    assert "the German movement phase (3.4)" in e.message
    st = state_in(r, "german-mechanized-movement")
    e = r.why_idle(st, "i")
    assert e.rule == "Demyansk 8.4" and "the German movement phase (3.4)" in e.message
    assert r.why_idle(st, "m") is None
    st = state_in(r, "german-movement")
    e = r.why_idle(st, "q")
    assert e.rule == "Demyansk 3" and "Soviet headquarters movement phase (3.6)" in e.message


def test_5_a_unit_that_has_moved_is_told_each_unit_moves_once_a_phase():
    r = sides()
    st, _ = r.apply(state_in(r, "german-mechanized-movement"), Move("m", "0302", "0303"))
    e = r.why_idle(st, "m")
    assert e.rule == "Demyansk 5" and "already moved" in e.message and "once a phase" in e.message


def test_6_in_combat_a_unit_with_no_adjacent_enemy_or_already_attacking_is_told_why():
    r = sides()
    st = state_in(r, "german-combat")
    assert r.units_to_act(st) == {"m"}                    # 0303 is next to the Soviet in 0304; 0202 is not
    e = r.why_idle(st, "i")
    assert e.rule == "Demyansk 6" and "adjacent" in e.message
    st, _ = r.apply(st, Declare("s", ("m",)))
    e = r.why_idle(st, "m")
    assert e.rule == "Demyansk 6" and "already attacks" in e.message
    e = r.why_idle(st, "s")
    assert e.rule == "Demyansk 3" and "may only be attacked" in e.message


def test_3_units_to_act_are_those_a_legal_action_names():
    r = sides()
    assert r.units_to_act(state_in(r, "german-mechanized-movement")) == {"m"}
    assert r.units_to_act(state_in(r, "german-movement")) == {"i", "m"}
    assert r.units_to_act(state_in(r, "soviet-hq-movement")) == {"q"}
    assert r.units_to_act(state_in(r, "german-reinforcement")) == set()


def test_3_every_phase_has_its_line_of_guidance_from_the_tables():
    r = sides()
    from engine.rulesets.demyansk.state import PHASES

    for phase in PHASES:
        line = r.guidance(state_in(r, phase))
        assert line and "Next phase" in line, phase
    assert r.guidance(state_in(r, "german-movement")).startswith("German movement (3.4): drag units to move them")


def test_3_1_a_reinforcement_phase_with_no_unit_due_says_so():
    # Demyansk 3.1, 9.1: a German reinforcement arriving on turn 3; on turns 1 and 2 the line asked the player to
    # drag in units due this turn when the tray held none due
    r = rules([unit("i", "german", "4-4-6", "0202"), unit("r", "german", "3-4-7", arrives=3),
               unit("s", "soviet", "4-4-4", "0304")])
    early = r.guidance(state_in(r, "german-reinforcement", turn=2))
    assert early.startswith("German reinforcements (3.1): no units are due this turn; Next phase when done.")
    assert "Next phase: the German mechanized movement phase (3.2)" in early
    due = r.guidance(state_in(r, "german-reinforcement", turn=3))
    assert due.startswith("German reinforcements (3.1): drag the units due this turn from the tray onto the west")
    assert r.guidance(state_in(r, "soviet-reinforcement", turn=3)).startswith(
        "Soviet reinforcements (3.5): no units are due this turn")
