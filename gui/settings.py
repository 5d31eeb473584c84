"""What the program remembers between runs (QSettings, an INI file in the user's config folder): each window's
size, position and dock layout, and the folder last used for opening and saving files."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize

SCREEN_SHARE = 0.9           # a window opened the first time takes at most this share of the screen


def settings() -> QSettings:
    return QSettings(QSettings.IniFormat, QSettings.UserScope, "Sandtable", "sandtable")


def last_folder() -> Path | None:
    """The folder a file was last opened from or saved to (None the first time, or when it is gone)."""
    value = settings().value("files/last_folder", "")
    return Path(value) if value and Path(value).is_dir() else None


def remember_folder(path: Path) -> None:
    settings().setValue("files/last_folder", str(Path(path).absolute().parent))


def fit_rect(wanted: QRect, available: QRect) -> QRect:
    """``wanted`` made to fit inside ``available``: no larger than it, moved inside it."""
    w = min(wanted.width(), available.width())
    h = min(wanted.height(), available.height())
    x = min(max(wanted.x(), available.x()), available.x() + available.width() - w)
    y = min(max(wanted.y(), available.y()), available.y() + available.height() - h)
    return QRect(x, y, w, h)


def restore_window(window, key: str, default: QSize, available: QRect | None = None) -> bool:
    """Give a main window its remembered geometry and docks (or ``default`` the first time), never larger than the
    screen's available area; whether something was remembered."""
    s = settings()
    geometry = s.value(f"{key}/geometry")
    state = s.value(f"{key}/state")
    remembered = isinstance(geometry, QByteArray) and window.restoreGeometry(geometry)
    if isinstance(state, QByteArray):
        window.restoreState(state)
    if available is None:
        screen = window.screen()
        available = screen.availableGeometry() if screen is not None else QRect(0, 0, default.width(), default.height())
    if not remembered:
        size = QSize(min(default.width(), int(available.width() * SCREEN_SHARE)),
                     min(default.height(), int(available.height() * SCREEN_SHARE)))
        window.resize(size)
        window.move(available.x() + (available.width() - size.width()) // 2,
                    available.y() + (available.height() - size.height()) // 2)
    fit_to(window, available)
    return remembered


def fit_to(window, available: QRect) -> None:
    """Shrink and move a window (its frame included) so that it lies inside ``available``."""
    frame, inner = window.frameGeometry(), window.geometry()
    dw, dh = max(0, frame.width() - inner.width()), max(0, frame.height() - inner.height())
    room = QRect(available.x(), available.y(), max(1, available.width() - dw), max(1, available.height() - dh))
    least = window.minimumSizeHint()
    if (least.width() > room.width() or least.height() > room.height()) and hasattr(window, "compact_docks"):
        window.compact_docks()            # docks side by side in tabs: a smaller least size on a small screen
    r = fit_rect(inner, room)
    if r.size() != inner.size():
        window.resize(r.size())
    if r.topLeft() != inner.topLeft():
        window.move(r.x(), r.y())


def remember_layout(window, key: str, default: QSize, available: QRect | None = None) -> bool:
    """Restore a window's remembered layout now, fit it to the screen again once it is shown (its docks filled), and
    save it when the window closes (``save_layout``)."""
    from PySide6.QtCore import QTimer

    window.layout_key = key
    remembered = restore_window(window, key, default, available)
    area = QRect(available) if available is not None else None

    def refit():
        screen = window.screen()
        room = area if area is not None else screen.availableGeometry() if screen is not None else None
        if room is not None:
            fit_to(window, room)

    QTimer.singleShot(0, refit)
    return remembered


def save_layout(window) -> None:
    """Called from a window's closeEvent: keep its layout if it was restored with ``remember_layout``."""
    key = getattr(window, "layout_key", None)
    if key:
        save_window(window, key)


def save_window(window, key: str) -> None:
    s = settings()
    s.setValue(f"{key}/geometry", window.saveGeometry())
    s.setValue(f"{key}/state", window.saveState())
    s.sync()
