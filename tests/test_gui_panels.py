"""The play window's panels belong to their game: a TCS game and a restart never take Demyansk's panels away."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt

from gui.common.settings import remember_layout
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
DEMYANSK = ROOT / "scenarios" / "demyansk-1-trapped.toml"
TCS = ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml"


def shown(win, docks):
    return [d.isVisibleTo(win) for d in docks]


def menu_titles(win):
    return [a.text() for a in win.panels.menu.actions()]


def restart(qtbot, tmp_path, old):
    """Close the window as the program does at Quit, then start another as the program does."""
    old.close()
    win = play_window(qtbot, tmp_path)
    remember_layout(win, "play", QSize(1100, 760))
    win.panels.show_game(win.session)
    return win


def test_demyansk_after_a_tcs_game_and_a_restart_has_all_its_panels(qtbot, tmp_path):
    win = play_window(qtbot, tmp_path, DEMYANSK)
    hexes = (win.tray, win.combat, win.victory)
    assert shown(win, hexes) == [True, True, True] and not any(shown(win, win.tcs.docks))
    assert menu_titles(win)[:4] == [d.windowTitle() for d in (win.log_dock, win.tray, win.combat, win.victory)]
    assert not {d.windowTitle() for d in win.tcs.docks} & set(menu_titles(win))
    assert win.open_file(TCS)
    assert all(shown(win, win.tcs.docks)) and not any(shown(win, hexes))
    assert [d.windowTitle() for d in win.tcs.docks] == [t for t in menu_titles(win) if t in
                                                        {d.windowTitle() for d in win.tcs.docks}]
    assert not {d.windowTitle() for d in hexes} & set(menu_titles(win))     # another game's panels are not offered
    win = restart(qtbot, tmp_path, win)                                   # quit with the TCS game open
    assert not any(shown(win, win.tcs.docks))                             # the TCS layout is not put on no game
    assert win.open_file(DEMYANSK)
    assert shown(win, (win.tray, win.combat, win.victory)) == [True, True, True]
    assert not any(shown(win, win.tcs.docks))


def test_each_kind_of_game_keeps_its_own_layout_and_view_panels_brings_a_closed_one_back(qtbot, tmp_path):
    win = play_window(qtbot, tmp_path, DEMYANSK)
    win.combat.close()                                                    # the player closes Demyansk's battle panel
    assert win.open_file(TCS)
    win.tcs.artillery.close()                                             # and the TCS artillery panel
    assert win.open_file(DEMYANSK)
    assert shown(win, (win.tray, win.combat, win.victory)) == [True, False, True]
    battle = next(a for a in win.panels.menu.actions() if a.text() == win.combat.windowTitle())
    assert battle.isCheckable() and not battle.isChecked()
    battle.trigger()                                                      # View > Panels > Battle
    assert win.combat.isVisibleTo(win)
    win = restart(qtbot, tmp_path, win)
    assert win.open_file(TCS)
    assert not win.tcs.artillery.isVisibleTo(win) and win.tcs.sheets.isVisibleTo(win)
    assert win.open_file(DEMYANSK)
    assert shown(win, (win.tray, win.combat, win.victory)) == [True, True, True]


def test_the_keyboard_shortcuts_are_a_table_of_two_aligned_columns(qtbot, tmp_path):
    """Help > Keyboard shortcuts shows a table (keys right-aligned in one column, what they do in the next), not
    text padded with spaces, which no proportional font lines up."""
    win = play_window(qtbot, tmp_path)
    box = win.menus.show_shortcuts()
    try:
        html = box.text()
        assert html.startswith("<table") and box.textFormat() == Qt.RichText
        rows = win.menus.shortcut_rows()
        assert ("Ctrl+Z", "Undo") in rows and html.count("<tr>") == len(rows)
        assert "<td align='right' style='padding-right:14px'><b>Ctrl+Z</b></td><td>Undo</td>" in html
        # the zoom presets say what they do and come in their order, after the words (they opened the table as
        # "100%, 12.5%, 200%, 25%, 50%")
        names = [name for _, name in rows]
        zooms = [name for name in names if name.startswith("Zoom to")]
        assert zooms == ["Zoom to 12.5%", "Zoom to 25%", "Zoom to 50%", "Zoom to 100%", "Zoom to 200%"]
        assert names[0][0].isalpha() and names.index("Zoom in") < names.index("Zoom to 12.5%")
    finally:
        box.close()


def test_a_save_never_starts_in_the_programs_folders_and_names_the_turn_as_shown(qtbot, tmp_path, monkeypatch):
    """After opening a shipped scenario from the program's scenarios folder, Save as starts in the user's
    Sandtable folder; a TCS game's first turn is named turn1 and its time, not turn0."""
    from gui.common.settings import remember_folder

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    win = play_window(qtbot, tmp_path)
    assert win.menus.open(TCS)                                  # File > Open from the program's scenarios folder
    start = Path(win.menus.save_start())
    assert start.parent.name == "Sandtable" and ROOT not in start.parents
    assert start.name.startswith("black-wednesday-4-melee-in-krasni-bor-turn1-")
    assert win.session.state.turn == 0 and "turn0" not in start.name
    mine = tmp_path / "my games"
    mine.mkdir()
    remember_folder(mine / "a.toml")                            # a folder of the user's own is kept
    assert Path(win.menus.save_start()).parent == mine


def test_a_long_log_entry_wraps_to_the_docks_width_and_is_kept_whole(qtbot):
    """A massed fire of a dozen units is one token joined by '+': it breaks after a '+', never scrolls sideways."""
    from gui.play.playpanels import LogDock

    dock = LogDock()
    qtbot.addWidget(dock)
    dock.resize(300, 400)
    dock.show()
    units = "+".join(f"2-342-63Gd:{c}Co-P{p}" for c in (1, 2, 3) for p in (1, 2, 3))
    line = f"12. [computer] fire {units} at B27.22 — 9 units fire: 14 FP"
    dock.show_lines(["1. pass", line])
    qtbot.wait(50)
    assert dock.lines() == ["1. pass", line]                     # the text kept has no break marks in it
    lst = dock.list
    assert lst.horizontalScrollBar().maximum() == 0
    short, long_ = lst.visualItemRect(lst.item(0)), lst.visualItemRect(lst.item(1))
    assert long_.width() <= lst.viewport().width()
    assert long_.height() >= 4 * short.height()                 # wrapped on several lines


def test_a_log_deleted_right_after_it_was_filled_leaves_no_call_behind(qtbot):
    """The log scrolls to its end again once laid out; a window closed before that (the computer playing on as it
    closed) left the call queued for a deleted list, and it failed in the next window's test."""
    from shiboken6 import delete

    from gui.play.playpanels import LogDock

    dock = LogDock()
    dock.show_lines(["1. pass", "2. pass"])
    delete(dock)                                  # gone at once, its queued call not yet run
    with qtbot.captureExceptions() as exceptions:
        qtbot.wait(50)
    assert exceptions == []
