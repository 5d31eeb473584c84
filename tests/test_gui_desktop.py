"""Desktop basics: help shown inside the program, the rules reference, the About box and the version, remembered
window layouts that fit the screen, the same menus in the skirmish window, Open recent and the dialogs' folder,
and ``python -m gui``."""
from __future__ import annotations

import datetime
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import tomli
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QDockWidget

from engine.rulesets.scw.bot import attacker_move
from gui.play.window import MainWindow
from gui.common.menus import WindowMenus
from gui.common.settings import fit_rect, remember_layout
from gui.table.session import TableSession
from gui.table.window import TableWindow

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
SKIRMISH = ROOT / "scenarios" / "scw-platoon-attack.toml"


@pytest.fixture
def window(qtbot, tmp_path):
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file(TRAPPED)
    return win


def menu(win, title):
    return next(a.menu() for a in win.menuBar().actions() if a.text().replace("&", "") == title)


def item(m, text):
    return next(a for a in m.actions() if a.text().replace("&", "").startswith(text))


def makers(win):
    """Help > For map and scenario makers: the documents on map and scenario files."""
    return item(menu(win, "Help"), "For map and scenario makers").menu()


def test_help_shows_the_projects_markdown_documents_inside_the_program(window, monkeypatch):
    opened = []
    from PySide6.QtGui import QDesktopServices

    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url))
    item(makers(window), "Line of sight").trigger()
    help_window = window.menus.help_window
    assert help_window.isVisible() and help_window.page.endswith("los.md")
    text = help_window.browser.toPlainText()
    assert "Line of sight" in text and "#" not in text.splitlines()[0]        # rendered, not shown as source
    item(menu(window, "Help"), "Getting started").trigger()             # for players, not the project's README
    assert help_window.page.endswith("getting-started.md") and "game library" in help_window.browser.toPlainText()
    assert opened == []                                                         # nothing handed to the desktop


def test_help_rules_reference_lists_each_games_rules_by_number_with_what_each_enforces(window):
    rules_menu = item(menu(window, "Help"), "Rules reference").menu()
    assert [a.text() for a in rules_menu.actions()] == ["Demyansk Pocket", "Spanish Civil War skirmish",
                                                        "Black Wednesday", "Leros"]
    rules_menu.actions()[0].trigger()
    text = window.menus.help_window.browser.toPlainText()
    for number, words in (("5.2", "Soviets never leave a German ZOC"), ("6.7", "chosen by the owner"),
                          ("9.3", "18 turns")):
        assert number in text and words in text


def test_about_box_and_command_line_give_the_installed_packages_version_and_saves_record_it(window, tmp_path):
    box = window.menus.show_about()
    assert box.isVisible() and f"Sandtable {version('sandtable')}" in box.text()
    box.close()
    out = subprocess.run([sys.executable, "-m", "gui", "--version"], capture_output=True, text=True, check=True)
    # and the library that cuts map scans into tiles (libvips where it loads, else Pillow)
    from gui.scene.tiles import tiler_name

    assert out.stdout.strip() == f"sandtable {version('sandtable')} (map tiles by {tiler_name()})"
    path = tmp_path / "game.toml"
    assert window.save_game(path)
    assert tomli.loads(path.read_text("utf-8"))["sandtable"] == version("sandtable")


def test_python_m_gui_starts_the_program_like_sandtable(tmp_path):
    shot = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-m", "gui", str(ROOT / "maps" / "demo.toml"), "--screenshot", str(shot)],
                   env=env, check=True, timeout=120, capture_output=True)
    assert shot.stat().st_size > 10000


def test_a_window_never_opens_larger_than_the_screen_and_remembers_its_layout(window, qtbot):
    small = QRect(0, 0, 800, 500)             # a 1600x1000 screen at 2x scaling
    assert not remember_layout(window, "play", QSize(1280, 860), available=small)
    assert small.contains(window.geometry())
    window.resize(760, 560)          # the offscreen screen is 800x600
    window.move(40, 30)
    window.log_dock.hide()
    window.close()
    again = MainWindow(autosave=window.autosave)
    qtbot.addWidget(again)
    assert remember_layout(again, "play", QSize(1280, 860), available=QRect(0, 0, 1600, 1000))
    again.show()
    assert again.size() == QSize(760, 560) and again.log_dock.isHidden() and not again.tray.isHidden()
    remember_layout(again, "play", QSize(1280, 860), available=small)     # the same layout on the small screen
    assert small.contains(again.geometry()) and again.size() != QSize(760, 560)


def test_fit_rect_shrinks_and_moves_a_window_inside_the_available_area():
    assert fit_rect(QRect(900, 700, 1280, 860), QRect(0, 0, 800, 500)) == QRect(0, 0, 800, 500)
    assert fit_rect(QRect(500, 400, 400, 300), QRect(0, 0, 800, 500)) == QRect(400, 200, 400, 300)
    assert fit_rect(QRect(10, 20, 400, 300), QRect(0, 0, 800, 500)) == QRect(10, 20, 400, 300)


@pytest.fixture
def skirmish(qtbot, tmp_path):
    win = TableWindow(TableSession.new(SKIRMISH, seed=2), autosave=tmp_path / "auto.toml",
                      recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


def shortcuts(m) -> dict[str, str]:
    return {a.text().replace("&", ""): a.shortcut().toString() for a in m.actions() if a.text()}


def test_the_skirmish_window_has_the_play_windows_menu_bar_and_shortcuts(skirmish, window):
    assert isinstance(skirmish.menus, WindowMenus) and isinstance(window.menus, WindowMenus)
    titles = [a.text().replace("&", "") for a in skirmish.menuBar().actions()]
    assert titles == ["File", "Edit", "View", "Help"]
    f = shortcuts(menu(skirmish, "File"))
    assert f["Open…"] == "Ctrl+O" and "Open recent" in f and f["Save game"] == "Ctrl+S"
    assert f["Save game as…"] == "Ctrl+Shift+S" and f["Quit"] == "Ctrl+Q"
    assert shortcuts(menu(skirmish, "Edit")) == {"Undo": "Ctrl+Z", "Redo": "Ctrl+Shift+Z"}
    play_file = shortcuts(menu(window, "File"))
    assert all(play_file[k] == v for k, v in f.items() if k in ("Open…", "Save game", "Save game as…", "Quit"))
    assert shortcuts(menu(window, "Edit")) == {"Undo": "Ctrl+Z", "Redo": "Ctrl+Shift+Z"}
    helps = [a.text() for a in menu(skirmish, "Help").actions()]
    assert helps == [a.text() for a in menu(window, "Help").actions()]


def test_ctrl_z_in_the_skirmish_window_undoes_the_last_order(skirmish, qtbot):
    s = skirmish.session
    assert skirmish.give(attacker_move(s.rules, s.state).text()) and s.game.can_undo()
    skirmish.activateWindow()
    skirmish.view.setFocus()
    qtbot.keyClick(skirmish.view, Qt.Key_Z, Qt.ControlModifier)
    assert not s.game.can_undo() and s.game.can_redo()


def test_the_skirmish_window_saves_to_recent_and_opens_a_saved_skirmish_through_file_open(skirmish, tmp_path):
    s = skirmish.session
    skirmish.give(attacker_move(s.rules, s.state).text())
    path = tmp_path / "games" / "skirmish.toml"
    path.parent.mkdir()
    assert skirmish.menus.save_to(path)
    assert skirmish.recent.files() == [path] and skirmish.saved_path == path
    day = datetime.date.today().isoformat()
    assert skirmish.menus.save_start() == str(path.parent / f"scw-platoon-attack-turn1-{day}.toml")
    assert skirmish.menus.open(path)
    assert skirmish.session.game.actions_text() == s.game.actions_text() and skirmish.session is not s


def test_saving_adds_to_open_recent_and_the_dialogs_start_in_the_last_folder_with_a_name(window, tmp_path):
    folder = tmp_path / "my games"
    folder.mkdir()
    assert window.menus.save_to(folder / "first.toml")
    window.menus.fill_recent()
    assert [a.text() for a in window.recent_menu.actions()][0] == "&1 first.toml"
    turn = window.session.state.turn
    day = datetime.date.today().isoformat()
    assert window.menus.save_start() == str(folder / f"demyansk-1-trapped-turn{turn}-{day}.toml")
    assert window.menus.open_start() == str(folder)
    assert window.session.path == folder / "first.toml"


def test_docks_and_toolbars_have_names_so_their_layout_can_be_saved(window, skirmish):
    for win in (window, skirmish):
        for w in win.findChildren(QDockWidget):
            assert w.objectName(), w.windowTitle()


def test_a_skirmish_refusal_links_its_rule_to_the_skirmish_rules_reference(skirmish):
    start = skirmish.session.state["teams"]["T2"]["at"]
    assert not skirmish.move_team("T2", start[0], start[1] - 12.0)         # beyond Bravado 8
    link = skirmish.menus.rule_link
    assert skirmish.last_refusal.startswith("SCW Advance 1:") and link.isVisibleTo(skirmish)
    link.linkActivated.emit("rule:SCW Advance 1")
    help_window = skirmish.menus.help_window
    assert help_window.isVisible() and help_window.page == "rules:SCW#scw-advance-1"
    assert "Bravado in inches" in help_window.browser.toPlainText()
    s = skirmish.session
    skirmish.give(attacker_move(s.rules, s.state).text())                 # the game moves on: the link goes
    assert not link.isVisibleTo(skirmish)


def test_the_help_window_closes_with_the_window_that_opened_it(window):
    item(makers(window), "Map files").trigger()
    assert window.menus.help_window.isVisible()
    window.close()
    assert not window.menus.help_window.isVisible()


def test_the_skirmish_new_game_dialog_shows_the_seed_in_progress(skirmish, qtbot):
    dlg = skirmish.new_game_dialog()
    qtbot.addWidget(dlg)
    assert dlg.current_row.isVisibleTo(dlg) and "seed 2" in dlg.current_label.text()


def test_the_first_save_dialog_starts_in_the_sandtable_folder_of_the_users_documents(window, monkeypatch, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    from PySide6.QtCore import QStandardPaths

    docs = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    expected = (Path(docs) if docs else home / "Documents") / "Sandtable"     # the game library's folder, made
    start = Path(window.menus.save_start())
    assert start.parent == expected and start.parent.is_dir() and Path.cwd() not in start.parents
    assert start.name.startswith("demyansk-1-trapped-turn1-")


def test_a_link_between_documents_opens_inside_the_help_window(window, monkeypatch):
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url))
    item(makers(window), "Map files").trigger()
    help_window = window.menus.help_window
    help_window.browser.anchorClicked.emit(QUrl("los.md"))
    assert help_window.page == str((ROOT / "docs" / "los.md").resolve()) and opened == []
    help_window.browser.anchorClicked.emit(QUrl("rule:Demyansk 6.7"))
    assert help_window.page == "rules:Demyansk#demyansk-6.7"
    help_window.browser.anchorClicked.emit(QUrl("https://example.org/"))
    assert [u.toString() for u in opened] == ["https://example.org/"]


def test_file_open_in_the_skirmish_window_opens_a_hex_game_in_a_play_window(skirmish, qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))       # the play window's autosave goes there
    assert skirmish.menus.open(TRAPPED)
    host = skirmish.play_window
    assert str(host.autosave).startswith(str(tmp_path))
    qtbot.addWidget(host)
    assert host.isVisible() and host.scenario is not None and host.scenario.path == str(TRAPPED)
    assert getattr(host, "layout_key", None) == "play"


def test_with_no_game_the_battle_panel_offers_nothing_to_press(qtbot, tmp_path):
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.session is None
    c = win.combat                                       # were enabled, with no game and nothing declared
    assert not c.resolve_btn.isEnabled() and not c.choose_btn.isEnabled() and not c.declare_btn.isEnabled()
    assert win.open_file(TRAPPED)
    assert not c.resolve_btn.isEnabled() and not c.choose_btn.isEnabled()     # German reinforcements: no battle yet
