"""A game in progress is never replaced or closed away without the user's word: Save, Discard or Cancel."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine.game import load_game
from questions import answer_questions
from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
OTHER = ROOT / "scenarios" / "demyansk-2-campaign.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.resize(1100, 760)
    win.show()
    assert win.open_file(TRAPPED)
    return win


@pytest.fixture
def answers(monkeypatch):
    """The question is asked as in a real window, answered with the next queued answer; each question is kept."""
    return answer_questions(monkeypatch, MainWindow)


def one_move(win) -> None:
    """The German player ends a phase: the log holds one action no file holds."""
    win.phase_bar.next_act.trigger()
    assert len(win.session.game.log) == 1 and win.session.unsaved()


def test_cancel_keeps_the_game_in_progress_and_its_log(window, answers):
    asked, queue = answers
    one_move(window)
    queue.append(QMessageBox.Cancel)
    assert not window.open_file(OTHER)
    assert len(asked) == 1 and "1 action(s)" in asked[0] and "never been saved" in asked[0]
    assert Path(window.scenario.path).resolve() == TRAPPED and len(window.session.game.log) == 1


def test_discard_opens_the_other_file(window, answers):
    asked, queue = answers
    one_move(window)
    queue.append(QMessageBox.Discard)
    assert window.open_file(OTHER)
    assert Path(window.scenario.path).resolve() == OTHER and len(asked) == 1


def test_save_writes_the_game_then_opens_the_other_file(window, answers, monkeypatch, tmp_path):
    asked, queue = answers
    one_move(window)
    target = tmp_path / "kept.toml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    queue.append(QMessageBox.Save)
    assert window.open_file(OTHER)
    assert len(load_game(target).log) == 1
    assert Path(window.scenario.path).resolve() == OTHER


def test_a_save_cancelled_in_its_dialog_keeps_the_game(window, answers, monkeypatch):
    asked, queue = answers
    one_move(window)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    queue.append(QMessageBox.Save)
    assert not window.open_file(OTHER)
    assert Path(window.scenario.path).resolve() == TRAPPED and len(window.session.game.log) == 1


def test_a_saved_game_and_an_untouched_one_are_replaced_without_a_question(window, answers, tmp_path):
    asked, queue = answers
    assert window.open_file(OTHER)                   # nothing played yet
    one_move(window)
    assert window.save_game(tmp_path / "saved.toml")
    assert not window.session.unsaved()
    assert window.open_file(TRAPPED)
    assert asked == []


def test_undo_after_a_save_counts_as_unsaved(window, answers, tmp_path):
    one_move(window)
    assert window.save_game(tmp_path / "saved.toml")
    window.session.undo()
    assert window.session.unsaved()


def test_new_game_asks_too_and_cancel_keeps_the_game(window, answers):
    asked, queue = answers
    one_move(window)
    queue.append(QMessageBox.Cancel)
    dlg = window.new_game_dialog()
    choice = dlg.choice()
    dlg.close()
    assert not window.start_chosen_game(choice)
    assert len(window.session.game.log) == 1 and len(asked) == 1


def test_closing_the_window_asks_and_cancel_keeps_it_open(window, answers, qtbot):
    asked, queue = answers
    one_move(window)
    queue.append(QMessageBox.Cancel)
    window.close()
    assert window.isVisible() and len(asked) == 1
    queue.append(QMessageBox.Discard)
    window.close()
    assert not window.isVisible()
