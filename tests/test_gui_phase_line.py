"""The bar over the map: one Next button that stays where it is, a phase line that says what the step asks of whom
and what Next does (and that the computer is playing), a status line that never runs under the zoom, and Quit
that quits the program from any window."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QMessageBox

from gui.play.window import MainWindow
from gui.table.window import TableWindow
from playwindow import play_window
from questions import answer_questions
from tcs_fixtures import SCENARIO as TCS_TEST, filled_memory

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
PLATOON = ROOT / "scenarios" / "scw-platoon-attack.toml"


@pytest.fixture
def demyansk(qtbot, tmp_path, monkeypatch):
    return play_window(qtbot, tmp_path, TRAPPED, size=(1280, 800), monkeypatch=monkeypatch)


def next_spot(win) -> QPoint:
    b = win.phase_bar.widgetForAction(win.phase_bar.next_act)
    return b.mapTo(win, b.rect().center())


def test_next_phase_stays_at_the_same_spot_whatever_the_header_says(demyansk, qtbot):
    win = demyansk
    spot = next_spot(win)
    for text in ("Turn 1", "Turn 1 of 10 — German mechanized movement — the computer is thinking for Soviet",
                 "Viewing after action 3 (read-only): Turn 1 of 10 — German combat — click the last log entry",
                 "Turn 1 of 10 — German reinforcement " + "and a very long header " * 8):
        win.phase_bar.set_text(text)
        qtbot.wait(1)
        assert next_spot(win) == spot and win.phase_bar.widgetForAction(win.phase_bar.next_act).isVisible(), text
    for _ in range(4):                     # Next phase clicked again and again at the same spot
        win.phase_bar.next_act.trigger()
        qtbot.wait(1)
        assert next_spot(win) == spot, win.session.turn_text()
    win.phase_bar.set_text(long := "Turn 1 of 10 — " + "a header longer than the bar " * 12)
    assert win.phase_bar.label.text() == long and win.phase_bar.label.is_elided()   # whole in its tooltip
    assert win.phase_bar.label.toolTip() == long


def test_a_long_status_message_is_elided_before_the_zoom_and_shown_whole_in_its_tooltip(demyansk, qtbot):
    win = demyansk
    long = "Refused — Demyansk 5.2: " + "a unit that enters an enemy zone of control must stop there; " * 6
    win.statusBar().showMessage(long, 15000)
    qtbot.wait(1)
    label = win.statusBar().message_label
    assert label.isVisible() and label.text() == long and label.is_elided()
    assert label.shown_text().endswith("…")
    right = label.mapTo(win, QPoint(label.width(), 0)).x()
    assert right <= win.zoom_label.mapTo(win, QPoint(0, 0)).x()          # never under the zoom label
    assert label.toolTip() == long and win.statusBar().currentMessage() == long
    win.statusBar().clearMessage()
    assert not label.isVisible() and win.hover_label.isVisible()


def test_the_phase_line_says_what_demyansk_asks_and_where_next_phase_leads(demyansk, qtbot):
    line = demyansk.guide_label.text()
    assert line.startswith("German reinforcements (3.1)")
    assert line.endswith("Next phase: the German mechanized movement phase (3.2).")
    demyansk.phase_bar.next_act.trigger()
    demyansk.phase_bar.next_act.trigger()     # German combat: its line is the longest
    line = demyansk.guide_label.text()
    assert line.startswith("German combat (3.3, 6)") and line.endswith("the German movement phase (3.4).")
    demyansk.resize(900, 800)                 # narrower than the line: it wraps onto a second line, whole
    qtbot.wait(10)
    shown = demyansk.guide_label.shown_text()
    assert "\n" in shown and shown.replace("\n", " ") == line and not demyansk.guide_label.is_elided()


def test_the_phase_line_of_a_tcs_step_says_who_does_what_and_what_next_does(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, TCS_TEST, size=(1500, 950), monkeypatch=monkeypatch)
    game = win.session.game
    game.state = game.rules.initial_state(game.seed, memory=filled_memory())
    win.session.changed.emit()
    assert win.phase_bar.next_act.text() == "Next step"
    assert win.guide_label.text() == ("Red reviews its implemented Op Sheets: complete or cancel any in the Op Sheets "
                                      "panel (TCS 6.11). Next step: Blue: Op Sheet review.")
    win.phase_bar.next_act.trigger()
    assert win.guide_label.text().endswith("Next step: weighted turns accrue, then Red: implementation checks.")
    win.phase_bar.next_act.trigger()
    assert win.guide_label.text().startswith("Red rolls to implement its Op Sheets")
    win.phase_bar.next_act.trigger()
    assert win.guide_label.text() == "Blue has nothing to do in this step (TCS 6.9f). Next step: Red: reserve checks."
    assert "_" not in win.phase_bar.label.text() and "_" not in win.tcs.clock.acting.text()


def test_while_the_computer_plays_a_side_the_phase_line_says_so(demyansk, qtbot):
    win = demyansk
    win.computer_step_ms = 600000          # it waits between two actions: the line is read meanwhile
    assert win.start_new_game(3, computer={"german"})
    assert win.guide_label.text().startswith("The computer is playing German")
    assert "drag" not in win.guide_label.text().split(":")[0]
    assert not win.phase_bar.next_act.isEnabled()
    win.pause_act.setChecked(True)          # paused: the player may play for it, and the line says the phase again
    assert win.guide_label.text() == win.session.guidance()


def test_quit_in_the_skirmish_window_asks_about_its_game_then_quits_the_program(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    play = play_window(qtbot, tmp_path, TRAPPED, size=(1100, 760), monkeypatch=monkeypatch)
    table = TableWindow.open(PLATOON, seed=3, parent=play, recent=tmp_path / "recent.toml")
    table.show()
    assert table.session.order("take-cover T1") is not None
    asked, queue = answer_questions(monkeypatch, TableWindow)
    monkeypatch.setattr(MainWindow, "_offscreen", lambda self: False)
    quits = []
    monkeypatch.setattr(QApplication, "quit", staticmethod(lambda: quits.append(True)))
    queue.append(QMessageBox.Cancel)
    table.menus.quit_act.trigger()            # Cancel: the skirmish and the program go on
    assert len(asked) == 1 and "1 action(s)" in asked[0]
    assert table.isVisible() and play.isVisible() and quits == []
    queue.append(QMessageBox.Discard)
    table.menus.quit_act.trigger()
    assert len(asked) == 2
    assert not table.isVisible() and not play.isVisible() and quits == [True]
