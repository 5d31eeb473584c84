"""Geometry for map art: the printed area, soft hand-drawn outlines, and lines joined into chains."""
from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import box

from engine.maps.board import Board, Sheet
from engine.maps.hexes import Hex


MARGIN = 0.45        # hex sizes of paper round the printed area
STRIP = 1.4          # hex sizes of paper below it for the title and the off-map boxes


def printed_rect(board: Board, sheet: Sheet):
    """The printed map area of a sheet: the box round its hexes (lattice coordinates)."""
    lay = board.layout
    corners = np.array([c for h in sheet.hexes() for c in lay.polygon_corners(h)])
    return box(corners[:, 0].min(), corners[:, 1].min(), corners[:, 0].max(), corners[:, 1].max())


SIDES = ("top", "bottom", "left", "right")


def joined_sides(board: Board, sheet: Sheet) -> set[str]:
    """Sides of a sheet's printed area where another sheet of the board carries the map on.

    Sheets that share a row (TCS sheets) are printed without paper, frame or
    title on those sides, so that laid side by side they show one map.
    """
    others = set()
    for sh in board.sheets:
        if sh is not sheet:
            others.update(sh.hexes())
    if not others:
        return set()
    lay = board.layout
    x0, y0, x1, y1 = printed_rect(board, sheet).bounds
    out = set()
    for side in SIDES:
        samples = [(x0 + (x1 - x0) * k / 8, y0 - 0.5) if side == "top" else
                   (x0 + (x1 - x0) * k / 8, y1 + 0.5) if side == "bottom" else
                   (x0 - 0.5, y0 + (y1 - y0) * k / 8) if side == "left" else
                   (x1 + 0.5, y0 + (y1 - y0) * k / 8) for k in range(1, 8)]
        if sum(lay.pixel_to_hex(x, y) in others for x, y in samples) >= 4:
            out.add(side)
    return out


def edge_ring(board: Board, sheet: Sheet) -> dict[Hex, Hex]:
    """Hexes just off a sheet, each with the hex whose terrain it shows (so art runs to the edge).

    A hex of another sheet shows its own terrain; a hex off the board copies
    the nearest hex of the sheet.
    """
    ns = sheet.numbering
    out = {}
    for col in range(ns.first_col - 2, ns.first_col + ns.cols + 2):
        for row in range(ns.first_row - 2, ns.first_row + ns.rows + 2):
            if ns.contains_colrow(col, row):
                continue
            h = ns.colrow_to_hex(col, row)
            c = min(max(col, ns.first_col), ns.first_col + ns.cols - 1)
            r = min(max(row, ns.first_row), ns.first_row + ns.rows - 1)
            out[h] = h if h in board else ns.colrow_to_hex(c, r)
    return out


def hex_union(layout, hexes):
    """One shape for a set of hexes (corners snapped so no hairline cracks are left between them)."""
    polys = [layout.polygon(h) for h in hexes]
    if not polys:
        return shapely.Polygon()
    return shapely.union_all(shapely.set_precision(polys, 1e-6))


def smooth(geom, sigma: float):
    """Soften a union of hexes into a drawn shape: a Gaussian of ``sigma`` hex sizes along its outline.

    The outline is first grown a little so that single hexes keep about their size.
    """
    if sigma <= 0 or geom.is_empty:
        return geom
    grown = geom.buffer(0.25 * sigma, join_style="mitre")
    step = 0.08
    polys = []
    for poly in getattr(grown, "geoms", [grown]):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        rings = []
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(shapely.segmentize(ring, step).coords)[:-1]
            if len(pts) >= 8:
                rings.append(_gauss_ring(pts, sigma / step))
        if rings:
            polys.append(shapely.Polygon(rings[0], rings[1:]))
    out = shapely.MultiPolygon(polys) if len(polys) > 1 else (polys[0] if polys else shapely.Polygon())
    return out if out.is_valid else out.buffer(0)


def _gauss_ring(pts: np.ndarray, sigma: float) -> np.ndarray:
    """Smooth a closed ring of points with a circular Gaussian of ``sigma`` samples."""
    n = len(pts)
    half = min(int(3 * sigma), (n - 1) // 2)
    k = np.exp(-0.5 * (np.arange(-half, half + 1) / sigma) ** 2)
    k /= k.sum()
    padded = np.concatenate([pts[-half:], pts, pts[:half]]) if half else pts
    return np.stack([np.convolve(padded[:, i], k, mode="valid") for i in (0, 1)], axis=1)


def wobble(geom, amplitude: float, seed: int):
    """Bend outlines by a smooth, seeded deformation so that they look drawn by hand."""
    if amplitude <= 0 or geom.is_empty:
        return geom
    rng = np.random.default_rng(seed)
    k = rng.uniform(2.5, 6.0, (2, 3))
    ph = rng.uniform(0, 2 * math.pi, (2, 3))
    ang = rng.uniform(0, math.pi, (2, 3))

    def bend(xy):
        x, y = xy[:, 0], xy[:, 1]
        out = xy.copy()
        for i in range(2):
            d = sum(np.sin(k[i, j] * (x * math.cos(ang[i, j]) + y * math.sin(ang[i, j])) + ph[i, j])
                    for j in range(3))
            out[:, i] += amplitude * d / 2
        return out

    bent = shapely.transform(shapely.segmentize(geom, 0.08), bend)
    return bent if bent.is_valid else bent.buffer(0)


def key(p) -> tuple[float, float]:
    """A point rounded so that the same corner reached two ways compares equal."""
    return (round(p[0], 5), round(p[1], 5))


def chains(edges: list[tuple[tuple, tuple]]) -> list[list[tuple]]:
    """Join undirected edges (pairs of points) into long polylines, deterministically."""
    adj: dict[tuple, list[tuple]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj.values():
        v.sort()
    used: set[frozenset] = set()
    out = []
    starts = sorted(p for p, n in adj.items() if len(n) != 2) + sorted(adj)
    for s in starts:
        for nxt in adj[s]:
            if frozenset((s, nxt)) in used:
                continue
            used.add(frozenset((s, nxt)))
            chain, prev, cur = [s, nxt], s, nxt
            while len(adj[cur]) == 2:
                step = adj[cur][0] if adj[cur][0] != prev else adj[cur][1]
                if frozenset((cur, step)) in used:
                    break
                used.add(frozenset((cur, step)))
                prev, cur = cur, step
                chain.append(cur)
            out.append(chain)
    return out


def lines_of(geom) -> list:
    """The LineStrings of any geometry: its lines, or its polygons' rings."""
    if geom.is_empty:
        return []
    t = geom.geom_type
    if t in ("LineString", "LinearRing"):
        return [geom]
    if t == "Polygon":
        return [geom.exterior, *geom.interiors]
    if hasattr(geom, "geoms"):
        return [line for g in geom.geoms for line in lines_of(g)]
    return []


def sheet_margins(board: Board, sheet: Sheet) -> tuple[dict[str, float], str | None]:
    """Paper round a sheet's printed area on each side (hex sizes), and the side of its title strip.

    A side where another sheet carries the map on has no paper; the title
    strip goes below the map, else above it, else nowhere (the title is then
    printed inside the map's top corner).
    """
    joined = joined_sides(board, sheet)
    margins = {side: 0.0 if side in joined else MARGIN for side in ("top", "bottom", "left", "right")}
    strip = next((side for side in ("bottom", "top") if side not in joined), None)
    if strip is not None:
        margins[strip] += STRIP
    return margins, strip
