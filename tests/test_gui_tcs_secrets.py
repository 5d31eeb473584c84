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
