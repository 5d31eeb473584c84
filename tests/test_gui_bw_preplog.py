"""The Prep Log editor (BW 2.4, 1.10b), offscreen: the real grid typed into, the engine's checks shown."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from engine.rulesets.tcs.games.bw_prep import load_prep_log
from gui.play.window import MainWindow
from gui.tcs.preplog import PrepLogEditor

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def editor(qtbot):
    dlg = PrepLogEditor()
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def save_button(dlg):
    return dlg.buttons.button(QDialogButtonBox.Save)


def test_the_editor_opens_on_the_historical_log_with_katyusha_boxes_only_on_their_turns(editor):
    assert editor.grid.rowCount() == 8 and editor.grid.columnCount() == 12
    assert editor.grid.item(0, 0).text() == "B29.30"
    assert not editor.grid.item(2, 0).flags() & Qt.ItemIsEditable          # 0640: no Katyusha box (2.4)
    assert editor.grid.item(2, 3).flags() & Qt.ItemIsEditable
    assert editor.problems() == [] and save_button(editor).isEnabled()


def test_an_idle_gun_or_a_hex_off_the_map_is_listed_and_blocks_saving_then_saving_writes_the_log(editor, tmp_path):
    editor.set_target("0700 10 Feb", "122mm 3", "")
    assert any("122mm 3" in editor.problem_list.item(i).text() for i in range(editor.problem_list.count()))
    assert not save_button(editor).isEnabled() and not editor.save(tmp_path / "x.toml")
    assert not (tmp_path / "x.toml").exists()
    editor.set_target("0700 10 Feb", "122mm 3", "Z99.99")
    assert any("Z99.99" in p for p in editor.problems())
    editor.set_target("0700 10 Feb", "122mm 3", "b40.16")                   # typed in lower case
    assert editor.problems() == [] and save_button(editor).isEnabled()
    assert editor.save(tmp_path / "mine.toml")
    log = load_prep_log(tmp_path / "mine.toml")
    assert log.target("0700 10 Feb", "122mm 3") == "B40.16" and log.target("0700 10 Feb", "122mm 4") == "B34.15"
    editor.use_historical()
    assert editor.log().target("0700 10 Feb", "122mm 3") == "B34.17"


def bw1_window(qtbot, tmp_path, monkeypatch) -> MainWindow:
    """A shown play window with its own folders, Black Wednesday 1 open."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file(ROOT / "scenarios" / "black-wednesday-1-turning-the-left.toml")
    return win


def test_the_play_window_shows_a_scenarios_log_read_only(qtbot, tmp_path, monkeypatch):
    win = bw1_window(qtbot, tmp_path, monkeypatch)
    assert win.tcs.prep_act.isVisible()
    dlg = win.tcs.show_prep_log()
    assert dlg.read_only and dlg.grid.columnCount() == 3 and not save_button(dlg).isEnabled()
    assert dlg.grid.item(0, 0).text() == "B15.32"
    dlg.close()
    win.tcs._prep_menu(None)                                                # no TCS game: no Log to show
    assert not win.tcs.prep_act.isVisible()


def test_a_new_game_with_the_own_log_variant_asks_the_soviet_log_first_and_plays_it(qtbot, tmp_path, monkeypatch):
    win = bw1_window(qtbot, tmp_path, monkeypatch)
    assert win.start_new_game(3, ("own-prep-log",))
    dlg = win.tcs.prep_dialog
    assert dlg is not None and dlg.isVisible() and dlg.for_game and not dlg.read_only
    assert win.session.play("end").rule == "BW 1.10b"                      # nothing before the Log
    dlg.set_target("0600 10 Feb", "122mm 1", "")
    assert not dlg.start_button.isEnabled()                                 # an idle gun (2.4)
    dlg.set_target("0600 10 Feb", "122mm 1", "B20.30")
    assert dlg.start_button.isEnabled()
    qtbot.mouseClick(dlg.start_button, Qt.LeftButton)
    assert win.session.game.actions_text()[0].startswith("preplog B20.30,")
    assert win.session.game.variants == ("own-prep-log",)
    shown = win.tcs.show_prep_log()                                         # now the game's Log, read-only
    assert shown.read_only and shown.grid.item(0, 0).text() == "B20.30"
