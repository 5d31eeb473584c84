"""VASSAL's hex grid, ported: hex centres, the raw indices of a point, labels, and the
Sandtable sheet (numbering and transform) that reproduces them.

Raw indices ``(nx, ny)`` are in VASSAL's own frame: on a sideways (pointy-top) grid x and
y are swapped first, so ``nx`` counts the rows of the map.  ``trunc`` is Java's ``(int)``
cast, which truncates toward zero.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.maps.board import Affine, Sheet
from engine.maps.hexes import FLAT, POINTY, SQRT3, Layout
from engine.maps.mapfile import MAX_HEXES, MAX_SHEET_SIDE
from engine.maps.numbering import NumberingScheme, VassalLabels

from .buildfile import HexGridSpec, Numbering

MAX_ERROR_PX = 1.0     # along x and along y: VASSAL truncates its centres to whole pixels


def trunc(v: float) -> int:
    return int(v)          # Python's int() truncates toward zero, as Java's cast does


def centre(g: HexGridSpec, nx: int, ny: int) -> tuple[int, int]:
    """The pixel centre (board coordinates) of raw hex (nx, ny)."""
    x = trunc(g.dx * nx + g.x0)
    if nx % 2 == 0:
        y = trunc(g.dy * ny + g.y0)
    else:
        y = trunc(g.dy * ny + trunc(g.dy / 2) + g.y0)
    return (y, x) if g.sideways else (x, y)


def unrounded(g: HexGridSpec, nx: int, ny: int) -> tuple[float, float]:
    """The centre before VASSAL truncates it to whole pixels."""
    x = g.dx * nx + g.x0
    y = g.dy * ny + g.y0 + (trunc(g.dy / 2) if nx % 2 else 0)
    return (y, x) if g.sideways else (x, y)


def raw(g: HexGridSpec, x: float, y: float) -> tuple[int, int]:
    """The raw indices of the hex VASSAL names for a board point (its numbering's rule)."""
    if g.sideways:
        x, y = y, x
    nx = math.floor((x - g.x0) / g.dx + 0.5)
    if nx % 2 == 0:
        ny = math.floor((y - g.y0) / g.dy + 0.5)
    else:
        ny = math.floor((y - g.y0 - g.dy / 2) / g.dy + 0.5)
    return nx, ny


def labels(g: HexGridSpec, width: int, height: int) -> VassalLabels:
    """The label maker of a grid's numbering on a board (or zone) of the given size."""
    n = (g.numbering or Numbering()).labels
    return replace(n, sideways=g.sideways, h_max=math.floor(width / g.dy + 0.5),
                   v_max=math.floor(height / g.dx + 0.5))


def raw_range(g: HexGridSpec, width: int, height: int,
              area: tuple[int, int, int, int] | None = None) -> tuple[range, range]:
    """The raw columns and rows whose hex centres lie on a board of the given size, or within ``area``
    (left, top, right, bottom: a zone's bounding box) of it (a column's centres in either parity; a
    centre that truncates to the area's edge from below it, -1 < v < 0 at the board's, is left out,
    so every truncation rounds the same way)."""
    left, top, right, bottom = area if area is not None else (0, 0, width, height)
    left, top, right, bottom = max(left, 0), max(top, 0), min(right, width), min(bottom, height)
    lo_x, hi_x, lo_y, hi_y = (top, bottom, left, right) if g.sideways else (left, right, top, bottom)
    nxs = [nx for nx in range(math.floor((lo_x - g.x0) / g.dx) - 1, math.ceil((hi_x - g.x0) / g.dx) + 2)
           if lo_x <= g.dx * nx + g.x0 and trunc(g.dx * nx + g.x0) < hi_x]
    nys = set()
    for parity in (0, 1):
        shift = trunc(g.dy / 2) if parity else 0
        for ny in range(math.floor((lo_y - g.y0 - shift) / g.dy) - 1, math.ceil((hi_y - g.y0 - shift) / g.dy) + 2):
            if lo_y <= g.dy * ny + shift + g.y0 and trunc(g.dy * ny + shift + g.y0) < hi_y:
                nys.add(ny)
    if not nxs or not nys:
        return range(0), range(0)
    return range(nxs[0], nxs[-1] + 1), range(min(nys), max(nys) + 1)


@dataclass
class SheetFit:
    sheet: Sheet
    max_error: float             # the largest difference, in pixels along x or y, between VASSAL's centre and the sheet's
    hexes: int


class GridRefused(Exception):
    """A grid whose centres or labels Sandtable cannot reproduce; the message says why."""


def hex_count(g: HexGridSpec, width: int, height: int) -> tuple[int, int]:
    """About how many columns and rows of the grid's hexes a board of the given size holds (at least as many
    as :func:`raw_range` finds), worked out without visiting them."""
    fw, fh = (height, width) if g.sideways else (width, height)
    return math.ceil(fw / g.dx) + 3, math.ceil(fh / g.dy) + 3


def make_sheet(sid: str, image: str | None, g: HexGridSpec, width: int, height: int,
               origin: tuple[int, int] = (0, 0), prefix: str = "", max_hexes: int = MAX_HEXES,
               area: tuple[int, int, int, int] | None = None) -> SheetFit:
    """A Sandtable sheet whose transform gives VASSAL's centres (within 1 px) and whose hex ids are
    VASSAL's labels, checked on every hex both ways; GridRefused when that cannot be done, or when the
    sheet would have more than the map format's columns or rows, or more than ``max_hexes`` hexes.

    ``area`` is the bounding box (left, top, right, bottom, board pixels) of the zone whose own grid
    ``g`` is: the sheet holds the hexes whose centres lie in it, and the numbering counts descending
    axes on its size (VASSAL's container of a zone's grid is the zone), not the board's."""
    if g.numbering is not None and g.numbering.oblique:
        raise GridRefused("oblique hex numbering (ObliqueHexGridNumbering) is not reproduced")
    across, down = hex_count(g, width, height)
    if max(across, down) > MAX_SHEET_SIDE + 3:
        raise GridRefused(f"hexes {g.dx:g} x {g.dy:g} px on a {width} x {height} board make about {across} x {down} "
                          f"hexes (a sheet has at most {MAX_SHEET_SIDE} columns and rows)")
    try:
        lab = labels(g, width, height) if area is None else labels(g, area[2] - area[0], area[3] - area[1])
        if prefix:
            lab = VassalLabels(**{**lab.as_dict(), "location_format": prefix + lab.location_format})
    except ValueError as e:          # VASSAL's counts for descending axes out of bounds
        raise GridRefused(str(e)) from None
    rest = lab.location_format
    for token in ("$gridLocation$", "$row$", "$column$"):
        rest = rest.replace(token, "")
    if "$" in rest:
        raise GridRefused(f"the location format {lab.location_format!r} uses properties known only while "
                          f"VASSAL runs")
    xs, ys = raw_range(g, width, height, area)
    if not xs or not ys:
        raise GridRefused(f"no hex centre of the grid lies on the {width} x {height} board"
                          + (f" within its zone ({area[0]},{area[1]} to {area[2]},{area[3]})" if area else ""))
    if len(xs) * len(ys) > max_hexes:
        raise GridRefused(f"hexes {g.dx:g} x {g.dy:g} px on a {width} x {height} board make {len(xs) * len(ys):,} "
                          f"hexes (at most {max_hexes:,} more on this map; a map has at most {MAX_HEXES:,})")
    flat = not g.sideways
    # Sandtable columns/rows: flat sheets number columns by nx, rows by ny; pointy ones the other way round
    cols, rows = (xs, ys) if flat else (ys, xs)
    scheme = NumberingScheme(style="vassal", sheet=sid, orientation=FLAT if flat else POINTY,
                             first_col=cols[0], first_row=rows[0], cols=len(cols), rows=len(rows),
                             shifted="odd", origin=origin, vassal=lab)
    layout = Layout(scheme.orientation)
    a = (g.dx / 1.5) if flat else (g.dy / SQRT3)
    e = (g.dy / SQRT3) if flat else (g.dx / 1.5)
    pts = []
    for c in cols:
        for r in rows:
            nx, ny = scheme.raw_index(c, r)
            h = scheme.colrow_to_hex(c, r)
            lx, ly = layout.hex_to_pixel(h)
            pts.append((c, r, nx, ny, h, lx, ly, centre(g, nx, ny)))
    n = len(pts)
    # fitted and checked on the hexes whose centres are on the board (a sheet's rectangle of hexes
    # also holds half hexes past the edges, where VASSAL truncates negative coordinates upwards);
    # the offsets halve the spread of VASSAL's truncations (the smallest worst case, not the mean)
    left, top, right, bottom = area if area is not None else (0, 0, width, height)
    on = [p for p in pts if p[7][0] < min(right, width) and p[7][1] < min(bottom, height)
          and all(lo <= v for lo, v in zip((max(left, 0), max(top, 0)),
                                            unrounded(g, *scheme.raw_index(p[0], p[1]))))] or pts
    rx = [px - a * lx for *_, lx, ly, (px, py) in on]
    ry = [py - e * ly for *_, lx, ly, (px, py) in on]
    cx = (min(rx) + max(rx)) / 2
    cy = (min(ry) + max(ry)) / 2
    transform = Affine(a, 0.0, cx, 0.0, e, cy)
    inverse = transform.inverse()
    worst = 0.0
    seen: dict[str, tuple[int, int]] = {}
    for c, r, nx, ny, h, lx, ly, (px, py) in on:
        u, v = transform.apply(lx, ly)
        worst = max(worst, abs(u - px), abs(v - py))
    for c, r, nx, ny, h, lx, ly, (px, py) in pts:
        label = lab.label(nx, ny)
        if label in seen:
            raise GridRefused(f"two hexes get the label {label!r} (raw {seen[label]} and {(nx, ny)})")
        if not label or any(ch.isspace() for ch in label) or "/" in label:
            raise GridRefused(f"the label {label!r} of raw hex {(nx, ny)} has a space or '/' (hex ids cannot)")
        seen[label] = (nx, ny)
        if raw(g, px, py) != (nx, ny):
            raise GridRefused(f"VASSAL names the centre of raw hex {(nx, ny)} as raw hex {raw(g, px, py)}")
        back = layout.pixel_to_hex(*inverse.apply(px, py))
        if back != h:
            raise GridRefused(f"VASSAL's centre of {label} falls in another Sandtable hex")
    if worst > MAX_ERROR_PX:
        raise GridRefused(f"the hex centres cannot be matched within {MAX_ERROR_PX} px (worst {worst:.2f} px)")
    sheet = Sheet(sid, scheme, image, transform)
    for label, (nx, ny) in seen.items():     # the sheet's own parsing gives every label back
        c, r = (nx, ny) if flat else (ny, nx)
        if scheme.parse(label) != scheme.colrow_to_hex(c, r):
            raise GridRefused(f"the label {label!r} does not read back as its hex")
    return SheetFit(sheet, worst, n)
