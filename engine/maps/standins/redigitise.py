"""A second digitisation of a stand-in map: the same hex ids on other geometry and other art.

An owner who digitises the real printed sheets gets a map file whose hexes
carry the same ids as the stand-in's, but whose sheets sit elsewhere on the
lattice, whose scans have another size and lie a little askew, and whose
art is different.  :func:`redigitised` builds such a board from a stand-in
by hex id alone (nothing is copied by lattice position), so that tests can
show that everything a scenario names resolves on either map.
"""
from __future__ import annotations

import copy

from engine.maps.board import Area, Board, Line, Obstacle, Sheet
from engine.maps.hexes import Hex, hexside
from engine.maps.numbering import NumberingScheme

SHIFT = (7, -4)             # where the re-digitised sheets sit on the lattice, relative to the stand-in's
TURN_DEGREES = 1.3          # how far each scan lies askew
PX_PER_HEX = 34             # a coarser scan
SEED = 5                    # other hand-drawn wobbles and symbols


def redigitised(board: Board, name: str | None = None) -> Board:
    """A board with the same sheets' numbering on shifted lattice positions and every fact copied by hex id."""
    sheets = []
    for sh in board.sheets:
        ns = sh.numbering
        moved = NumberingScheme(style=ns.style, sheet=ns.sheet, orientation=ns.orientation, first_col=ns.first_col,
                                first_row=ns.first_row, cols=ns.cols, rows=ns.rows, shifted=ns.shifted,
                                origin=(ns.origin[0] + SHIFT[0], ns.origin[1] + SHIFT[1]),
                                col_digits=ns.col_digits, row_digits=ns.row_digits, row_direction=ns.row_direction)
        sheets.append(Sheet(sh.id, moved))
    out = Board(name=name or board.name, orientation=board.orientation, sheets=sheets, legend=dict(board.legend),
                elevation_unit=board.elevation_unit, contour_interval=board.contour_interval, notes=board.notes)
    out.invalidate()

    def moved(h: Hex) -> Hex:
        return out.parse_hex(board.hex_id(h))

    out.terrain = {moved(h): t for h, t in board.terrain.items()}
    out.elevation = {moved(h): e for h, e in board.elevation.items()}
    out.features = {moved(h): set(f) for h, f in board.features.items()}
    out.hexsides = {hexside(moved(s.a), moved(s.b)): set(f) for s, f in board.hexsides.items()}
    out.links = {k: {hexside(moved(s.a), moved(s.b)) for s in v} for k, v in board.links.items()}
    out.areas = {k: Area(a.name, a.kind, {moved(h) for h in a.hexes}) for k, a in board.areas.items()}
    out.lines = {k: Line(ln.name, ln.kind, {hexside(moved(s.a), moved(s.b)) for s in ln.hexsides})
                 for k, ln in board.lines.items()}
    out.boxes = copy.deepcopy(board.boxes)
    dx, dy = _offset(board, out)
    out.obstacles = [Obstacle(ob.kind, ob.height, [(x + dx, y + dy) for x, y in ob.points], ob.sheet)
                     for ob in board.obstacles]
    return out


def _offset(board: Board, out: Board) -> tuple[float, float]:
    """How far the lattice plane moved: the same printed hex's centre on both boards."""
    first = board.hexes()[0]
    (x0, y0), (x1, y1) = board.center(first), out.center(out.parse_hex(board.hex_id(first)))
    return (x1 - x0, y1 - y0)
