"""Map files (``maps/*.toml``): load one into a Board with every problem named, save one back.

The format is described in ``docs/map-format.md``.  Loading never runs code,
never opens an image (it only checks that the file exists) and never builds
shapely geometry.  Saving writes the whole file atomically, keys and lists in
a fixed order, so that the same board always gives the same text.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.maps.board import Board, Contour, Obstacle
from engine.errors import BadFile, Problem
from engine.fileio import atomic_write_text, read_toml
from engine.keypath import key_lines, line_of
from engine.maps.mapload import (  # noqa: F401 (read and written through this module)
    AREA_KEYS, BOX_KEYS, CONTOUR_KEYS, FORMAT, LINE_KEYS, MAP_KEYS, MAX_HEXES, MAX_SHEET_SIDE, NO_VALUE,
    OBSTACLE_KEYS, ROWS_KEYS, SHEET_KEYS, TOP_KEYS, sheet_grid, sheet_labels, _Loader)
from engine.maps.mapwrite import (  # noqa: F401 (read and written through this module)
    OBSTACLE_DECIMALS, PATH_PIECE, dumps_map, link_paths)


# ---------------------------------------------------------------- public API

def load_map(path: str | os.PathLike) -> Board:
    """Read and check a map file; raises BadFile listing every problem found."""
    p = Path(path)
    doc = read_toml(p)
    board, problems = _Loader(p, doc).load()
    if problems:
        _add_lines(p, problems)
        raise BadFile(problems)
    return board


def load_map_doc(doc: dict[str, Any], path: str | os.PathLike) -> Board:
    """Check an already parsed map document as if read from ``path``; raises BadFile."""
    p = Path(path)
    board, problems = _Loader(p, doc).load()
    if problems:
        _add_lines(p, problems)
        raise BadFile(problems)
    return board


def save_map(board: Board, path: str | os.PathLike) -> None:
    """Write a board as a map file, atomically (the old file or the whole new one)."""
    text = dumps_map(board)
    atomic_write_text(path, text)


def is_map_doc(doc: dict[str, Any]) -> bool:
    """Whether a parsed TOML document is a map file (it has a ``[map]`` table)."""
    return isinstance(doc.get("map"), dict)


def map_differences(a: Board, b: Board, tolerance: float = 1e-3) -> list[str]:
    """Names of the board fields where two boards differ.

    Empty sets count as absent.  Obstacle points may differ by ``tolerance``
    hex sizes: they are stored in image pixels, so a board built in memory
    comes back from its file moved by float rounding.
    """
    out = []
    for name in ("name", "orientation", "elevation_unit", "contour_interval", "printed_ids", "notes", "sheets",
                 "legend", "terrain", "elevation", "boxes"):
        if getattr(a, name) != getattr(b, name):
            out.append(name)
    if not _same_obstacles(a.obstacles, b.obstacles, tolerance):
        out.append("obstacles")
    if not _same_contours(a.contours, b.contours, tolerance):
        out.append("contours")
    for name in ("features", "hexsides", "links"):
        if _nonempty(getattr(a, name)) != _nonempty(getattr(b, name)):
            out.append(name)
    if a.areas != b.areas:
        out.append("areas")
    if a.lines != b.lines:
        out.append("lines")
    return out


def _same_obstacles(xs: list[Obstacle], ys: list[Obstacle], tolerance: float) -> bool:
    if len(xs) != len(ys):
        return False
    for x, y in zip(xs, ys):
        if (x.kind, x.height, x.sheet, len(x.points)) != (y.kind, y.height, y.sheet, len(y.points)):
            return False
        if not _close_points(x.points, y.points, tolerance):
            return False
    return True


def _same_contours(xs: list[Contour], ys: list[Contour], tolerance: float) -> bool:
    if len(xs) != len(ys):
        return False
    for x, y in zip(xs, ys):
        if (x.elevation, x.closed, x.uphill, x.sheet, len(x.points)) != (y.elevation, y.closed, y.uphill, y.sheet,
                                                                          len(y.points)):
            return False
        if not _close_points(x.points, y.points, tolerance):
            return False
    return True


def _close_points(ps: list, qs: list, tolerance: float) -> bool:
    """Whether two point lists agree point by point within ``tolerance`` on each coordinate."""
    return not any(abs(p[0] - q[0]) > tolerance or abs(p[1] - q[1]) > tolerance for p, q in zip(ps, qs))


def _nonempty(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}


def _add_lines(path: Path, problems: list[Problem]) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return
    found = key_lines(text)
    for i, pr in enumerate(problems):
        if pr.line is None and pr.key:
            line = line_of(found, pr.key)
            if line is not None:
                problems[i] = Problem(pr.file, pr.key, pr.message, line)

