"""Opening each kind of game prints no Qt warning (libpyside's, a label's negative size): a warning a user sees at
every start is a fault. pytest-qt's own capture of Qt's messages is read (``qtlog``)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
# the offscreen platform's own remarks (window sizes, raising a window), which a desktop never prints
PLATFORM_ONLY = ("This plugin does not support propagateSizeHints()", "This plugin does not support raise()")


def test_opening_each_kind_of_game_prints_no_qt_warning(qtbot, qtlog, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, monkeypatch=monkeypatch)
    for name in ("demyansk-1-trapped.toml", "black-wednesday-4-melee-in-krasni-bor.toml",
                 "leros-1-curtain-rises.toml", "classic-river-crossing.toml"):
        assert win.open_file(ROOT / "scenarios" / name), win.last_error
        for _ in range(5):
            QApplication.processEvents()
    win.statusBar().showMessage("a message with its tooltip")
    QApplication.processEvents()
    said = [r.message for r in qtlog.records if r.type_name != "QtDebugMsg" and r.message not in PLATFORM_ONLY]
    assert said == []
