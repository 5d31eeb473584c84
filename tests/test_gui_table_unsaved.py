"""The skirmish window never closes or replaces a game with orders no file holds without the user's word."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from engine.game import load_game
from questions import answer_questions
from gui.table.window import TableWindow

ROOT = Path(__file__).resolve().parent.parent
PLATOON = ROOT / "scenarios" / "scw-platoon-attack.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = TableWindow.open(PLATOON, seed=3, recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.fixture
def answers(monkeypatch):
    """The question is asked as in a real window, answered with the next queued answer; each question is kept."""
    return answer_questions(monkeypatch, TableWindow)


def one_order(win) -> None:
    assert win.session.order("take-cover T1") is not None
    assert len(win.session.game.log) == 1 and win.session.unsaved()


def test_a_new_game_has_nothing_to_save_and_closes_without_a_question(window, answers):
    asked, _ = answers
    assert not window.session.unsaved()
    assert window.close() and asked == []


def test_cancel_keeps_the_window_and_its_orders(window, answers):
    asked, queue = answers
    one_order(window)
    queue.append(QMessageBox.Cancel)
    assert not window.close()
    assert len(asked) == 1 and "1 action(s)" in asked[0] and "never been saved" in asked[0]
    assert window.isVisible() and len(window.session.game.log) == 1


def test_save_writes_the_game_then_closes(window, answers, tmp_path):
    asked, queue = answers
    one_order(window)
    window.save_game(tmp_path / "first.toml")
    assert not window.session.unsaved()
    assert window.session.order("take-cover T2") is not None
    queue.append(QMessageBox.Save)
    assert window.close()
    assert "since it was saved to first.toml" in asked[0]
    assert [e.action.text() for e in load_game(tmp_path / "first.toml").log] == ["take-cover T1", "take-cover T2"]


def test_a_new_game_asks_first_and_cancel_keeps_this_one(window, answers):
    asked, queue = answers
    one_order(window)
    window.new_act.trigger()
    dlg = window.new_game_dlg
    queue.append(QMessageBox.Cancel)
    assert window.start_chosen_game(dlg.choice()) is False
    assert len(asked) == 1 and len(window.session.game.log) == 1
    queue.append(QMessageBox.Discard)
    assert window.start_chosen_game(dlg.choice()) is True
    assert len(window.session.game.log) == 0


def test_a_game_resumed_from_the_autosave_is_no_file_of_the_users(window, answers, tmp_path):
    asked, _ = answers
    one_order(window)
    auto = tmp_path / "autosave.toml"
    window.session.save(auto)
    again = TableWindow.open(auto, recent=tmp_path / "recent.toml")
    assert not again.session.unsaved()                # read from a file, it is in that file ...
    again.resumed_from_autosave()
    assert again.session.unsaved() and again.saved_path is None      # ... unless that file is the autosave
    again.session.mark_saved()
    again.close()
