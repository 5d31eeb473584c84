"""The map editor opened from the play window: a window of its own, with its own remembered layout.

The play window keeps its map, docks and menus as they were; leaving the editor (Map > Leave
the editor, or closing its window) brings the play window back to the front, with the map
just saved opened in it when no scenario is being played.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction

from gui.common.settings import remember_layout, save_window
from .editor import MapEditor

LAYOUT_KEY = "map-editor"      # its size, place and docks, remembered apart from the play window's
FIRST_SIZE = (1500, 950)        # the editor's first size, shrunk to the screen when it is smaller


def attach_map_editor(window) -> None:
    """Add the "Map editor" menu to a main window."""
    menu = window.menuBar().addMenu("Map &editor")
    window.edit_map_act = QAction("&Edit this map", window, shortcut="Ctrl+Shift+M",
                                  triggered=lambda: enter_map_editor(window))
    window.new_map_act = QAction("&New map from scans…", window, shortcut="Ctrl+Shift+N",
                                 triggered=lambda: enter_map_editor(window, new=True))
    menu.addActions([window.edit_map_act, window.new_map_act])
    window.map_editor = None
    window._editor_guard = _CloseEditorFirst(window)
    window.installEventFilter(window._editor_guard)


class _CloseEditorFirst(QObject):
    """Closing the play window closes its map editor first, which may ask to save; Cancel keeps both open."""

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Close and getattr(obj, "map_editor", None) is not None:
            if not obj.map_editor.close():
                event.ignore()
                return True
        return False


def enter_map_editor(window, new: bool = False) -> MapEditor:
    """Open the editor in a window of its own on a fresh copy of the open map's file (or a new map)."""
    if window.map_editor is not None:
        _to_front(window.map_editor)
        if new:
            window.map_editor.new_map_dialog()
        return window.map_editor
    editor = MapEditor(window, cache=window.map_view.cache)
    editor.setWindowFlag(Qt.Window, True)
    window.map_editor = editor
    editor.leave.connect(lambda: leave_map_editor(window))
    editor.closed.connect(lambda: _editor_closed(window, editor))
    remember_layout(editor, LAYOUT_KEY, QSize(*FIRST_SIZE))
    editor.show()
    _to_front(editor)
    board = getattr(window, "board", None)
    if new:
        editor.new_map_dialog()
    elif board is not None and board.source:
        editor.open_file(Path(board.source))
    editor.view.setFocus()
    return editor


def leave_map_editor(window) -> bool:
    """Close the editor (asking about unsaved changes) and go back to playing; False if the user stays."""
    editor = window.map_editor
    if editor is None:
        return True
    return editor.close()


def _editor_closed(window, editor: MapEditor) -> None:
    """The editor's window has closed: its layout is kept, the play window comes back to the front."""
    if window.map_editor is not editor:
        return
    save_window(editor, LAYOUT_KEY)
    saved = editor.path if editor.edit is not None and not editor.edit.dirty else None
    window.map_editor = None
    _dispose(editor)
    _to_front(window)
    if saved is not None and getattr(window, "scenario", None) is None:
        window.open_file(saved)


def _dispose(editor: MapEditor) -> None:
    """Delete a closed editor once no thread is cutting its scans into tiles any more (a job deleted while its
    thread reports progress would crash)."""
    view = editor.view
    jobs = list(view.jobs) + list(view._retired)
    for job in jobs:
        job.cancel()
    if all(job.wait(0) for job in jobs):
        editor.deleteLater()
    else:
        QTimer.singleShot(100, editor, lambda: _dispose(editor))      # tied to it: dropped if it is gone first


def _to_front(widget) -> None:
    widget.show()
    if widget.isMinimized():
        widget.showNormal()
    widget.raise_()
    widget.activateWindow()


__all__ = ["attach_map_editor", "enter_map_editor", "leave_map_editor"]
