"""The hex lattice: axial coordinates, neighbours, distance, lines, hexsides, layouts.

Vocabulary after Red Blob Games' hex guide: ``Hex``, ``hex_neighbor``,
``hex_distance``, ``hex_linedraw``, ``Layout``, ``hex_to_pixel``,
``pixel_to_hex``, ``polygon_corners``.  Lattice geometry uses hexes of size 1
(centre to corner); a sheet's affine transform takes it to image pixels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Iterator

SQRT3 = math.sqrt(3.0)

FLAT = "flat"
POINTY = "pointy"
ORIENTATIONS = (FLAT, POINTY)


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates, like ``Hex(3, -1)``; the cube s is ``-q - r``."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: "Hex") -> "Hex":
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


# Direction i and its opposite (i + 3) % 6.  Direction 0 is "+q" (east-ish on a
# flat-top map: lower right), going anticlockwise in axial terms.
HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)


def hex_neighbor(h: Hex, direction: int) -> Hex:
    d = HEX_DIRECTIONS[direction % 6]
    return Hex(h.q + d.q, h.r + d.r)


def hex_neighbors(h: Hex) -> list[Hex]:
    """The six neighbours in direction order."""
    return [Hex(h.q + d.q, h.r + d.r) for d in HEX_DIRECTIONS]


def hex_distance(a: Hex, b: Hex) -> int:
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def are_adjacent(a: Hex, b: Hex) -> bool:
    return hex_distance(a, b) == 1


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes exactly ``radius`` away, in order around the ring."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out = []
    d = HEX_DIRECTIONS[4]
    h = Hex(center.q + d.q * radius, center.r + d.r * radius)
    for i in range(6):
        for _ in range(radius):
            out.append(h)
            h = hex_neighbor(h, i)
    return out


def hex_range(center: Hex, n: int) -> list[Hex]:
    """Every hex within ``n`` of ``center`` (the rules' "w/i n"), centre included."""
    out = []
    for dq in range(-n, n + 1):
        for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
            out.append(Hex(center.q + dq, center.r + dr))
    return out


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_linedraw(a: Hex, b: Hex, nudge: float = 1e-6) -> list[Hex]:
    """Hexes on the line from ``a`` to ``b``.

    A line that runs along hexsides is decided on purpose by the nudge: its
    sign picks which side wins (Red Blob's epsilon trick).  ``nudge=-1e-6``
    gives the mirror choice.
    """
    n = hex_distance(a, b)
    aq, ar = a.q + nudge, a.r + nudge
    bq, br = b.q + nudge, b.r + nudge
    if n == 0:
        return [a]
    step = 1.0 / n
    return [_cube_round(aq + (bq - aq) * step * i, ar + (br - ar) * step * i) for i in range(n + 1)]


# ---------------------------------------------------------------- hexsides

@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The side shared by two adjacent hexes; canonical: ``a < b``.

    Make one with :func:`hexside` so the order is canonical.
    """

    a: Hex
    b: Hex

    def other(self, h: Hex) -> Hex:
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on hexside {self}")

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)


def hexside(a: Hex, b: Hex) -> Hexside:
    """The canonical hexside between two adjacent hexes."""
    if hex_distance(a, b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent")
    return Hexside(a, b) if a < b else Hexside(b, a)


def hexsides_of(h: Hex) -> list[Hexside]:
    """The six hexsides of a hex, in direction order."""
    return [hexside(h, n) for n in hex_neighbors(h)]


# ---------------------------------------------------------------- layout

@dataclass(frozen=True, slots=True)
class Layout:
    """Lattice-to-plane geometry: orientation, hex size (centre to corner), origin."""

    orientation: str = FLAT
    size: float = 1.0
    origin: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self):
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {self.orientation!r}")

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        return self.axial_to_point(h.q, h.r)

    def axial_to_point(self, q: float, r: float) -> tuple[float, float]:
        s = self.size
        if self.orientation == FLAT:
            x = s * 1.5 * q
            y = s * SQRT3 * (r + q / 2.0)
        else:
            x = s * SQRT3 * (q + r / 2.0)
            y = s * 1.5 * r
        return (x + self.origin[0], y + self.origin[1])

    def point_to_axial(self, x: float, y: float) -> tuple[float, float]:
        s = self.size
        x = (x - self.origin[0]) / s
        y = (y - self.origin[1]) / s
        if self.orientation == FLAT:
            q = x * 2.0 / 3.0
            r = -x / 3.0 + y / SQRT3
        else:
            q = x / SQRT3 - y / 3.0
            r = y * 2.0 / 3.0
        return q, r

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        return _cube_round(*self.point_to_axial(x, y))

    def corner_offset(self, i: int) -> tuple[float, float]:
        start = 0.0 if self.orientation == FLAT else 30.0
        ang = math.radians(start + 60.0 * i)
        return (self.size * math.cos(ang), self.size * math.sin(ang))

    def polygon_corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.hex_to_pixel(h)
        return [(cx + dx, cy + dy) for dx, dy in (self.corner_offset(i) for i in range(6))]

    def polygon(self, h: Hex):
        """The hex as a shapely Polygon."""
        from shapely.geometry import Polygon

        return Polygon(self.polygon_corners(h))

    def hexside_segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of a hexside (the corners both hexes share)."""
        ca = self.polygon_corners(side.a)
        cb = self.polygon_corners(side.b)
        shared = [p for p in ca if any(abs(p[0] - o[0]) < 1e-6 * self.size and abs(p[1] - o[1]) < 1e-6 * self.size for o in cb)]
        if len(shared) != 2:  # pragma: no cover - adjacency is checked in hexside()
            raise ValueError(f"{side} has {len(shared)} shared corners")
        return shared[0], shared[1]

    def hexside_midpoint(self, side: Hexside) -> tuple[float, float]:
        ax, ay = self.hex_to_pixel(side.a)
        bx, by = self.hex_to_pixel(side.b)
        return ((ax + bx) / 2.0, (ay + by) / 2.0)


def iter_hexes(hexes: Iterable[Hex]) -> Iterator[Hex]:
    """Hexes in a deterministic order (sorted by q, then r)."""
    return iter(sorted(hexes))
