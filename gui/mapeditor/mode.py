"""The map editor as a mode of the main window: it takes the map view's place until it is left."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from .editor import MapEditor


def attach_map_editor(window) -> None:
    """Add the "Map editor" menu to a main window."""
    menu = window.menuBar().addMenu("Map &editor")
    window.edit_map_act = QAction("&Edit this map", window, shortcut="Ctrl+Shift+M",
                                  triggered=lambda: enter_map_editor(window))
    window.new_map_act = QAction("&New map from scans…", window, shortcut="Ctrl+Shift+N",
                                 triggered=lambda: enter_map_editor(window, new=True))
    menu.addActions([window.edit_map_act, window.new_map_act])
    window.map_editor = None


def enter_map_editor(window, new: bool = False) -> MapEditor:
    """Put the editor in the window's place of the map view, on a fresh copy of the open map's file."""
    if window.map_editor is not None:
        return window.map_editor
    editor = MapEditor(window, cache=window.map_view.cache)
    editor.setWindowFlags(Qt.Widget)
    window._play_view = window.takeCentralWidget()
    window.setCentralWidget(editor)
    window.map_editor = editor
    window._hidden_actions = _quiet_clashing_shortcuts(window, editor)
    editor.leave.connect(lambda: leave_map_editor(window))
    board = getattr(window, "board", None)
    if new:
        editor.new_map_dialog()
    elif board is not None and board.source:
        editor.open_file(Path(board.source))
    editor.view.setFocus()
    return editor


def leave_map_editor(window) -> None:
    """Back to the map view; a map saved in the editor is opened there."""
    editor = window.map_editor
    if editor is None:
        return
    saved = editor.path if editor.edit is not None and not editor.edit.dirty else None
    window.takeCentralWidget()
    window.setCentralWidget(window._play_view)
    for act in window._hidden_actions:
        act.setEnabled(True)
    window.map_editor = None
    editor.deleteLater()
    if saved is not None and getattr(window, "scenario", None) is None:
        window.open_file(saved)


def _quiet_clashing_shortcuts(window, editor) -> list[QAction]:
    """Switch off the window's own actions whose keys the editor uses (two owners of a key fire neither)."""
    mine = {a.shortcut().toString() for a in editor.findChildren(QAction) if not a.shortcut().isEmpty()}
    off = []
    for menu_act in window.menuBar().actions():
        menu = menu_act.menu()
        if menu is None:
            continue
        for act in menu.actions():
            keys = {k.toString() for k in act.shortcuts()} - {""}
            if act.isEnabled() and keys & mine:
                act.setEnabled(False)
                off.append(act)
    return off


__all__ = ["attach_map_editor", "enter_map_editor", "leave_map_editor"]
