"""Every menu action of every window can be triggered: no slot refuses the signal's arguments.

A ``triggered(bool)`` connected to a callable that takes no argument (a signal's ``emit``, a
C++ method) raises TypeError under PySide6 and the action silently does nothing; this test
triggers each action as a menu click does, with the dialogs answered at once.
"""
from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox

pytest.importorskip("pytestqt")

from gui.play.window import MainWindow  # noqa: E402
from gui.mapeditor import MapEditor  # noqa: E402
from gui.scenarioeditor import ScenarioEditor  # noqa: E402


@pytest.fixture(autouse=True)
def answered_dialogs(monkeypatch, tmp_path):
    """Every dialog a menu action opens is cancelled at once (no modal loop in a test)."""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: ([], "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    for name in ("warning", "information", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.Ok))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.Discard))
    monkeypatch.setattr(QMessageBox, "exec", lambda self: QMessageBox.Ok)
    monkeypatch.setattr(QDialog, "exec", lambda self: 0)
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("", False)))
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: ("", False)))
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda *a, **k: True))
    yield


def menu_actions(window) -> list[QAction]:
    """The actions of a window's menus and sub-menus, in menu order (those that close the window last)."""
    out = []

    def walk(menu):
        menu.aboutToShow.emit()                    # menus filled as they open (Open recent)
        for act in menu.actions():
            if act.menu() is not None:
                walk(act.menu())
            elif not act.isSeparator():
                out.append(act)
    for top in window.menuBar().actions():
        if top.menu() is not None:
            walk(top.menu())
    last = [a for a in out if a.text().replace("&", "") in ("Quit", "Close", "Leave the editor")]
    return [a for a in out if a not in last] + last


def trigger_all(qtbot, window, errors) -> list[str]:
    done = []
    import shiboken6

    for act in menu_actions(window):
        if not shiboken6.isValid(act):          # the window closed itself (and is gone)
            break
        if not act.isEnabled():
            continue
        done.append(act.text().replace("&", ""))
        act.trigger()
        qtbot.wait(1)
    return done


@pytest.fixture
def slot_errors(monkeypatch):
    """Exceptions raised inside slots, as PySide6 reports them."""
    import sys

    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda t, v, tb: seen.append(f"{t.__name__}: {v}"))
    return seen


def test_every_action_of_the_play_window_and_its_map_editor(qtbot, tmp_path, slot_errors):
    win = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file("scenarios/demyansk-1-trapped.toml")
    win.edit_map_act.trigger()
    ed = win.map_editor
    done = trigger_all(qtbot, ed, slot_errors)
    assert "Leave the editor" in done and win.map_editor is None
    done = trigger_all(qtbot, win, slot_errors)
    assert {"Open…", "Save game", "Edit this map", "Keyboard shortcuts", "Quit"} <= set(done)
    assert slot_errors == []
    for w in (win.map_editor, getattr(win, "scenario_editor", None)):
        if w is not None:
            w.close()


def test_every_action_of_the_map_editor_on_a_map(qtbot, tmp_path, slot_errors):
    ed = MapEditor(cache=tmp_path / "tiles")
    qtbot.addWidget(ed)
    ed.show()
    assert ed.open_file("maps/demo.toml")
    done = trigger_all(qtbot, ed, slot_errors)
    assert {"Check map", "Hex grid", "Fit view", "Leave the editor"} <= set(done)
    assert slot_errors == []
    ed.edit = None


def test_every_action_of_the_scenario_editor(qtbot, tmp_path, slot_errors):
    se = ScenarioEditor(cache=tmp_path / "tiles")
    qtbot.addWidget(se)
    se.show()
    assert se.open_scenario("scenarios/demyansk-1-trapped.toml")
    se.path = None                       # Save asks where (answered: nowhere), never writes over the shipped file
    done = trigger_all(qtbot, se, slot_errors)
    assert {"Check", "Undo", "Copy units", "Open in the play window"} <= set(done)
    assert slot_errors == []


def test_every_action_of_the_skirmish_window(qtbot, tmp_path, slot_errors):
    from gui.table.window import TableWindow

    tw = TableWindow.open("scenarios/scw-platoon-attack.toml", autosave=tmp_path / "autosave.toml")
    assert tw is not None
    qtbot.addWidget(tw)
    tw.show()
    trigger_all(qtbot, tw, slot_errors)
    assert slot_errors == []
