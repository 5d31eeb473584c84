"""The board: sheets on one hex lattice, their images' transforms, and the terrain model.

Lattice geometry is the plane of :class:`engine.maps.hexes.Layout` with hexes of
size 1 and origin (0, 0).  Each sheet has an affine transform from that plane
to its image's pixels, fitted by least squares from clicked hex centres.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np

from engine.errors import BadHexId
from engine.maps.hexes import FLAT, Hex, Hexside, Layout, hex_neighbors, hexside
from engine.maps.numbering import NumberingScheme
from engine.errors import excerpt

IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)


# ---------------------------------------------------------------- affine transforms

@dataclass(frozen=True)
class Affine:
    """``u = a*x + b*y + c``, ``v = d*x + e*y + f`` (lattice plane to image pixels)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    e: float = 1.0
    f: float = 0.0

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)

    def apply_many(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=float)
        m = np.array([[self.a, self.b], [self.d, self.e]])
        return pts @ m.T + np.array([self.c, self.f])

    def inverse(self) -> "Affine":
        det = self.a * self.e - self.b * self.d
        if abs(det) < 1e-12:
            raise ValueError("the transform is singular (the clicked points are in a line)")
        ia, ib = self.e / det, -self.b / det
        id_, ie = -self.d / det, self.a / det
        ic = -(ia * self.c + ib * self.f)
        if_ = -(id_ * self.c + ie * self.f)
        return Affine(ia, ib, ic, id_, ie, if_)

    def as_list(self) -> list[float]:
        return [self.a, self.b, self.c, self.d, self.e, self.f]

    def shapely_params(self) -> list[float]:
        """Parameters for ``shapely.affinity.affine_transform``."""
        return [self.a, self.b, self.d, self.e, self.c, self.f]

    @property
    def scale(self) -> float:
        """Mean linear scale (pixels per lattice unit)."""
        return math.sqrt(abs(self.a * self.e - self.b * self.d))


@dataclass(frozen=True)
class Fit:
    """A least-squares fit: the transform, each point's residual in pixels, their RMS and worst."""

    transform: Affine
    residuals: tuple[float, ...]
    rms: float
    worst: int

    def suspect(self, share: float = 0.15) -> int | None:
        """The point to look at again: the worst one when it lies more than ``share`` of a hex's radius from where
        the fit puts its hex (a click off the centre, or a wrong id), else None (every click agrees)."""
        if not self.residuals or self.residuals[self.worst] <= share * self.transform.scale:
            return None
        return self.worst


def fit_affine(lattice_pts: Iterable[tuple[float, float]], pixel_pts: Iterable[tuple[float, float]]) -> Fit:
    """Fit ``pixel = A * lattice + t`` by least squares from three or more pairs."""
    src = np.asarray(list(lattice_pts), dtype=float)
    dst = np.asarray(list(pixel_pts), dtype=float)
    if len(src) != len(dst):
        raise ValueError("need as many pixel points as hex centres")
    if len(src) < 3:
        raise ValueError("a fit needs at least three points")
    design = np.hstack([src, np.ones((len(src), 1))])
    if np.linalg.matrix_rank(design) < 3:
        raise ValueError("the points are in a line; click hexes that are not all in one row")
    sol, *_ = np.linalg.lstsq(design, dst, rcond=None)
    # plain floats: numpy scalars would leak into saved files as np.float64(...)
    t = Affine(*(float(v) for v in (sol[0, 0], sol[1, 0], sol[2, 0], sol[0, 1], sol[1, 1], sol[2, 1])))
    pred = t.apply_many(src)
    res = np.hypot(*(pred - dst).T)
    return Fit(t, tuple(float(r) for r in res), float(np.sqrt(np.mean(res ** 2))), int(np.argmax(res)))


# ---------------------------------------------------------------- sheets

@dataclass
class Sheet:
    """One printed map sheet: its numbering, its image and the lattice-to-image transform."""

    id: str
    numbering: NumberingScheme
    image: str | None = None
    transform: Affine = field(default_factory=Affine)

    def hexes(self) -> list[Hex]:
        return self.numbering.hexes()


# ---------------------------------------------------------------- terrain model

@dataclass
class Area:
    """A named set of hexes: a town, a set-up area, an entry area, a landing zone."""

    name: str
    kind: str = "area"
    hexes: set[Hex] = field(default_factory=set)


@dataclass
class Line:
    """A named line along hexsides (a start line, a pocket perimeter)."""

    name: str
    kind: str = "line"
    hexsides: set[Hexside] = field(default_factory=set)


@dataclass
class Box:
    """An off-map box: a holding box, a track, the dead pile."""

    id: str
    name: str
    kind: str = "holding"


@dataclass
class Obstacle:
    """A traced LOS obstacle "as printed": a polygon in lattice coordinates with a height."""

    kind: str
    height: float
    points: list[tuple[float, float]]
    sheet: str | None = None

    def polygon(self):
        from shapely.geometry import Polygon

        return Polygon(self.points)


UPHILL_SIDES = ("right", "left")


@dataclass
class Contour:
    """A traced contour line at one elevation, in lattice coordinates.

    A closed ring encloses higher ground; an open line runs to the map's edge
    with higher ground on its ``uphill`` side (the right or left of the
    direction it was traced in).  ``sheet`` names the sheet whose image it was
    traced on (None: the first sheet).
    """

    elevation: float
    points: list[tuple[float, float]]
    closed: bool = False
    uphill: str = "right"
    sheet: str | None = None


@dataclass
class Board:
    """Sheets on one lattice plus what the map says about every hex, hexside and link."""

    name: str = "Untitled"
    orientation: str = FLAT
    sheets: list[Sheet] = field(default_factory=list)
    legend: dict[str, str] = field(default_factory=dict)       # code letter -> terrain name
    terrain: dict[Hex, str] = field(default_factory=dict)      # hex -> terrain name
    painted: set[Hex] = field(default_factory=set)             # hexes whose terrain a person painted by hand
    features: dict[Hex, set[str]] = field(default_factory=dict)
    elevation: dict[Hex, float] = field(default_factory=dict)
    hexsides: dict[Hexside, set[str]] = field(default_factory=dict)
    links: dict[str, set[Hexside]] = field(default_factory=dict)  # "road" -> hex-to-hex links
    areas: dict[str, Area] = field(default_factory=dict)
    lines: dict[str, Line] = field(default_factory=dict)
    boxes: dict[str, Box] = field(default_factory=dict)
    obstacles: list[Obstacle] = field(default_factory=list)
    contours: list[Contour] = field(default_factory=list)
    elevation_unit: str = "m"
    contour_interval: float | None = None                      # the printed contour interval, if the map says
    printed_ids: bool = False                                  # the scans print their own hex ids (ours hidden)
    notes: str = ""                                            # what the map's maker says about it
    source: str | None = field(default=None, compare=False)  # the map file it was loaded from

    def __post_init__(self):
        self._index: dict[Hex, list[Sheet]] | None = None

    def image_path(self, sheet: Sheet) -> Path | None:
        """Where a sheet's image is: relative paths are relative to the map file."""
        if sheet.image is None:
            return None
        p = Path(sheet.image)
        if self.source is not None and not p.is_absolute():
            p = Path(self.source).parent / p
        return p

    # ------------------------------------------------------------ lattice
    @property
    def layout(self) -> Layout:
        return Layout(self.orientation, 1.0, (0.0, 0.0))

    def _hex_index(self) -> dict[Hex, list[Sheet]]:
        if self._index is None:
            idx: dict[Hex, list[Sheet]] = {}
            for sh in self.sheets:
                for h in sh.hexes():
                    idx.setdefault(h, []).append(sh)
            self._index = idx
        return self._index

    def invalidate(self) -> None:
        """Forget cached indexes after sheets change."""
        self._index = None

    def hexes(self) -> list[Hex]:
        """Every hex of the board once (overlaps counted once), sorted."""
        return sorted(self._hex_index())

    def __contains__(self, h: Hex) -> bool:
        return h in self._hex_index()

    def sheets_of(self, h: Hex) -> list[Sheet]:
        return self._hex_index().get(h, [])

    def sheet(self, sheet_id: str) -> Sheet:
        for sh in self.sheets:
            if sh.id == sheet_id:
                return sh
        raise KeyError(sheet_id)

    def hex_id(self, h: Hex) -> str:
        """The printed id of a hex (on its first sheet), like ``B34.16``."""
        sheets = self.sheets_of(h)
        if not sheets:
            raise BadHexId(f"{h} is not on the map")
        return sheets[0].numbering.format(h)

    def hex_ids(self, h: Hex) -> list[str]:
        """Every printed id of a hex (two where sheets overlap)."""
        return [sh.numbering.format(h) for sh in self.sheets_of(h)]

    def parse_hex(self, text: str) -> Hex:
        """The hex of a printed id; raises BadHexId naming what was expected."""
        text = text.strip()
        errors = []
        for sh in self.sheets:
            if sh.numbering.matches(text):
                try:
                    return sh.numbering.parse(text)
                except BadHexId as e:
                    errors.append(f"sheet {sh.id}: {e}")
        if errors:
            raise BadHexId(f"hex {excerpt(text)} is off the map ({'; '.join(errors)})")
        forms = ", ".join(sorted({sh.numbering.format_colrow(sh.numbering.first_col, sh.numbering.first_row)
                                  for sh in self.sheets})) or "no sheets"
        raise BadHexId(f"{excerpt(text)} is not a hex id of this map (ids look like {forms})")

    def neighbors(self, h: Hex) -> list[Hex]:
        """Neighbours that are on the map."""
        idx = self._hex_index()
        return [n for n in hex_neighbors(h) if n in idx]

    # ------------------------------------------------------------ terrain queries
    def terrain_of(self, h: Hex) -> str | None:
        return self.terrain.get(h)

    def features_of(self, h: Hex) -> set[str]:
        return self.features.get(h, set())

    def elevation_of(self, h: Hex) -> float:
        return self.elevation.get(h, 0.0)

    def hexside_features(self, a: Hex, b: Hex) -> set[str]:
        return self.hexsides.get(hexside(a, b), set())

    def has_link(self, kind: str, a: Hex, b: Hex) -> bool:
        return hexside(a, b) in self.links.get(kind, set())

    # ------------------------------------------------------------ geometry
    def center(self, h: Hex) -> tuple[float, float]:
        """Centre of a hex in lattice coordinates."""
        return self.layout.hex_to_pixel(h)

    def hex_at(self, x: float, y: float) -> Hex:
        return self.layout.pixel_to_hex(x, y)

    def to_image(self, sheet: Sheet, x: float, y: float) -> tuple[float, float]:
        return sheet.transform.apply(x, y)

    def from_image(self, sheet: Sheet, u: float, v: float) -> tuple[float, float]:
        return sheet.transform.inverse().apply(u, v)

    def fit_sheet(self, sheet: Sheet, clicks: list[tuple[str, tuple[float, float]]]) -> Fit:
        """Fit a sheet's transform from ``(hex id, (u, v))`` clicks and set it."""
        lattice = [self.center(sheet.numbering.parse(hid)) for hid, _ in clicks]
        fit = fit_affine(lattice, [uv for _, uv in clicks])
        sheet.transform = fit.transform
        return fit

    # ------------------------------------------------------------ snapping
    def snap_polyline(self, points: list[tuple[float, float]], step: float = 0.2) -> list[Hexside]:
        """The chain of hexsides a traced polyline (lattice coordinates) runs along.

        Black Wednesday 1.5: a printed ditch runs along the hexsides of the
        hex it is closest to, those on the same side of the hex's centre dot
        as the symbol.  The line is sampled every ``step`` hex sizes, each
        sample goes to its nearest hex corner, and consecutive corners are
        joined along hexsides by the route that stays closest to the line.
        Only hexsides between two hexes of the board are returned.
        """
        from shapely.geometry import LineString, Point

        if len(points) < 2:
            return []
        line = LineString(points)
        n = max(2, int(math.ceil(line.length / step)) + 1)
        corners: list[tuple[float, float]] = []
        for i in range(n):
            p = line.interpolate(i / (n - 1), normalized=True)
            c = self._nearest_corner(p.x, p.y)
            if not corners or corners[-1] != c:
                corners.append(c)
        sides: list[Hexside] = []
        seen: set[Hexside] = set()
        for c0, c1 in zip(corners, corners[1:]):
            for u, v in self._corner_route(c0, c1, line):
                side = self._edge_hexside(u, v)
                if side is not None and side not in seen and side.a in self and side.b in self:
                    seen.add(side)
                    sides.append(side)
        return sides

    def _nearest_corner(self, x: float, y: float) -> tuple[float, float]:
        lay = self.layout
        h = lay.pixel_to_hex(x, y)
        best = min(lay.polygon_corners(h), key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
        return _key(best)

    def _corner_neighbors(self, c: tuple[float, float]) -> list[tuple[float, float]]:
        lay = self.layout
        hexes = {lay.pixel_to_hex(c[0] + 0.3 * math.cos(a), c[1] + 0.3 * math.sin(a))
                 for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)}
        out = set()
        for h in hexes:
            for k in lay.polygon_corners(h):
                k = _key(k)
                if abs(math.dist(k, c) - 1.0) < 1e-3:
                    out.add(k)
        return sorted(out)

    def _corner_route(self, c0, c1, line) -> list[tuple]:
        """Edges from corner c0 to c1 (at most 4 long), closest to the line."""
        from shapely.geometry import Point

        if c0 == c1:
            return []
        best, best_cost = None, None
        frontier = [[c0]]
        for _depth in range(4):
            nxt = []
            for path in frontier:
                for k in self._corner_neighbors(path[-1]):
                    if k in path:
                        continue
                    p2 = path + [k]
                    if k == c1:
                        cost = sum(line.distance(Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
                                   for a, b in zip(p2, p2[1:]))
                        if best_cost is None or cost < best_cost - 1e-9:
                            best, best_cost = p2, cost
                    else:
                        nxt.append(p2)
            if best is not None:
                break
            frontier = nxt
        if best is None:
            return []
        return list(zip(best, best[1:]))

    def _edge_hexside(self, u, v) -> Hexside | None:
        lay = self.layout
        mx, my = (u[0] + v[0]) / 2, (u[1] + v[1]) / 2
        dx, dy = v[0] - u[0], v[1] - u[1]
        ln = math.hypot(dx, dy)
        nx, ny = -dy / ln, dx / ln
        a = lay.pixel_to_hex(mx + 0.4 * nx, my + 0.4 * ny)
        b = lay.pixel_to_hex(mx - 0.4 * nx, my - 0.4 * ny)
        try:
            return hexside(a, b)
        except ValueError:
            return None


def _key(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], 6), round(p[1], 6))


def _pt(p):
    from shapely.geometry import Point

    return Point(p)
