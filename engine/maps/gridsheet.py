"""The grid ``gridfind.find_grid`` found, as a sheet: its whole hexes as numbered columns and rows
(``found_sheet``), a board from it (``grid_board``), a numbering scheme anchored on a printed id
(``sheet_numbering``) and the hex centres a map editor's grid clicks stand for (``grid_clicks``)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.errors import excerpt
from engine.maps.board import Affine
from engine.maps.hexes import FLAT, SQRT3, Hex, Layout

if TYPE_CHECKING:                 # annotations only: the search asks this module, not the other way round
    from engine.maps.gridfind import GridProposal


# ---------------------------------------------------------------- numbering the found grid

@dataclass(frozen=True)
class FoundSheet:
    """The found grid as a sheet: its hexes printed whole, numbered from the top-left one.

    ``origin``: lattice hex (in the proposal's lattice) of the first column's top hex;
    ``first_shifted``: whether the first column (flat) or row (pointy) sits half a
    hex down (right) of the next; ``cols``/``rows``: how many; ``transform``: the
    proposal's transform moved so that ``origin`` is lattice hex ``(0, 0)``.
    """

    orientation: str
    origin: tuple[int, int]
    first_shifted: bool
    cols: int
    rows: int
    transform: Affine
    hexes: tuple = ()             # the whole hexes kept, relative to ``origin`` (which is (0, 0) here)


def found_sheet(prop: GridProposal) -> FoundSheet:
    """The found grid's whole hexes as a rectangle of columns and rows, numbered from its top-left hex.

    Flat hexes: the top whole hex of the leftmost column is the first column's top
    hex; pointy: the leftmost whole hex of the top row.  Whole hexes above (left
    of) that rectangle's top row (first column) are left out.
    """
    if not prop.found:
        raise ValueError("no grid was found")
    from engine.maps.hexes import Hex
    from engine.maps.numbering import NumberingScheme

    hexes = [Hex(q, r) for q, r in prop.whole]
    if not hexes:
        raise ValueError("no hex of the found grid is printed whole on the image")
    lay = Layout(prop.orientation)
    flat = prop.orientation == FLAT
    # flat: columns are q, rows run down (y); pointy: rows are r, columns run right (x)
    across = [hx.q if flat else hx.r for hx in hexes]
    down = np.array([lay.hex_to_pixel(hx)[1 if flat else 0] for hx in hexes])
    step = SQRT3                                     # centre to centre along a column (flat) / row (pointy)
    across = np.array(across)
    # a hex at the frame found whole by a hair's breadth must not start a line of its own: lines at the edges
    # with few whole hexes (under a third of the usual) are left out
    for _ in range(2):
        low = float(down.min())
        index = np.floor((down - low) / step + 1e-6).astype(int)
        keep = np.ones(len(hexes), bool)
        for key in (across, index):
            values, counts = np.unique(key, return_counts=True)
            enough = counts >= max(1, 0.3 * float(np.median(counts)))
            lo, hi = values[np.argmax(enough)], values[len(enough) - 1 - np.argmax(enough[::-1])]
            keep &= (key >= lo) & (key <= hi)
        hexes = [hx for hx, k in zip(hexes, keep) if k]
        across, down = across[keep], down[keep]
    low = float(down.min())
    first = int(across.min())
    index = np.floor((down - low) / step + 1e-6).astype(int)
    # the first line's first hex: the one of that column (row) within a step of the lowest centre
    if flat:
        r0 = math.ceil((low - 1e-6) / SQRT3 - first / 2.0)
        h0 = Hex(first, r0)
        shifted = lay.hex_to_pixel(h0)[1] > low + 1e-6
    else:
        q0 = math.ceil((low - 1e-6) / SQRT3 - first / 2.0)
        h0 = Hex(q0, first)
        shifted = lay.hex_to_pixel(h0)[0] > low + 1e-6
    cols = int(across.max()) - first + 1
    rows = int(index.max()) + 1
    if not flat:
        cols, rows = rows, cols
    T = prop.transform
    cx, cy = lay.hex_to_pixel(h0)
    moved = Affine(T.a, T.b, T.a * cx + T.b * cy + T.c, T.d, T.e, T.d * cx + T.e * cy + T.f)
    kept = tuple((hx.q - h0.q, hx.r - h0.r) for hx in hexes)
    return FoundSheet(prop.orientation, (h0.q, h0.r), bool(shifted), int(cols), int(rows), moved, kept)


_TCS_ID = __import__("re").compile(r"^([A-Za-z]+)(\d{1,3})\.(\d{1,3})$")
_CLASSIC_ID = __import__("re").compile(r"^(\d{2})(\d{2})$")


def parse_origin_id(text: str) -> tuple[str, str, int, int]:
    """A printed id for the top-left hex: ``(numbering, sheet letter, column, row)``.

    ``"0101"`` (classic: two digits of column, two of row) or ``"A01.01"`` (TCS);
    ValueError says what was expected.
    """
    t = text.strip()
    m = _TCS_ID.match(t)
    if m:
        return "tcs", m.group(1), int(m.group(2)), int(m.group(3))
    m = _CLASSIC_ID.match(t)
    if m:
        return "classic", "A", int(m.group(1)), int(m.group(2))
    raise ValueError(f"{excerpt(text)} is not a hex id: expected four digits like 0101 (column 01, row 01) "
                     "or a TCS id like A01.01")


def grid_board(prop: GridProposal, image: str, *, origin_id: str = "0101", shifted: str | None = None,
               name: str = "Untitled"):
    """A new map (a Board of one sheet) for a scan from its found grid; the found sheet's first hex (the first
    column's top hex) is ``origin_id`` (``shifted`` as in :func:`sheet_numbering`).

    Every hex is clear, as a new map in the map editor; ``image`` is the sheet's
    image as the map file will name it.  BadHexId or ValueError for a bad id.
    """
    from engine.maps.mapedit import SheetSpec, new_board
    from engine.maps.numbering import NumberingScheme

    style, letter, _col, _row = parse_origin_id(origin_id)
    numbering = NumberingScheme(style=style, sheet=letter, orientation=prop.orientation, col_digits=2, row_digits=2)
    ns, anchor = sheet_numbering(prop, numbering, origin_id, shifted)
    if style == "classic" and (ns.first_col + ns.cols > 100 or ns.first_row + ns.rows > 100):
        raise ValueError(f"{ns.cols} columns and {ns.rows} rows from {origin_id} need more than two digits each: "
                         "give a TCS id like A01.01")
    spec = SheetSpec(id=letter, image=image, cols=ns.cols, rows=ns.rows, numbering=style, first_col=ns.first_col,
                     first_row=ns.first_row, shifted=ns.shifted, origin=(0, 0))
    board = new_board(name, prop.orientation, [spec])
    T = prop.transform
    cx, cy = Layout(prop.orientation).hex_to_pixel(Hex(*anchor))
    board.sheets[0].transform = Affine(T.a, T.b, T.a * cx + T.b * cy + T.c, T.d, T.e, T.d * cx + T.e * cy + T.f)
    return board


def sheet_numbering(prop: GridProposal, numbering, top_left_id: str, shifted: str | None = None):
    """A sheet's numbering resized to the found grid, the found sheet's first hex being ``top_left_id``.

    ``numbering`` (a NumberingScheme) gives the style, sheet letter, digits, row
    direction and lattice origin to keep.  ``shifted`` (``"even"``/``"odd"``):
    which printed columns (flat) or rows (pointy) sit half a hex down (right),
    as printed on the map; None takes the found sheet's first column (row) as
    the first one, shifted if it sits lower (further right) than the next.  The
    orientation, columns, rows and first numbers come from the found grid's
    whole hexes.  Returns the numbering and the found lattice's hex that is the
    numbering's first column and top row (hex ``(0, 0)`` of the proposal being
    the found sheet's first hex).  Raises BadHexId for an id the numbering
    cannot read, ValueError when columns or rows would number below 0.
    """
    import dataclasses

    from engine.errors import BadHexId

    fs = found_sheet(prop)
    flat = fs.orientation == FLAT
    probe = dataclasses.replace(numbering, first_col=0, first_row=0, cols=999, rows=999, origin=(0, 0),
                                orientation=fs.orientation, row_direction="down")
    text = top_left_id.strip()
    try:
        col, row = probe.hex_to_colrow(probe.parse(text))
    except BadHexId as e:
        raise BadHexId(f"{excerpt(text)} is not a hex id of sheet {numbering.sheet} ({e})") from None
    if shifted is None:
        lead = col if flat else row
        shifted = "even" if (lead % 2 == 0) == fs.first_shifted else "odd"
    big = 999
    up = numbering.row_direction == "up"
    # the found sheet's first hex is lattice hex (0, 0) and bears the typed column and row
    ns0 = dataclasses.replace(numbering, orientation=fs.orientation, first_col=col, cols=big, rows=big,
                              first_row=row - (big - 1) if up else row, shifted=shifted, origin=(0, 0))
    colrows = [ns0.hex_to_colrow(Hex(q, r)) for q, r in fs.hexes]
    cmin, cmax = min(c for c, _ in colrows), max(c for c, _ in colrows)
    rmin, rmax = min(r for _, r in colrows), max(r for _, r in colrows)
    if cmin < 0 or rmin < 0:
        raise ValueError(f"with {text} on the highlighted hex, the sheet's {'columns' if cmin < 0 else 'rows'} "
                         "would be numbered below 0")
    ns = dataclasses.replace(numbering, orientation=fs.orientation, first_col=cmin, first_row=rmin,
                             cols=cmax - cmin + 1, rows=rmax - rmin + 1, shifted=shifted)
    anchor = ns0.colrow_to_hex(cmin, rmax if up else rmin)
    return ns, (anchor.q, anchor.r)


def grid_clicks(prop: GridProposal, numbering, anchor: tuple[int, int] = (0, 0),
                count: int = 5) -> list[tuple[str, tuple[float, float]]]:
    """Calibration points from a found grid, for a numbering and anchor made by :func:`sheet_numbering`: the ids
    and image centres of whole hexes at the sheet's four corners and its middle, as if clicked."""
    lay = Layout(prop.orientation)
    top = numbering.colrow_to_hex(numbering.first_col, numbering.top_row)
    pts = []
    for q, r in prop.whole:
        h = Hex(q - anchor[0] + top.q, r - anchor[1] + top.r)
        if numbering.contains(h):
            pts.append((numbering.format(h), prop.transform.apply(*lay.hex_to_pixel(Hex(q, r)))))
    if len(pts) < 3:
        return pts
    uv = np.array([p[1] for p in pts])
    mid = uv.mean(axis=0)
    picks = [int(np.argmin(uv[:, 0] + uv[:, 1])), int(np.argmax(uv[:, 0] - uv[:, 1])),
             int(np.argmax(uv[:, 0] + uv[:, 1])), int(np.argmin(uv[:, 0] - uv[:, 1])),
             int(np.argmin(np.hypot(*(uv - mid).T)))]
    out = []
    for i in picks[:count]:
        if pts[i] not in out:
            out.append(pts[i])
    return [(hid, (round(float(u), 3), round(float(v), 3))) for hid, (u, v) in out]
