"""Sandtable's rules engine: pure Python, never imports Qt."""
from __future__ import annotations


def _version() -> str:
    """The installed package's version (pyproject.toml is the one source); "unknown" when run from a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sandtable")
    except PackageNotFoundError:
        return "unknown"


__version__ = _version()
