"""The heavy machine gun's cone of fire, its range bands, traverse, and revealing cards (shapely).

Reading of SCW Contact 2 ("at 18 inches the cone is 4 inches wide"): the
cone is a triangle whose narrow end is a point on the gun and whose far edge
is a straight 4-inch line square to its axis, 18 inches down the axis.  The
option ``apex_width`` (tables.toml ``hmg.apex_width``) starts it as wide as the
gun's base instead (a trapezoid).  A range band is the straight distance from
the gun: close to 6, effective to 12, long beyond (SCW Contact 3).  A team is
in a cone when its footprint (a circle) touches it: within its radius of the cone;
its range (and so its band) is measured to its centre, at the start, during and at
the end of a move alike.
"""
from __future__ import annotations

import math

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import LineString, Point, Polygon

from engine.maps.table import bearing_to, bearing_vector

LENGTH = 18.0
WIDTH = 4.0
EPS = 1e-6


def hmg_cone(gun: tuple[float, float], bearing: float, length: float = LENGTH, width: float = WIDTH,
             apex_width: float = 0.0) -> Polygon:
    """The cone of fire of a gun at ``gun`` laid on ``bearing`` (degrees)."""
    return _cones(np.array([gun], dtype=float), np.array([bearing], dtype=float), length, width, apex_width)[0]


def _cones(guns: np.ndarray, bearings: np.ndarray, length: float, width: float, apex_width: float) -> np.ndarray:
    """Many cones at once, as an array of polygons."""
    r = np.radians(bearings)
    ax = np.stack([np.cos(r), np.sin(r)], axis=-1)
    perp = np.stack([-ax[:, 1], ax[:, 0]], axis=-1)
    g = np.broadcast_to(guns, ax.shape)
    far = g + ax * length
    h0, h1 = apex_width / 2.0, width / 2.0
    if h0 > 0:
        rings = np.stack([g + perp * h0, far + perp * h1, far - perp * h1, g - perp * h0], axis=1)
    else:
        rings = np.stack([g, far + perp * h1, far - perp * h1], axis=1)
    return shapely.polygons(rings)


def cones_at(gun: tuple[float, float], bearings: np.ndarray, length: float = LENGTH, width: float = WIDTH,
             apex_width: float = 0.0) -> np.ndarray:
    """The cones of one gun laid on each of many bearings."""
    return _cones(np.array([gun], dtype=float), np.asarray(bearings, dtype=float), length, width, apex_width)


def in_cone(cone: Polygon, points: np.ndarray, radius: float) -> np.ndarray:
    """Which teams (positions ``points``, round footprints of ``radius``) the cone touches: one vectorized call."""
    return shapely.dwithin(cone, shapely.points(np.asarray(points, dtype=float).reshape(-1, 2)), radius)


def range_band(gun: tuple[float, float], at: tuple[float, float],
               bands: tuple[tuple[str, float], ...]) -> str | None:
    """The range band a point lies in by its distance from the gun, or None beyond the last."""
    d = math.hypot(at[0] - gun[0], at[1] - gun[1])
    for name, limit in bands:
        if d <= limit + 1e-9:
            return name
    return None


def band_polygons(gun: tuple[float, float], cone: Polygon,
                  bands: tuple[tuple[str, float], ...]) -> dict[str, Polygon]:
    """The cone cut into its range bands (close, effective, long), for drawing."""
    out = {}
    inner = 0.0
    centre = Point(gun)
    for i, (name, limit) in enumerate(bands):
        outer = cone if i == len(bands) - 1 else cone.intersection(centre.buffer(limit, quad_segs=32))
        out[name] = outer.difference(centre.buffer(inner, quad_segs=32)) if inner > 0 else outer
        inner = limit
    return out


def band_rank(band: str | None, bands: tuple[tuple[str, float], ...]) -> int:
    """0 for the closest band, rising outwards; the number of bands for None."""
    names = [n for n, _ in bands]
    return names.index(band) if band in names else len(names)


def closest_band_on_path(gun: tuple[float, float], path: LineString, cone: Polygon,
                         bands: tuple[tuple[str, float], ...], radius: float) -> str | None:
    """The closest range band a move reaches while the team is in the cone (None if it never enters it).

    The team is in the cone while its footprint touches it; its range is measured,
    like everywhere else, from the gun to the team's centre (``range_band``), so a
    move that never brings the centre nearer never reaches a nearer band.
    """
    if not path.dwithin(cone, radius):
        return None
    inside = path.intersection(cone.buffer(radius, quad_segs=32)) if radius > 0 else path.intersection(cone)
    if inside.is_empty:                      # touching by a hair: the point of the path nearest the cone
        inside = shapely.ops.nearest_points(path, cone)[0]
    d = inside.distance(Point(gun))
    for name, limit in bands:
        if d <= limit + 1e-9:
            return name
    return bands[-1][0]


def aim(gun: tuple[float, float], target: tuple[float, float], teams: np.ndarray, radius: float,
        length: float = LENGTH, width: float = WIDTH, apex_width: float = 0.0,
        samples: int = 33) -> tuple[float, int]:
    """Lay the gun on ``target`` so that the cone holds as many teams as possible (SCW Contact 4).

    Candidate bearings keep the target's centre inside the cone; every
    candidate cone is tested against every team in one vectorized call.
    Ties go to the bearing nearest the target's own.  Returns (bearing, teams
    held), with -1 teams held when no bearing reaches the target.
    """
    centre = bearing_to(gun, target)
    dist = max(1e-6, math.hypot(target[0] - gun[0], target[1] - gun[1]))
    # the widest swing that can still keep the target's footprint inside the cone
    half = math.degrees(math.atan2(width / 2.0, length)) + math.degrees(math.atan2(radius, dist))
    offsets = list(np.linspace(-half, half, samples))
    pts = np.asarray(teams, dtype=float).reshape(-1, 2)
    for p in pts:
        b = bearing_to(gun, (p[0], p[1]))
        for edge in (-half, half):
            off = ((b + edge - centre + 180.0) % 360.0) - 180.0
            if -half <= off <= half:
                offsets.append(off * 0.999)
    offsets = np.unique(np.round(np.asarray(offsets, dtype=float), 9))
    cones = cones_at(gun, centre + offsets, length, width, apex_width)
    held = shapely.dwithin(cones[:, None], shapely.points(pts)[None, :], radius)
    counts = held.sum(axis=1)
    holds_target = shapely.dwithin(cones, Point(target), radius)
    counts = np.where(holds_target, counts, -1)
    best = counts.max()
    choice = np.flatnonzero(counts == best)
    pick = choice[np.argmin(np.abs(offsets[choice]))]
    return float((centre + offsets[pick]) % 360.0), int(best)


def card_front_centre(at: tuple[float, float], facing: float, depth: float) -> tuple[float, float]:
    """The centre of a card's front edge: half its depth from its centre, towards where it faces."""
    vx, vy = bearing_vector(facing)
    return (at[0] + vx * depth / 2.0, at[1] + vy * depth / 2.0)


def cards_revealed(fronts: np.ndarray, path: LineString | Point, reach: float) -> np.ndarray:
    """Which cards a team's move comes within ``reach`` of (front-edge centres; SCW Contact 1), vectorized."""
    pts = shapely.points(np.asarray(fronts, dtype=float).reshape(-1, 2))
    return shapely.dwithin(pts, path, reach)


def crowded(cards: np.ndarray, within: float, most: int) -> bool:
    """True if any card has more than ``most - 1`` others within ``within`` inches (SCW Scenario 2)."""
    pts = np.asarray(cards, dtype=float).reshape(-1, 2)
    if len(pts) < 2:
        return False
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    near = (d <= within).sum(axis=1)  # counts itself
    return bool((near > most).any())
