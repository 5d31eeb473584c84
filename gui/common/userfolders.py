"""The user's folders for Sandtable: tiles and pictures in the cache folder, autosaves in the data folder, the user's
own scenarios and saved games in the Sandtable folder among their documents."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths


def cache_root() -> Path:
    """The user cache folder (QStandardPaths.CacheLocation, which follows $XDG_CACHE_HOME)."""
    loc = QStandardPaths.writableLocation(QStandardPaths.CacheLocation)
    if not loc:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        loc = os.path.join(base, "sandtable")
    return Path(loc)


def data_root() -> Path:
    """The user data folder (QStandardPaths.AppDataLocation, which follows $XDG_DATA_HOME)."""
    loc = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    if not loc:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        loc = os.path.join(base, "sandtable")
    return Path(loc)


def games_folder() -> Path:
    """The Sandtable folder among the user's documents: the user's own scenarios and saved games, which the game
    library lists (the Save dialog starts there the first time)."""
    from PySide6.QtCore import QStandardPaths

    docs = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    return (Path(docs) if docs else Path.home() / "Documents") / "Sandtable"


def autosave_path() -> Path:
    """Where the game in progress is saved after every action (removed when the window closes normally)."""
    return data_root() / "autosave.toml"


def is_program_folder(path: Path) -> bool:
    """Whether a folder is one of the program's own (its shipped scenarios, maps, assets): never a place to save."""
    from engine import content

    try:
        Path(path).resolve().relative_to(content.root().resolve())
    except ValueError:
        return False
    return True
