"""Contour lines on a map: checked, added, the region each encloses, and hex elevations derived from them;
plain functions the map editor's session (``mapedit.MapEdit``) calls."""
from __future__ import annotations

import math
from typing import Iterable

from engine.maps.board import UPHILL_SIDES, Board, Contour
from engine.maps.hexes import Hex


# ---------------------------------------------------------------- contours

def check_contour(board: Board, contour: Contour) -> None:
    """Refuse a contour the map file could not hold; raises ValueError saying what is wrong."""
    need = 3 if contour.closed else 2
    if len(contour.points) < need:
        raise ValueError("a contour needs two points (three for a closed ring)")
    if not math.isfinite(contour.elevation):
        raise ValueError("a contour's elevation is a number")
    if contour.uphill not in UPHILL_SIDES:
        raise ValueError(f"uphill is one of {', '.join(UPHILL_SIDES)}, not {contour.uphill!r}")
    if contour.sheet is not None and contour.sheet not in {sh.id for sh in board.sheets}:
        raise ValueError(f"no sheet has id {contour.sheet!r}")


def add_contour(board: Board, contour: Contour) -> Contour:
    """Add a traced contour line to the board (kept in the map file)."""
    check_contour(board, contour)
    contour.elevation = float(contour.elevation)
    contour.points = [(float(x), float(y)) for x, y in contour.points]
    board.contours.append(contour)
    return contour


def _board_outline(board: Board):
    from shapely import union_all

    lay = board.layout
    return union_all([lay.polygon(h) for h in board.hexes()]).buffer(0.5)


def contour_region(board: Board, contour: Contour, outline=None):
    """The part of the board (a shapely geometry) that lies above a contour line."""
    from shapely.geometry import LineString, Point, Polygon
    from shapely.ops import split

    if contour.uphill not in UPHILL_SIDES:
        raise ValueError(f"uphill is one of {', '.join(UPHILL_SIDES)}, not {contour.uphill!r}")
    outline = outline if outline is not None else _board_outline(board)
    pts = contour.points
    if contour.closed:
        return Polygon(pts).buffer(0)
    if len(pts) < 2:
        raise ValueError("a contour line needs two or more points")
    reach = 4.0 + math.hypot(*(outline.bounds[2] - outline.bounds[0], outline.bounds[3] - outline.bounds[1]))
    ext = list(pts)
    for end, prev in ((0, 1), (-1, -2)):
        (x0, y0), (x1, y1) = ext[end], ext[prev]
        d = math.hypot(x0 - x1, y0 - y1) or 1.0
        far = (x0 + (x0 - x1) / d * reach, y0 + (y0 - y1) / d * reach)
        if end == 0:
            ext.insert(0, far)
        else:
            ext.append(far)
    line = LineString(ext)
    pieces = list(split(outline, line).geoms)
    sign = 1 if contour.uphill == "right" else -1
    keep = []
    for piece in pieces:
        p = piece.representative_point()
        s = line.project(p)
        a = line.interpolate(max(0.0, s - 1e-3))
        b = line.interpolate(min(line.length, s + 1e-3))
        q = line.interpolate(s)
        cross = (b.x - a.x) * (p.y - q.y) - (b.y - a.y) * (p.x - q.x)
        # y grows downwards on a map: a point on the right of the direction of travel has cross > 0
        if cross * sign > 0:
            keep.append(piece)
    from shapely import union_all

    return union_all(keep) if keep else Point(0, 0).buffer(0)


def derive_elevations(board: Board, contours: Iterable[Contour], base: float = 0.0,
                      hexes: Iterable[Hex] | None = None) -> dict[Hex, float]:
    """Each hex's elevation from contour lines: the highest contour whose uphill side holds its centre.

    Hexes above no contour get ``base``.  Sets and returns the elevations.
    """
    import numpy as np
    import shapely

    contours = sorted(contours, key=lambda c: c.elevation)
    targets = list(hexes) if hexes is not None else board.hexes()
    if not targets:
        return {}
    outline = _board_outline(board)
    centres = np.array([board.center(h) for h in targets], dtype=float)
    pts = shapely.points(centres)
    level = np.full(len(targets), float(base))
    for c in contours:
        reg = contour_region(board, c, outline)
        shapely.prepare(reg)
        inside = shapely.contains(reg, pts)
        level = np.where(inside, np.maximum(level, c.elevation), level)
    out = {h: float(v) for h, v in zip(targets, level)}
    board.elevation.update(out)
    return out
