"""The computer playing a side in the play window: the engine's bot, one action at a time, marked, undone as a block."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.computer import bot_for, fork, side_to_act
from engine.scenario.newgame import new_game
from gui.play.session import Refusal
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
SEED = 3


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, TRAPPED, size=(1100, 760), monkeypatch=monkeypatch)
    win.computer_step_ms = 0
    return win


def acting(win) -> str | None:
    return side_to_act(win.session.rules, win.session.state)


def end_german_turn(win) -> int:
    """The player ends the German phases until the game waits for the Soviets; the log's length before the last end."""
    for _ in range(8):
        before = len(win.session.game.log)
        win.phase_bar.next_act.trigger()
        if acting(win) == "soviet":
            return before
    raise AssertionError(f"the German turn did not end ({win.session.state.phase})")


def headless_soviet_turn(human: list[str]):
    """The same game without a window: the player's actions, then the Soviet bot until the Germans are to act."""
    game = new_game(TRAPPED, SEED)
    for text in human:
        game.play(text)
    bot = bot_for(game.rules, "soviet")
    while side_to_act(game.rules, game.state) == "soviet":
        game.play(bot(game.state).text())
    return game


def test_the_computer_plays_the_soviet_turn_as_the_engine_bot_does_and_the_log_says_so(window, qtbot):
    assert window.start_new_game(SEED, computer={"soviet"})
    assert window.computer is not None and window.pause_act.isEnabled()
    mark = end_german_turn(window)
    human = window.session.game.actions_text()
    acted = []
    window.computer.acted.connect(acted.append)
    qtbot.waitUntil(lambda: acting(window) == "german", timeout=30000)
    expected = headless_soviet_turn(human)
    game = window.session.game
    assert game.actions_text() == expected.actions_text() and game.hash() == expected.hash()
    assert acted == game.actions_text()[len(human):] and len(acted) > 5    # one signal per action, in order
    lines = window.log_dock.lines()
    assert all("[computer]" in line for line in lines[len(human):])
    assert not any("[computer]" in line for line in lines[:len(human)])
    assert mark == len(human) - 1
    assert window.map_view.drag_enabled and window.phase_bar.next_act.isEnabled()    # the player's turn again
    assert "computer" not in window.phase_bar.label.text()


def test_an_answer_dropped_by_a_pause_leaves_the_computer_choosing_as_the_headless_bot(window, qtbot, monkeypatch):
    # the worker thinks with a copy of the bot: the answers Pause throws away must not leave their mark in the
    # bot's memory (the baseline bot remembers the units it has handled this phase).  A gate holds each worker
    # before it thinks, so the test pauses while it is surely thinking, whatever the machine's load.
    import threading

    from gui.common import computerplayer
    gate = threading.Event()
    think = computerplayer._Thinker.run

    def gated(self):
        gate.wait(60)
        think(self)
    monkeypatch.setattr(computerplayer._Thinker, "run", gated)
    assert window.start_new_game(SEED, computer={"soviet"})
    end_german_turn(window)                          # the Soviet's first worker waits at the gate
    human = window.session.game.actions_text()
    computer = window.computer
    dropped = 0
    while acting(window) == "soviet" and dropped < 6:
        qtbot.waitUntil(lambda: computer.is_thinking() or acting(window) != "soviet", timeout=30000)
        if not computer.is_thinking():
            break
        before = len(window.session.game.log)
        thinker = computer._thinker
        window.pause_act.setChecked(True)            # its answer comes back to a paused computer: dropped
        gate.set()
        thinker.wait(30000)
        gate.clear()
        qtbot.wait(20)
        assert len(window.session.game.log) == before
        dropped += 1
        window.pause_act.setChecked(False)
        gate.set()                                   # the next answer is played
        qtbot.waitUntil(lambda: len(window.session.game.log) > before or acting(window) != "soviet", timeout=30000)
        gate.clear()
    gate.set()
    qtbot.waitUntil(lambda: acting(window) == "german", timeout=60000)
    expected = headless_soviet_turn(human)
    assert window.session.game.actions_text() == expected.actions_text()
    assert dropped >= 1


def test_a_forked_bot_keeps_its_own_memory():
    game = new_game(TRAPPED, SEED)
    while side_to_act(game.rules, game.state) != "soviet":
        game.play(bot_for(game.rules, "german")(game.state).text())
    bot = bot_for(game.rules, "soviet")
    first = fork(bot)(game.state)                     # the copy chooses; the original has not seen it
    assert bot(game.state).text() == first.text()     # so it makes the same choice again
    assert fork(lambda st: None) is not None


def test_undo_steps_back_over_the_computer_to_the_players_own_action_and_redo_replays_them(window, qtbot):
    assert window.start_new_game(SEED, computer={"soviet"})
    mark = end_german_turn(window)
    qtbot.waitUntil(lambda: acting(window) == "german", timeout=30000)
    game = window.session.game
    after, n_after = game.hash(), len(game.log)
    before_end = new_game(TRAPPED, SEED)
    for text in game.actions_text()[:mark]:
        before_end.play(text)
    window.phase_bar.undo_act.trigger()
    assert len(game.log) == mark and game.hash() == before_end.hash()     # the player's "end" and all Soviet actions
    assert acting(window) == "german"
    qtbot.wait(50)
    assert len(game.log) == mark                                          # the computer does not play on its own
    window.phase_bar.redo_act.trigger()
    assert len(game.log) == n_after and game.hash() == after
    assert all(window.session.by_computer(i) for i in range(mark + 1, n_after))
    assert not window.session.by_computer(mark)


def test_pause_holds_the_computer_and_lets_the_player_act_until_it_is_released(window, qtbot):
    assert window.start_new_game(SEED, computer={"german"})
    window.pause_act.setChecked(True)          # the timer had not fired yet: nothing is played while paused
    qtbot.wait(50)
    assert len(window.session.game.log) == 0 and window.map_view.drag_enabled
    window.phase_bar.next_act.trigger()        # the player acts for the German while the computer is paused
    assert len(window.session.game.log) == 1 and not window.session.by_computer(0)
    window.pause_act.setChecked(False)
    qtbot.waitUntil(lambda: len(window.session.game.log) >= 3, timeout=10000)
    assert window.session.by_computer(1) and window.session.by_computer(2)


def test_while_the_computer_plays_the_map_and_next_phase_wait_for_it(window, qtbot):
    window.computer_step_ms = 60000            # the computer's first action is due in a minute
    assert window.start_new_game(SEED, computer={"german"})
    assert not window.map_view.drag_enabled and not window.phase_bar.next_act.isEnabled()
    assert window.phase_bar.label.text().endswith("the computer is playing German")
    assert window.computer.busy()
    assert window.computer.step()               # its first action, through the session like the player's
    assert window.log_dock.lines()[0].startswith("1. [computer] ")
    window.pause_act.setChecked(True)
    assert not window.computer.busy()


def test_while_the_computer_plays_a_side_the_persons_actions_for_it_are_refused_until_it_is_paused(window, qtbot):
    """The panels' buttons stay where they are; the session refuses what they would play for the computer's side."""
    window.computer_step_ms = 60000            # the computer's first action is due in a minute
    assert window.start_new_game(SEED, computer={"german"})
    text = bot_for(window.session.rules, "german")(window.session.state).text()
    refused = window.session.play(text)
    assert isinstance(refused, Refusal) and len(window.session.game.log) == 0
    assert "The computer is playing German now" in refused.message and "Ctrl+Shift+P" in refused.message
    window.pause_act.setChecked(True)
    assert not isinstance(window.session.play(text), Refusal) and len(window.session.game.log) == 1
    window._stop_computer()                    # the computer no longer plays: nothing is held
    assert window.session.table_holder is None


def test_the_players_undo_refuses_when_only_the_computer_has_played(window, qtbot):
    assert window.start_new_game(SEED, computer={"german"})
    qtbot.waitUntil(lambda: len(window.session.game.log) >= 2, timeout=10000)
    window.pause_act.setChecked(True)
    n = len(window.session.game.log)
    window.undo()
    assert "nothing of yours to undo" in window.last_refusal and len(window.session.game.log) == n


def test_the_pause_button_stays_under_the_mouse_when_the_computer_stops_playing(window, qtbot):
    # pausing shortens the phase bar's text ("— the computer is playing Soviet" goes); the button must not
    # move, or the click that would resume the computer misses it
    assert window.start_new_game(SEED, computer={"soviet"})
    end_german_turn(window)
    qtbot.waitUntil(lambda: "the computer is" in window.phase_bar.label.text(), timeout=30000)
    button = window.phase_bar.widgetForAction(window.pause_act)
    window.phase_bar.layout().activate()
    where = button.mapTo(window, button.rect().center())
    window.pause_act.setChecked(True)
    qtbot.waitUntil(lambda: "the computer is" not in window.phase_bar.label.text(), timeout=30000)
    window.phase_bar.layout().activate()
    assert button.mapTo(window, button.rect().center()) == where
    qtbot.mouseClick(button, Qt.LeftButton)                     # the same place resumes it
    assert not window.pause_act.isChecked()


def test_closing_the_window_while_the_computer_thinks_ends_its_thread_and_nothing_reaches_the_closed_window(
        window, qtbot):
    # a window closed while the computer thinks: its worker thread used to outlive the window, and the worker's
    # last signals then redrew panels already deleted ("Internal C++ object (QListWidget) already deleted" in a
    # later event loop; a QThread destroyed while running takes the program down)
    assert window.start_new_game(SEED, computer={"soviet"})
    end_german_turn(window)
    qtbot.waitUntil(lambda: window.computer.busy(), timeout=30000)
    computer = window.computer
    shown = []
    window._show_play = lambda: shown.append("redrawn")          # what the worker's last signals would call
    window.close()
    assert not computer.is_thinking() and not computer.busy()
    qtbot.wait(300)                                               # any queued signal is delivered now
    assert shown == []


def test_the_computer_waits_while_the_user_is_asked_about_the_unsaved_game(window, qtbot, monkeypatch):
    # behind the Save / Discard / Cancel question the computer went on playing: the count of actions asked about
    # was stale at once, and a game kept by Cancel had moved on unseen
    from PySide6.QtWidgets import QApplication, QMessageBox

    from gui.play.window import MainWindow

    assert window.start_new_game(SEED, computer={"soviet"})
    end_german_turn(window)
    qtbot.waitUntil(lambda: window.computer.busy(), timeout=30000)
    seen = {}

    def question(parent, title, text, *a, **k):
        seen["asked at"] = len(window.session.game.log)
        for _ in range(40):                      # the user reads the question for a while
            QApplication.processEvents()
            qtbot.wait(5)
        seen["answered at"] = len(window.session.game.log)
        return QMessageBox.Cancel

    monkeypatch.setattr(MainWindow, "_offscreen", lambda self: False)
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    assert not window.keep_game_in_progress()                 # Cancel: the game is kept
    assert seen["answered at"] == seen["asked at"]
    assert not window.computer.paused                         # and the computer plays on
    qtbot.waitUntil(lambda: len(window.session.game.log) > seen["answered at"], timeout=30000)
