"""The play window as the GUI tests open it: its own cache, autosave and user folders, shown at a set size,
with a file open."""
from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from gui.play.window import MainWindow
from gui.scene.tray import MIME


def play_window(qtbot, tmp_path, path=None, size=(1100, 760), monkeypatch=None):
    """A shown ``MainWindow`` whose cache, autosave (and, given ``monkeypatch``, XDG folders) lie in
    ``tmp_path``, with ``path`` opened if given."""
    if monkeypatch is not None:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    if path is not None:
        assert win.open_file(path)
    return win


def drag_from_tray(view, uid, h, kind):
    """A counter ``uid`` dragged from the tray over hex ``h`` of the map view (``kind`` "enter") or dropped there."""
    data = QMimeData()
    data.setData(MIME, uid.encode("utf-8"))
    pos = QPointF(view.mapFromScene(view.hex_centre(h)))
    if kind == "enter":
        ev = QDragEnterEvent(pos.toPoint(), Qt.MoveAction, data, Qt.LeftButton, Qt.NoModifier)
    else:
        ev = QDropEvent(pos, Qt.MoveAction, data, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(view.viewport(), ev)
