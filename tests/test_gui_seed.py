"""The game opened at start-up has fresh dice: a random seed, shown in the log and in File > New game."""
from __future__ import annotations

from pathlib import Path

from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"


def opened(qtbot, tmp_path, name):
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / f"{name}.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file(TRAPPED)
    return win


def test_each_opened_scenario_gets_its_own_random_seed_shown_in_the_log(qtbot, tmp_path):
    seeds = {opened(qtbot, tmp_path, f"w{i}").session.game.seed for i in range(3)}
    assert len(seeds) == 3 and 1 not in seeds           # three draws from 2**31 seeds: never all the same
    win = opened(qtbot, tmp_path, "shown")
    seed = win.session.game.seed
    assert win.log_dock.seed_label.isVisibleTo(win) and str(seed) in win.log_dock.seed_label.text()


def test_new_game_shows_the_seed_in_progress_and_can_reuse_it(qtbot, tmp_path):
    win = opened(qtbot, tmp_path, "dlg")
    seed = win.session.game.seed
    dlg = win.new_game_dialog()
    qtbot.addWidget(dlg)
    assert dlg.current_row.isVisibleTo(dlg) and str(seed) in dlg.current_label.text()
    assert dlg.seed_box.value() != seed                  # a new game gets new dice unless asked
    dlg.same_seed.click()
    assert dlg.seed_box.value() == seed
    dlg.accept()
    assert win.session.game.seed == seed and win.log_dock.seed_label.text() == f"Seed {seed} for the dice"


def test_new_game_offers_the_seed_in_progress_only_for_the_same_scenario(qtbot, tmp_path):
    win = opened(qtbot, tmp_path, "other")
    dlg = win.new_game_dialog(ROOT / "scenarios" / "demyansk-2-campaign.toml")    # the library's other scenario
    qtbot.addWidget(dlg)
    assert dlg.offer is not None and not dlg.current_row.isVisibleTo(dlg)
    dlg.set_scenario(TRAPPED)                            # back to the game in progress's own scenario
    assert dlg.current_row.isVisibleTo(dlg)
    dlg.set_scenario(ROOT / "scenarios" / "leros-2-drop-zone.toml")
    assert not dlg.current_row.isVisibleTo(dlg)
