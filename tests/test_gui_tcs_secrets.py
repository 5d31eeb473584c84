"""The computer's Op Sheets in the play window: while the sheet is in play its objective and route are hidden from
the person (in the log, with the computer's reason, and on the map); once the sheet leaves play, or the game ends,
they are shown; the saved log always holds them whole (engine/rulesets/tcs/secrets.py)."""
from __future__ import annotations

from engine.players.tcs_player import TcsPlayer
from engine.rulesets.tcs import actions as A
from engine.rulesets.tcs.secrets import HIDDEN, hidden_text, sheet_hidden
from gui.tcs.session import TcsSession, load_tcs_view

from test_tcs_players import bw_game, to_step


def _soviet_sheet(g):
    """The Soviet Command Phase's new-sheet step with 63Gd's units freed: the computer writes a sheet for them."""
    to_step(g, "create", "soviet")
    st = g.state
    unit = "1-270-63Gd:1Co-P1"
    old = st.sheets[st.units[unit].sheet]
    for k in old.units:
        st.units[k].sheet = ""
    del st.sheets[old.id]
    player = TcsPlayer("soviet")
    return player.choose(g.rules, st), player.last_reason


def _session(g):
    view = load_tcs_view(g.scenario_path)
    return TcsSession(view, view.board, game=g)


def test_the_computers_new_op_sheet_is_hidden_in_the_log_until_it_leaves_play(qtbot):
    g = bw_game()
    sheet, why = _soviet_sheet(g)
    assert isinstance(sheet, A.NewSheet) and sheet.objective[0] in why
    session = _session(g)
    session.set_computer({"soviet"}, bot="strong")
    session.play(sheet.text(), by_computer=True, why=why)
    line = session.log_lines()[-1]
    assert line.endswith(f"[computer] opsheet {sheet.sheet} attack 63Gd units {'+'.join(sheet.units)} "
                         f"objective {HIDDEN} (its plan is secret until revealed)")
    assert sheet.objective[0] not in line
    assert session.sheet_hidden(sheet.sheet) and not session.sheet_hidden("Sp-hasty")   # the person's own shows
    assert g.log[-1].action.text() == sheet.text()                  # the game's log holds it whole
    # the sheet completed (TCS 6.10): it is revealed
    st = session.state.copy()
    del st.sheets[sheet.sheet]
    assert hidden_text(st, sheet.text()) == sheet.text() and not sheet_hidden(st, sheet.sheet, {"soviet"})
    st = session.state.copy()
    st.over = True                                                   # the game over: everything is shown
    assert hidden_text(st, sheet.text()) == sheet.text() and hidden_text(st, "plot B20.20") == "plot B20.20"


def test_a_person_playing_every_side_sees_every_sheet_whole(qtbot):
    g = bw_game()
    sheet, why = _soviet_sheet(g)
    session = _session(g)
    session.play(sheet.text())
    assert sheet.text() in session.log_lines()[-1] and not session.sheet_hidden(sheet.sheet)


def test_plotted_fire_the_prep_log_and_drop_zones_are_hidden_until_the_end():
    g = bw_game()
    st = g.state
    assert hidden_text(st, "plot B20.20") == f"plot {HIDDEN}"
    assert hidden_text(st, "preplog B1.1/-") == f"preplog {HIDDEN}"
    assert hidden_text(st, "plan Ju52-1 A+B dz C12.10") == f"plan Ju52-1 A+B dz {HIDDEN}"
    assert hidden_text(st, "move 1-A B05.04") == "move 1-A B05.04"


def test_a_reason_naming_a_secret_objective_hides_that_hex_and_keeps_the_rest(qtbot):
    """The strong player's set-up placement says how far the unit stands from its sheet's objective; the log shows
    the reason with the objective's hex hidden (it was 'its attack objective B45.18 (63Gd-follow-on)')."""
    g = bw_game()
    assert g.rules.current(g.state)[1:] == ("setup", "soviet")
    player = TcsPlayer("soviet", "strong")
    action = player.choose(g.rules, g.state)
    why = player.last_reason
    sheet = next(s for s in g.state.sheets.values() if s.side == "soviet" and action.unit in s.units)
    objective = g.rules.hid(sheet.objective[0])
    assert action.text().startswith("place ") and f"objective {objective}" in why
    session = _session(g)
    session.set_computer({"soviet"}, bot="strong")
    session.play(action.text(), by_computer=True, why=why)
    line = session.log_lines()[-1]
    assert objective not in line and f"objective {HIDDEN} ({sheet.id})" in line
    # nor its distance from the objective: the placed hex is public, and a few distances would place the objective
    assert "hexes from" in why and "hexes from" not in line
    assert f"nearer its attack objective {HIDDEN} ({sheet.id}) than where the scenario put it" in line
    assert line.startswith(f"{len(g.log)}. [computer] {action.text()} (")     # the action itself is public
    assert why.startswith(action.text() + ": ") and line.count(action.text()) == 1     # not said twice
    # the person playing every side reads it whole
    session.set_computer(set())
    assert f"objective {objective}" in session.log_lines()[-1]
    # the game over: shown
    session.set_computer({"soviet"}, bot="strong")
    session.state.over = True
    assert f"objective {objective}" in session.log_lines()[-1]


def test_a_tcs_game_reopened_keeps_which_actions_the_computer_played_and_why(qtbot, tmp_path):
    """A TCS save opened again (the restart after a crash does this): its log marks the computer's actions and
    gives their reasons as before (the TCS session's own opening once dropped both: every action read as the
    person's, so their undo would take back the computer's too)."""
    from engine.game import Game
    from test_tcs_players import BW4, rules_for_path

    g = Game(rules_for_path(BW4), 4, str(BW4))         # a game as the window starts one (its log replays it)
    player = TcsPlayer("soviet", "strong")
    action = player.choose(g.rules, g.state)
    session = _session(g)
    session.set_computer({"soviet"}, bot="strong")
    session.play(action.text(), by_computer=True, why=player.last_reason)
    path = tmp_path / "bw4.toml"
    session.write(path)
    again = TcsSession.open_saved(path)
    assert again.by_computer(len(g.log) - 1)
    assert again.log_lines()[-1] == session.log_lines()[-1]
    assert "nearer its attack objective" in again.log_lines()[-1]
