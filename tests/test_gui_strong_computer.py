"""The strong computer player in the play window: chosen in New game, thinking off the GUI thread, stopped by Pause."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
import tomli
from PySide6.QtCore import QTimer

import gui.common.computerplayer as computerplayer
from engine.computer import side_to_act
from playwindow import play_window
from gui.common.newgame import COMPUTER, NewGameDialog

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
RIVER = ROOT / "scenarios" / "classic-river-crossing.toml"
TCS = ROOT / "scenarios" / "tcs-test.toml"
FREE = ROOT / "scenarios" / "free-demo.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, TRAPPED, size=(1100, 760), monkeypatch=monkeypatch)
    win.computer_step_ms = 0
    return win


def acting(win):
    return side_to_act(win.session.rules, win.session.state)


def test_new_game_offers_the_strong_player_where_it_knows_the_rules(qtbot):
    dlg = NewGameDialog(TRAPPED, computer={"soviet"})
    qtbot.addWidget(dlg)
    levels = [dlg.level_box.itemData(i) for i in range(dlg.level_box.count())]
    assert levels == ["baseline", "strong"] and dlg.level_box.isEnabled()
    dlg.level_box.setCurrentIndex(dlg.level_box.findData("strong"))
    dlg.set_played_by("soviet", COMPUTER)
    assert dlg.budget_box.isEnabled()
    dlg.budget_box.setValue(1.5)
    choice = dlg.choice()
    assert choice.bot == "strong" and choice.computer == frozenset({"soviet"})
    assert dict(choice.options) == {"budget": 1.5}            # the thinking budget a phase, an option of the player
    river = NewGameDialog(RIVER, computer={"red"})                # the classic rules have a strong player too
    qtbot.addWidget(river)
    assert [river.level_box.itemData(i) for i in range(river.level_box.count())] == ["baseline", "strong"]
    tcs = NewGameDialog(TCS, computer={"red"})                    # the TCS has one (Black Wednesday, Leros)
    qtbot.addWidget(tcs)
    assert [tcs.level_box.itemData(i) for i in range(tcs.level_box.count())] == ["baseline", "strong"]
    other = NewGameDialog(FREE)                                    # the free table has none
    qtbot.addWidget(other)
    assert [other.level_box.itemData(i) for i in range(other.level_box.count())] == ["baseline"]
    assert not other.level_box.isEnabled() and other.choice().bot == "baseline" and other.choice().options == ()
    assert not other.budget_box.isEnabled()


def test_the_strong_player_thinks_off_the_gui_thread_and_plays_the_soviet_turn(window, qtbot, tmp_path):
    threads = set()
    real = computerplayer.bot_for

    def watched(*args, **kwargs):
        bot = real(*args, **kwargs)

        def choose(st):
            threads.add(threading.get_ident())
            return bot(st)
        choose.player = getattr(bot, "player", None)      # the strong player behind it, with its reasons
        return choose

    computerplayer.bot_for = watched
    try:
        assert window.start_new_game(3, computer={"soviet"}, bot="strong", options={"budget": 1.5})
        assert window.computer.bot == "strong" and window.session.computer.bot == "strong"
        assert window.session.computer.options == {"budget": 1.5}
        while acting(window) != "soviet":
            window.phase_bar.next_act.trigger()
        start = len(window.session.game.log)
        qtbot.waitUntil(lambda: acting(window) == "german", timeout=120000)
    finally:
        computerplayer.bot_for = real
    assert threads and threading.get_ident() not in threads        # every decision was made in a worker thread
    lines = window.log_dock.lines()[start:]
    assert lines and all("[computer]" in line for line in lines)
    # each of its moves and battles says why in one line, after the action
    assert any("heads for the corridor" in line or "expected gain" in line for line in lines)
    path = tmp_path / "strong.toml"
    assert window.save_game(path)
    saved = tomli.loads(path.read_text("utf-8"))["computer"]
    assert saved["bot"] == "strong" and saved["options"] == {"budget": 1.5}


def test_pause_stops_the_player_thinking_and_drops_its_answer(window, qtbot):
    asked = []
    started = threading.Event()

    def slow_bot(rules, side, options=None, bot="baseline", cancel=None):
        def choose(st):
            asked.append(side)
            started.set()
            while not cancel():              # thinks until told to stop, as the strong player checks between battles
                threading.Event().wait(0.01)
            from engine.rulesets.demyansk.actions import EndPhase
            return EndPhase()
        return choose

    real = computerplayer.bot_for
    computerplayer.bot_for = slow_bot
    try:
        assert window.start_new_game(3, computer={"german"}, bot="strong")
        qtbot.waitUntil(lambda: window.computer.is_thinking(), timeout=10000)
        assert started.wait(10)
        ticks = []
        timer = QTimer()
        timer.timeout.connect(lambda: ticks.append(window.computer.is_thinking()))
        timer.start(5)
        qtbot.waitUntil(lambda: sum(ticks) >= 5, timeout=10000)   # the window's own events run while it thinks
        timer.stop()
        assert "thinking for German" in window.phase_bar.label.text()
        window.pause_act.setChecked(True)                 # Pause: the bot is told to stop
        qtbot.waitUntil(lambda: not window.computer.is_thinking(), timeout=10000)
        qtbot.wait(100)
        assert len(window.session.game.log) == 0           # its answer came after Pause: dropped, nothing played
        assert window.map_view.drag_enabled and window.phase_bar.next_act.isEnabled()
    finally:
        window.pause_act.setChecked(True)
        computerplayer.bot_for = real
    assert asked == ["german"]
