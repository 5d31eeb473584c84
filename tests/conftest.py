"""Every test keeps the program's remembered settings (QSettings) in its own folder, never the user's."""
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
