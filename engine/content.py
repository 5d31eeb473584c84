"""Where the program's own content lies: the shipped maps, scenarios, documents and art.

An installed program (a wheel, a bundle) carries them inside the package as ``engine/_content/`` (copied there
when the wheel is built, see ``setup.py``) and finds them through :mod:`importlib.resources`; a checkout has them
at the top of the source tree (``maps/``, ``scenarios/``, ``docs/``, ``assets/``, the README).
"""
from __future__ import annotations

import sys
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

FOLDERS = ("maps", "scenarios", "docs", "assets")
FILES = ("README.md",)


@lru_cache(maxsize=None)
def root() -> Path:
    """The folder holding ``maps/``, ``scenarios/``, ``docs/``, ``assets/`` and the README."""
    bundled = getattr(sys, "_MEIPASS", None)            # a desktop bundle: its data folder
    if bundled and (Path(bundled) / "engine" / "_content").is_dir():
        return Path(bundled) / "engine" / "_content"
    packaged = Path(str(files("engine") / "_content"))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent         # a checkout: the top of the source tree


def maps() -> Path:
    return root() / "maps"


def scenarios() -> Path:
    return root() / "scenarios"


def docs() -> Path:
    return root() / "docs"


def assets() -> Path:
    return root() / "assets"


def readme() -> Path:
    return root() / "README.md"


def default_file() -> Path:
    """What the program opens when it is given nothing: Demyansk scenario I when it is there, else the demo map."""
    for p in (scenarios() / "demyansk-1-trapped.toml",):
        if p.is_file():
            return p
    return maps() / "demo.toml"
