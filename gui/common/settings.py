"""What the program remembers between runs (QSettings, an INI file in the user's config folder): each window's
size, position and dock layout, and the folder last used for opening and saving files.

The file is the user's to edit, so every value is read with the type it must have: a value of another type (a
list where a folder is expected, a number where a window's layout is) is set aside for its default, with a
message naming the file and the key (on the standard error, and in :func:`problems`), and every other key is
still used.
"""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize

SCREEN_SHARE = 0.9           # a window opened the first time takes at most this share of the screen
MAX_PATH_CHARS = 4096
_problems: dict[str, str] = {}      # key -> the message given (once a run)


def settings() -> QSettings:
    return QSettings(QSettings.IniFormat, QSettings.UserScope, "Sandtable", "sandtable")


def problems() -> list[str]:
    """The messages about values of the wrong type found in the settings file this run."""
    return list(_problems.values())


def _kind(value) -> str:
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} values"
    if isinstance(value, QByteArray):
        return f"binary data ({value.size()} bytes)"
    if isinstance(value, str):
        return f"text of {len(value):,} characters" if len(value) > 60 else f"the text {value!r}"
    return f"a value of type {type(value).__name__}"


def read(key: str, kind: type, expected: str, default=None):
    """The remembered value of ``key`` when it is a ``kind``; otherwise ``default``, with a message (once a run)."""
    s = settings()
    if not s.contains(key):
        return default
    value = s.value(key)
    if isinstance(value, kind):
        return value
    if key not in _problems:
        _problems[key] = (f"{s.fileName()}: {key}: expected {expected}, found {_kind(value)}; "
                          f"the default is used")
        print(_problems[key], file=sys.stderr)
    return default


def _is_dir(text: str) -> bool:
    try:
        return Path(text).is_dir()
    except (OSError, ValueError):       # a name the system refuses (too long, a NUL byte in it)
        return False


def last_folder() -> Path | None:
    """The folder a file was last opened from or saved to (None the first time, when it is gone, or when the
    settings file holds something else than a folder's path there)."""
    value = read("files/last_folder", str, "the path of a folder", "")
    if value and (len(value) > MAX_PATH_CHARS or not _is_dir(value)):
        return None
    return Path(value) if value else None


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
    geometry = read(f"{key}/geometry", QByteArray, "a window's size and place as saved (binary data)")
    state = read(f"{key}/state", QByteArray, "a window's docks and toolbars as saved (binary data)")
    remembered = geometry is not None and window.restoreGeometry(geometry)
    if state is not None:
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
    window.layout_key = key
    remembered = restore_window(window, key, default, available)
    fit_later(window, available)
    return remembered


def fit_later(window, available: QRect | None = None) -> None:
    """Fit a window to ``available`` (default: its screen's available area) once it is shown, when its frame
    and docks are known."""
    from PySide6.QtCore import QTimer

    area = QRect(available) if available is not None else None

    def refit():
        screen = window.screen()
        room = area if area is not None else screen.availableGeometry() if screen is not None else None
        if room is not None:
            fit_to(window, room)

    QTimer.singleShot(0, window, refit)        # tied to the window: gone with it if it closes first


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
