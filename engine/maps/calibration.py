"""Calibrating a scan on its sheet: a first transform before any click, the hex id under a point, a sheet
placed by one of its ids on the board's, and the similarity fitted to the centres clicked
(:class:`Calibration`); plain functions the map editor's session (``mapedit.MapEdit``) calls."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.maps.board import Affine, Board, Fit, Sheet
from engine.errors import BadHexId


def guess_transform(board: Board, sheet: Sheet, image_size: tuple[int, int], margin: float = 0.03) -> Affine:
    """A first transform before any click: the sheet's grid filling its image inside a small margin."""
    xs, ys = [], []
    lay = board.layout
    for h in sheet.hexes():
        for x, y in lay.polygon_corners(h):
            xs.append(x)
            ys.append(y)
    w, h = image_size
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    s = min(w * (1 - 2 * margin) / (x1 - x0), h * (1 - 2 * margin) / (y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return Affine(s, 0.0, w / 2 - s * cx, 0.0, s, h / 2 - s * cy)


def suggest_id(board: Board, sheet: Sheet, uv: tuple[float, float]) -> str | None:
    """The id of the sheet's hex under an image point by the current transform, or None off the sheet."""
    x, y = sheet.transform.inverse().apply(*uv)
    h = board.hex_at(x, y)
    if not sheet.numbering.contains(h):
        return None
    return sheet.numbering.format(h)


def place_sheet(board: Board, sheet: Sheet, id_here: str, id_on_board: str) -> None:
    """Move a sheet on the lattice so that its hex ``id_here`` is the board's hex ``id_on_board``.

    Overlapping sheets (TCS sheets share a row) are aligned by one shared hex;
    raises BadHexId for an id that is not on its sheet or board.
    """
    target = None
    for other in board.sheets:
        if other is not sheet and other.numbering.matches(id_on_board):
            target = other.numbering.parse(id_on_board)
            break
    if target is None:
        raise BadHexId(f"{id_on_board!r} is not a hex of another sheet of this map")
    here = sheet.numbering.parse(id_here)
    o = sheet.numbering.origin
    new_origin = (o[0] + target.q - here.q, o[1] + target.r - here.r)
    sheet.numbering = dataclasses.replace(sheet.numbering, origin=new_origin)
    board.invalidate()


@dataclass
class Calibration:
    """Clicked hex centres on one sheet's image and the least-squares fit through them."""

    sheet: str
    clicks: list[tuple[str, tuple[float, float]]] = field(default_factory=list)
    fit: Fit | None = None
    start: Affine | None = None      # the sheet's transform before the first click: back to it with no click left

    def fit_to(self, board: Board) -> Fit | None:
        """Fit the sheet's transform from the clicks and set it; the Fit once there are three or more.

        One click moves the current grid onto it; two clicks give a grid of
        regular hexes turned and scaled to pass through both (so the third
        click's suggested id is already right); three or more not in a line
        give the least-squares affine fit with its residuals.
        """
        sh = board.sheet(self.sheet)
        self.fit = None
        pts = [(board.center(sh.numbering.parse(hid)), uv) for hid, uv in self.clicks]
        if not pts and self.start is not None:
            sh.transform = self.start
        elif len(pts) == 1:
            (x, y), (u, v) = pts[0]
            t = sh.transform
            pu, pv = t.apply(x, y)
            sh.transform = _plain(Affine(t.a, t.b, t.c + u - pu, t.d, t.e, t.f + v - pv))
        elif len(pts) == 2:
            similar = fit_similarity([p for p, _ in pts], [uv for _, uv in pts])
            if similar is not None:
                sh.transform = similar
        elif len(pts) >= 3:
            try:
                fit = board.fit_sheet(sh, list(self.clicks))
            except ValueError:
                return None
            sh.transform = _plain(fit.transform)
            self.fit = Fit(sh.transform, fit.residuals, fit.rms, fit.worst)
        return self.fit


def _plain(t: Affine) -> Affine:
    """The same transform with plain Python floats (numpy floats do not write as TOML)."""
    return Affine(*(float(v) for v in t.as_list()))


def fit_similarity(lattice_pts, pixel_pts) -> Affine | None:
    """The turn, uniform scale and shift that carry two lattice points onto two pixels (None if they coincide)."""
    (x0, y0), (x1, y1) = lattice_pts
    (u0, v0), (u1, v1) = pixel_pts
    dx, dy, du, dv = x1 - x0, y1 - y0, u1 - u0, v1 - v0
    n = dx * dx + dy * dy
    if n < 1e-12 or du * du + dv * dv < 1e-12:
        return None
    # (u, v) = s * R * (x, y) + t, with s*R = [[a, -b], [b, a]]
    a = (dx * du + dy * dv) / n
    b = (dx * dv - dy * du) / n
    c = u0 - (a * x0 - b * y0)
    f = v0 - (b * x0 + a * y0)
    return Affine(float(a), float(-b), float(c), float(b), float(a), float(f))
