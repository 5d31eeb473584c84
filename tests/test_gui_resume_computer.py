"""A game against the computer survives a save, a reopen and a crash: the computer plays its side again."""
from __future__ import annotations

from pathlib import Path

import pytest
import tomli

from engine.computer import side_to_act
from engine.errors import BadFile
from engine.game import load_game
from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"


def make_window(qtbot, tmp_path, name="autosave.toml"):
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / name)
    qtbot.addWidget(win)
    win.resize(1100, 760)
    win.show()
    qtbot.waitExposed(win)
    win.computer_step_ms = 0
    return win


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = make_window(qtbot, tmp_path)
    assert win.open_file(TRAPPED)
    return win


def acting(win):
    return side_to_act(win.session.rules, win.session.state)


def into_the_soviet_turn(win, qtbot, actions: int) -> None:
    """The player ends the German phases; the computer plays ``actions`` of the Soviet turn and is paused."""
    assert win.start_new_game(7, computer={"soviet"})
    while acting(win) != "soviet":
        win.phase_bar.next_act.trigger()
    start = len(win.session.game.log)
    qtbot.waitUntil(lambda: len(win.session.game.log) >= start + actions, timeout=20000)
    win.pause_act.setChecked(True)


def test_the_autosave_records_the_computers_side_and_a_restart_plays_it_again(window, qtbot, tmp_path):
    into_the_soviet_turn(window, qtbot, 3)
    doc = tomli.loads(window.autosave.read_text("utf-8"))
    n = len(window.session.game.log)
    assert doc["computer"]["sides"] == ["soviet"] and doc["computer"]["bot"] == "baseline"
    played = doc["computer"]["played"]
    assert played == [i for i in range(1, n + 1) if window.session.by_computer(i - 1)] and len(played) >= 3
    # the process dies here (no close): a new window opens the autosave as the start-up offer does
    again = make_window(qtbot, tmp_path)
    assert again.open_file(window.autosave)
    assert again.computer is not None and again.computer.sides == {"soviet"}
    assert again.pause_act.isEnabled() and not again.pause_act.isChecked()
    assert [again.session.by_computer(i) for i in range(n)] == [window.session.by_computer(i) for i in range(n)]
    assert again.session.path is None            # Save asks where: it never writes over the autosave
    qtbot.waitUntil(lambda: acting(again) == "german", timeout=30000)
    assert len(again.session.game.log) > n
    assert all(again.session.by_computer(i) for i in range(n, len(again.session.game.log)))


def test_the_computers_reasons_are_kept_with_the_game_and_read_again_after_a_crash(window, qtbot, tmp_path):
    """The strong player says why for each action; the autosave keeps it, so the log reads the same after a restart
    (it was held in memory only: after kill -9 the resumed log had the actions without their reasons)."""
    assert window.start_new_game(7, computer={"soviet"}, bot="strong", options={"budget": 0.3})
    while acting(window) != "soviet":
        window.phase_bar.next_act.trigger()
    start = len(window.session.game.log)
    qtbot.waitUntil(lambda: len(window.session.game.log) >= start + 2, timeout=60000)
    window.pause_act.setChecked(True)
    qtbot.waitUntil(lambda: not window.computer.is_thinking(), timeout=20000)
    n = len(window.session.game.log)
    doc = tomli.loads(window.autosave.read_text("utf-8"))
    reasons = doc["computer"]["reasons"]
    played = doc["computer"]["played"]
    assert reasons and set(map(int, reasons)) <= set(played) and len(played) >= 2 and all(reasons.values())
    again = make_window(qtbot, tmp_path)
    assert again.open_file(window.autosave)
    again.pause_act.setChecked(True)
    assert again.session.log_lines()[:n] == window.session.log_lines()[:n]
    assert all(f"({why})" in again.session.log_lines()[int(i) - 1] for i, why in reasons.items())


def test_a_saved_game_reopens_with_the_computer_and_the_players_undo_still_skips_its_actions(window, qtbot, tmp_path):
    into_the_soviet_turn(window, qtbot, 2)
    path = tmp_path / "mine.toml"
    assert window.save_game(path)
    game = load_game(path)
    assert game.computer.sides == ("soviet",) and game.computer.played
    window.open_file(TRAPPED)                     # another game in between: no computer
    assert window.computer is None and not window.pause_act.isEnabled()
    assert window.open_file(path)
    assert window.computer is not None and window.computer.sides == {"soviet"} and window.pause_act.isEnabled()
    window.pause_act.setChecked(True)
    before = window.session.game.log[:]
    computer_tail = sum(1 for i in range(len(before)) if window.session.by_computer(i))
    assert window.session.my_undo_count() == computer_tail + 1 < len(before) + 1


def test_a_game_without_the_computer_saves_no_computer_table(window, tmp_path):
    path = tmp_path / "alone.toml"
    assert window.save_game(path)
    doc = tomli.loads(path.read_text("utf-8"))
    assert "computer" not in doc and doc["sandtable"]
    assert window.open_file(path) and window.computer is None and not window.pause_act.isEnabled()


@pytest.mark.parametrize("table, key", [
    ('sides = "soviet"', "computer.sides"),
    ('sides = ["soviet"]\nbot = "clever"', "computer.bot"),
    ('sides = ["soviet"]\noptions = { cunning = 3 }', "computer.options.cunning"),
    ('sides = ["soviet"]\noptions = { min_column = "three" }', "computer.options.min_column"),
    ('sides = ["soviet"]\nbot = "strong"\noptions = { min_column = 3 }', "computer.options.min_column"),
    ('sides = ["soviet"]\nbot = "strong"\noptions = { budget = "long" }', "computer.options.budget"),
    ('sides = ["soviet"]\nplayed = [0]', "computer.played"),
    ('sides = ["soviet"]\nreasons = "it wanted to"', "computer.reasons"),
    ('sides = ["soviet"]\nreasons = { "0" = "before the start" }', "computer.reasons.0"),
    ('sides = ["soviet"]\nreasons = { "1" = 7 }', "computer.reasons.1"),
])
def test_a_bad_computer_table_is_named_by_its_key(window, tmp_path, table, key):
    path = tmp_path / "game.toml"
    window.save_game(path)
    path.write_text(path.read_text("utf-8") + f"\n[computer]\n{table}\n", "utf-8")
    with pytest.raises(BadFile) as e:
        load_game(path)
    assert [p.key for p in e.value.problems] == [key] and str(path) in str(e.value)
    assert not window.open_file(path) and key in window.last_error
