"""The gridless board: a table in inches, terrain pieces as polygons, named points, team footprints.

Table coordinates are inches with the origin at the table's top-left corner,
``x`` to the right and ``y`` downwards (the same way up as the table's image,
so a pixel is ``inch * pixels_per_inch``).  Bearings are degrees measured
from ``+x`` towards ``+y`` (clockwise on screen): 0 east, 90 south (down the
image), 180 west, 270 north.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from engine.errors import BadFile, Problem
from engine.fileio import is_file, read_toml

DEFAULT_WIDTH = 72.0
DEFAULT_HEIGHT = 48.0
DEFAULT_FOOTPRINT = 1.0
PIECE_KINDS = ("building", "copse", "crest", "wall", "field", "road")


def bearing_vector(bearing: float) -> tuple[float, float]:
    """The unit vector of a bearing in degrees (0 east, 90 down the table)."""
    r = math.radians(bearing)
    return (math.cos(r), math.sin(r))


def bearing_to(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The bearing in degrees [0, 360) from point ``a`` to point ``b``."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Straight-line distance in inches."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def footprint(at: tuple[float, float], radius: float = DEFAULT_FOOTPRINT) -> Polygon:
    """A team's base on the table: a small circle around its position."""
    return Point(at).buffer(radius, quad_segs=8)


def footprints(points: np.ndarray, radius: float = DEFAULT_FOOTPRINT) -> np.ndarray:
    """Footprints of many teams at once (an array of circles, one vectorized call)."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    return shapely.buffer(shapely.points(pts), radius, quad_segs=8)


@dataclass(frozen=True)
class Piece:
    """A terrain piece: a building, a copse, a crest; its outline is a polygon in inches."""

    name: str
    kind: str
    polygon: Polygon


@dataclass(frozen=True)
class Location:
    """A named point on the table, with the bearing it faces (a defensive position faces the attack)."""

    name: str
    at: tuple[float, float]
    facing: float = 90.0
    kind: str = "point"


@dataclass
class Table:
    """A gridless table: size in inches, image scale, terrain pieces, named points and lines."""

    name: str = "table"
    width: float = DEFAULT_WIDTH
    height: float = DEFAULT_HEIGHT
    image: str | None = None
    pixels_per_inch: float = 10.0
    footprint_radius: float = DEFAULT_FOOTPRINT
    pieces: list[Piece] = field(default_factory=list)
    locations: dict[str, Location] = field(default_factory=dict)
    lines: dict[str, LineString] = field(default_factory=dict)
    source: str = ""

    @property
    def image_path(self) -> Path:
        """The image file, relative to the table file."""
        return Path(self.source).parent / (self.image or "")

    @property
    def outline(self) -> Polygon:
        return shapely.box(0.0, 0.0, self.width, self.height)

    def contains(self, at: tuple[float, float]) -> bool:
        """True if a point is on the table (edges included)."""
        return 0.0 <= at[0] <= self.width and 0.0 <= at[1] <= self.height

    def to_pixels(self, at: tuple[float, float]) -> tuple[float, float]:
        return (at[0] * self.pixels_per_inch, at[1] * self.pixels_per_inch)

    def to_inches(self, px: tuple[float, float]) -> tuple[float, float]:
        return (px[0] / self.pixels_per_inch, px[1] / self.pixels_per_inch)

    def pieces_at(self, at: tuple[float, float]) -> list[Piece]:
        """The terrain pieces whose outline holds a point."""
        p = Point(at)
        return [pc for pc in self.pieces if pc.polygon.covers(p)]

    def location(self, name: str) -> Location:
        try:
            return self.locations[name]
        except KeyError:
            raise KeyError(f"{self.source or 'the table'} has no point called {name!r}") from None

    def locations_of_kind(self, kind: str) -> list[Location]:
        return [loc for loc in self.locations.values() if loc.kind == kind]

    def line_points(self, name: str, count: int) -> list[tuple[float, float]]:
        """``count`` points spread evenly along a named line (a base line for deployment)."""
        line = self.lines[name]
        if count == 1:
            p = line.interpolate(0.5, normalized=True)
            return [(p.x, p.y)]
        return [(p.x, p.y) for p in (line.interpolate((i + 0.5) / count, normalized=True) for i in range(count))]


# ---------------------------------------------------------------- loading

MAX_INCHES = 10_000.0     # no table is longer than a few hundred inches; this keeps the geometry finite


def _finite(v) -> bool:
    """A number a measure can be: not true/false, not infinite, not NaN, not astronomically large."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(v) and abs(v) <= 1e12
    except OverflowError:       # an integer too large for a float
        return False


def _xy(value, file: str, key: str, problems: list[Problem]) -> tuple[float, float] | None:
    if isinstance(value, list) and len(value) == 2 and all(_finite(v) and abs(v) <= MAX_INCHES for v in value):
        return (float(value[0]), float(value[1]))
    problems.append(Problem(file, key, f"expected a point [x, y] in inches, got {value!r}"[:300]))
    return None


def _number(doc: dict, key: str, default: float, file: str, path: str, problems: list[Problem]) -> float:
    v = doc.get(key, default)
    if not _finite(v) or v <= 0 or v > MAX_INCHES:
        problems.append(Problem(file, f"{path}{key}", f"expected a positive number up to {MAX_INCHES:g}, got {v!r}"[:300]))
        return default
    return float(v)


def _tables(doc: dict, name: str, file: str, problems: list[Problem]) -> list:
    """An array of tables (``[[name]]``); anything else is a problem and gives none."""
    v = doc.get(name, [])
    if not isinstance(v, list):
        problems.append(Problem(file, name, f"expected an array of tables ([[{name}]])"))
        return []
    return v


def table_from_dict(doc: dict, file: str = "<table>") -> Table:
    """A table from its TOML document; every problem is collected and raised together as BadFile."""
    problems: list[Problem] = []
    head = doc.get("table")
    if not isinstance(head, dict):
        raise BadFile([Problem(file, "table", "expected a [table] section with width and height in inches")])
    t = Table(source=file)
    t.name = str(head.get("name", Path(file).stem))
    t.width = _number(head, "width", DEFAULT_WIDTH, file, "table.", problems)
    t.height = _number(head, "height", DEFAULT_HEIGHT, file, "table.", problems)
    t.pixels_per_inch = _number(head, "pixels_per_inch", 10.0, file, "table.", problems)
    t.footprint_radius = _number(head, "footprint_radius", DEFAULT_FOOTPRINT, file, "table.", problems)
    img = head.get("image")
    if img is not None:
        if not isinstance(img, str):
            problems.append(Problem(file, "table.image", "expected the image file name as a string"))
        else:
            t.image = img
    for i, pc in enumerate(_tables(doc, "pieces", file, problems)):
        key = f"pieces[{i}]"
        if not isinstance(pc, dict):
            problems.append(Problem(file, key, "expected a table with name, kind and polygon"))
            continue
        kind = pc.get("kind")
        if kind not in PIECE_KINDS:
            problems.append(Problem(file, f"{key}.kind", f"expected one of {', '.join(PIECE_KINDS)}, got {kind!r}"))
        raw = pc.get("polygon")
        if not isinstance(raw, list) or len(raw) < 3:
            problems.append(Problem(file, f"{key}.polygon", "expected at least three points [x, y]"))
            continue
        pts = [_xy(v, file, f"{key}.polygon[{j}]", problems) for j, v in enumerate(raw)]
        if any(p is None for p in pts):
            continue
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            problems.append(Problem(file, f"{key}.polygon", "the outline crosses itself or has no area"))
            continue
        if not t.outline.covers(poly):
            problems.append(Problem(file, f"{key}.polygon",
                                    f"the outline goes off the {t.width:g} x {t.height:g} inch table"))
        t.pieces.append(Piece(str(pc.get("name", f"piece {i + 1}")), str(kind), poly))
    for i, loc in enumerate(_tables(doc, "points", file, problems)):
        key = f"points[{i}]"
        if not isinstance(loc, dict) or not isinstance(loc.get("name"), str):
            problems.append(Problem(file, key, "expected a table with a name and at = [x, y]"))
            continue
        at = _xy(loc.get("at"), file, f"{key}.at", problems)
        if at is None:
            continue
        if not t.contains(at):
            problems.append(Problem(file, f"{key}.at", f"{at} is off the {t.width:g} x {t.height:g} inch table"))
        facing = loc.get("facing", 90.0)
        if not _finite(facing):
            problems.append(Problem(file, f"{key}.facing", "expected a bearing in degrees"))
            facing = 90.0
        if loc["name"] in t.locations:
            problems.append(Problem(file, f"{key}.name", f"the name {loc['name']!r} is used twice"))
        t.locations[loc["name"]] = Location(loc["name"], at, float(facing) % 360.0, str(loc.get("kind", "point")))
    for i, ln in enumerate(_tables(doc, "lines", file, problems)):
        key = f"lines[{i}]"
        if not isinstance(ln, dict) or not isinstance(ln.get("name"), str):
            problems.append(Problem(file, key, "expected a table with a name and points"))
            continue
        raw = ln.get("points")
        if not isinstance(raw, list) or len(raw) < 2:
            problems.append(Problem(file, f"{key}.points", "expected two or more points [x, y]"))
            continue
        pts = [_xy(v, file, f"{key}.points[{j}]", problems) for j, v in enumerate(raw)]
        if any(p is None for p in pts):
            continue
        t.lines[ln["name"]] = LineString(pts)
    if problems:
        raise BadFile(problems)
    return t


def load_table(path: str | Path, check_image: bool = True) -> Table:
    """Read a table TOML file (see ``maps/scw-table.toml``); the image it names must exist beside it."""
    table = table_from_dict(read_toml(path), str(path))
    if check_image and table.image and not is_file(table.image_path):
        raise BadFile([Problem(str(path), "table.image", f"the image file {table.image} is missing "
                                                         f"(expected it at {table.image_path})")])
    return table
