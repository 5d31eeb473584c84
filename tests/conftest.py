"""Every test keeps the program's remembered settings (QSettings) in its own folder, never the user's, and starts
with the mouse pointer away from every window."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def own_settings(tmp_path_factory):
    try:
        from PySide6.QtCore import QSettings
    except ImportError:          # engine-only environments
        yield None
        return
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, str(folder))
    yield folder


@pytest.fixture(autouse=True)
def pointer_off_every_window():
    """Every test starts with the mouse pointer away from every window.

    The pointer is the application's, not a window's: where an earlier test left it decides whether a new
    window starts "under the mouse" (which anchors zooms) and whether a test's first move is dropped as a
    move to where the pointer already is."""
    try:
        from PySide6.QtGui import QCursor, QGuiApplication
    except ImportError:          # engine-only environments
        yield
        return
    app = QGuiApplication.instance()
    if isinstance(app, QGuiApplication):
        QCursor.setPos(-30000, -30000)
        app.processEvents()
    yield
