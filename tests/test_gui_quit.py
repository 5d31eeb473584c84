"""Quit from the editors' windows: the map editor's Map > Quit and the scenario editor's Scenario > Quit end the
program as File > Quit does in the play and skirmish windows, every window asked first and closed."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from gui.mapeditor.mode import enter_map_editor
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"


def quits_recorded(monkeypatch) -> list:
    quits: list = []
    monkeypatch.setattr(QApplication, "quit", staticmethod(lambda: quits.append(True)))
    return quits


def test_quit_in_the_map_editor_closes_it_and_the_play_window_and_ends_the_program(qtbot, tmp_path, monkeypatch):
    play = play_window(qtbot, tmp_path, TRAPPED, monkeypatch=monkeypatch)
    editor = enter_map_editor(play)
    assert editor.isVisible() and editor.isWindow()
    quits = quits_recorded(monkeypatch)
    assert editor.quit_act.shortcut().toString() == "Ctrl+Q"
    editor.quit_act.trigger()                 # the editor had only Leave the editor: Ctrl+Q did nothing there
    assert not editor.isVisible() and not play.isVisible() and quits == [True]


def test_quit_in_the_scenario_editor_closes_it_and_the_play_window_and_ends_the_program(qtbot, tmp_path, monkeypatch):
    play = play_window(qtbot, tmp_path, TRAPPED, monkeypatch=monkeypatch)
    play.open_scenario_editor()
    editor = play.scenario_editor
    assert editor.isVisible()
    quits = quits_recorded(monkeypatch)
    editor.quit_act.trigger()
    assert not editor.isVisible() and not play.isVisible() and quits == [True]
