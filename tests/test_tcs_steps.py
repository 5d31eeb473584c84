"""The TCS sequence of play in words (engine/rulesets/tcs/steps.py): every step of Black Wednesday and Leros has a
name a player reads, and each player's step says what it asks of whom, with its rule, and what Next (``end``)
leads to."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.rulesets.tcs import rules_for_path
from tcs_fixtures import SCENARIO, filled_memory, new_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = [ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml",
         ROOT / "scenarios" / "leros-1-curtain-rises.toml", SCENARIO]
PLAYER_STEPS = {"review", "implement", "reserve", "add", "create", "sorties", "missions", "action"}


def at_step(rules, st, i: int):
    s = st.copy()
    s.step, s.pending, s.setup = i, [], []          # the turn's steps, past the set-up phase
    return s


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_step_of_both_games_has_a_name_and_a_line_for_the_player(path):
    rules = rules_for_path(path)
    st = rules.initial_state(1, memory=filled_memory())
    for turn in sorted({0, len(rules.turns) - 1} | {i for i, t in enumerate(rules.turns) if t.full_hour}):
        st.turn = turn
        for i, (phase, step, who) in enumerate(rules.sequence(turn)):
            title = rules.step_title(phase, step, who)
            assert "_" not in title, title                   # never a code name like bn_morale
            s = at_step(rules, st, i)
            line = rules.guidance(s)
            assert "_" not in line and "Next step: " in line and line.endswith("."), (title, line)
            if step in PLAYER_STEPS:
                name = rules.scenario.sides[rules.current(s)[2]].name
                assert line.startswith(name) and "(TCS " in line, line


def test_the_lines_of_the_test_scenario_word_for_word():
    g = new_game()
    r, st = g.rules, g.state
    line = lambda i: r.guidance(at_step(r, st, i))
    seq = r.sequence(0)
    idx = {(p, s, w): i for i, (p, s, w) in enumerate(seq)}
    assert r.clock(st) == "1700 10 Feb, day turn — Command Phase: Op Sheet review (Red)"
    assert line(0) == ("Red reviews its implemented Op Sheets: complete or cancel any in the Op Sheets panel "
                       "(TCS 6.11). Next step: Blue: Op Sheet review.")
    assert line(idx["command", "create", "blue"]) == (
        "Blue has nothing to do in this step (TCS 6.8). Next step: battalion morale is rolled, then the initiative "
        "for the Aircraft & Artillery Phase is rolled, then the first player's sorties are rolled, then the first "
        "player: air sorties.")
    assert line(idx["artillery", "missions", "first"]).startswith(
        "Red places fire missions in the Artillery panel (battery, target on the map, spotter)")
    st.order = ["red", "blue"]                  # the phase's initiative rolled: Red first
    assert line(idx["artillery", "missions", "second"]).endswith(
        "Next step: Blue's missions fire, then Blue's barrages lift, then the initiative for the Action Phase is "
        "rolled, then the first player's Action Phase.")
    assert line(idx["action", "action", "second"]) == (
        "Blue acts: drag units in Move mode along their Op Sheets, change modes, fire and assault (TCS 5.0). "
        "Next step: clean-up and recovery, then turn 1720 10 Feb begins, then Red: Op Sheet review.")
    last = at_step(r, st, idx["action", "action", "second"])
    last.turn = len(r.turns) - 1
    assert r.after_end(last) == "clean-up and recovery, then the game ends"


def test_a_question_pending_is_what_the_line_asks_and_the_end_of_the_game_says_so():
    g = new_game()
    while not g.state.pending:
        g.play("end")                 # to the battalion morale roll: the owner's chart has no value for it
    assert g.rules.current(g.state)[1] == "bn_morale"
    assert g.rules.clock(g.state) == "1700 10 Feb, day turn — Command Phase: battalion morale roll"
    assert g.rules.guidance(g.state) == (
        "A printed result is needed: Battalion Morale Reduction for battalion KG — read it on your chart and enter "
        "it in the Printed chart panel; the game goes on from there.")
    over = g.state.copy()
    over.over = True
    assert g.rules.guidance(over).startswith("The game is over")


def test_leros_says_what_its_review_and_action_steps_allow_besides():
    rules = rules_for_path(GAMES[1])
    st = rules.initial_state(1, memory=filled_memory())
    seq = rules.sequence(st.turn)
    review = next(i for i, (p, s, w) in enumerate(seq) if s == "review")
    action = next(i for i, (p, s, w) in enumerate(seq) if s == "action")
    assert "surrender demand (Leros 1.3)" in rules.guidance(at_step(rules, st, review))
    assert "Tracks panel (Leros 1.2e, 3.6c)" in rules.guidance(at_step(rules, st, action))


def test_a_step_with_nothing_to_do_says_so_and_a_side_not_yet_known_is_named_by_its_order():
    g = new_game()
    r, st = g.rules, g.state
    seq = r.sequence(0)
    sorties = next(i for i, (p, s, w) in enumerate(seq) if s == "sorties")
    s = at_step(r, st, sorties)
    s.sorties = 0                                  # the sortie roll gave none
    assert r.guidance(s).startswith("Red has nothing to do in this step (TCS 25.0). Next step: ")
    assert r.step_title("action", "action", "first") == "Action Phase (first side)"
    assert r.step_title("action", "action", "blue") == "Blue Action Phase"


def test_the_new_sheets_step_says_a_side_may_write_one_when_its_scenario_lists_no_objective():
    """Black Wednesday lists no objective hexes (its victory is areas), so the legal-move list offers no ready-made
    sheet; a side with free units and room for a sheet may still write one (TCS 6.8), and the line says so."""
    from engine.rulesets.tcs.steps import may_write_sheet

    rules = rules_for_path(GAMES[0])
    st = rules.initial_state(1, memory=filled_memory())
    assert not rules.scenario.objectives
    create = next(i for i, (p, s, w) in enumerate(rules.sequence(st.turn)) if (s, w) == ("create", "axis"))
    s = at_step(rules, st, create)
    del s.sheets["Sp-relief"]                    # completed in review: its four recon units are free
    for u in ("3-Recon:P1", "3-Recon:P2", "3-Recon:P3", "3-Recon:MG1"):
        s.units[u].sheet = ""
    assert [a.text() for a in rules.legal_actions(s)] == ["end"]
    assert may_write_sheet(rules, s, "axis")
    assert rules.guidance(s).startswith("Axis may write new Op Sheets: pick units, draw the objective and route on "
                                        "the map, then Create (TCS 6.8). Next step: ")
    for u in s.units.values():                   # every unit carrying out an implemented sheet: nothing to write
        if not u.sheet:
            u.hex = None
    assert not may_write_sheet(rules, s, "axis")


def test_a_decision_names_the_side_that_won_by_its_name_not_its_id():
    g = new_game()
    g.state.preset_dice = [4, 5, 3]
    while not (g.state.pending and g.state.pending[0]["kind"] == "choice"):
        p = g.state.pending
        g.play(f"chart {p[0]['prompt'].slot} [1][4] = 0" if p else "end")
    assert g.state.pending[0]["text"].startswith("red won the ")           # the game keeps what it asked
    assert g.rules.guidance(g.state).startswith("Red decides: Red won the artillery initiative: who goes first?")
