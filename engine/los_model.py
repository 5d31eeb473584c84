"""A board seen as line-of-sight obstacles: ground and obstacle tops per hex, traced polygons, checks.

:class:`SightMap` is built once per board and ruleset (arrays indexed by hex,
an STRtree of the traced polygons) and answers the question both the single
query and the viewshed ask: at these points of these sight lines, which hex
or traced obstacle rises above the line?
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np
import shapely

from .board import Board
from .hexes import Hex
from .los_grid import Rays, Touches, cells_at, crossings
from .los_rules import DEFAULT_LOS_RULES, KindRule, LosRules

EPS_HEIGHT = 1e-6   # metres: an obstacle blocks when its top is above the line by more than this
GROUND = "ground"


@dataclass(frozen=True)
class Traced:
    """A traced obstacle as the rules see it: its outline, kind, height above ground and rule."""

    kind: str
    height: float          # math.inf for a kind that always blocks
    rule: str
    polygon: object        # shapely Polygon, lattice coordinates


class SightMap:
    """Ground, whole-hex obstacle tops and traced obstacles of one board under one ruleset."""

    def __init__(self, board: Board, rules: LosRules = DEFAULT_LOS_RULES):
        self.board = board
        self.rules = rules
        self.orientation = board.orientation
        self.layout = board.layout
        self.hexes: list[Hex] = board.hexes()
        n = self.n = len(self.hexes)
        self.index = {h: i for i, h in enumerate(self.hexes)}
        qs = np.array([h.q for h in self.hexes] or [0], dtype=np.int64)
        rs = np.array([h.r for h in self.hexes] or [0], dtype=np.int64)
        self.qmin, self.rmin = int(qs.min()), int(rs.min())
        self.grid = np.full((int(qs.max()) - self.qmin + 1, int(rs.max()) - self.rmin + 1), n, dtype=np.int64)
        if n:
            self.grid[qs - self.qmin, rs - self.rmin] = np.arange(n)
        self.q = np.append(qs[:n], 0)
        self.r = np.append(rs[:n], 0)
        self.kind_names: list[str] = [GROUND]
        self.kind_rules: list[str] = [""]
        self._kind_ids: dict[str, int] = {GROUND: 0}
        self._load_traced()
        self._load_hexes()

    # ------------------------------------------------------------ building
    def kind_id(self, name: str, rule: str = "") -> int:
        if name not in self._kind_ids:
            self._kind_ids[name] = len(self.kind_names)
            self.kind_names.append(name)
            self.kind_rules.append(rule)
        return self._kind_ids[name]

    def _load_traced(self) -> None:
        rules = self.rules
        self.traced: list[Traced] = []
        self.traced_kinds: set[str] = set()
        sea: list = []
        sea_kind = rules.sea_centre.sea_kind if rules.sea_centre else None
        for ob in self.board.obstacles:
            poly = shapely.make_valid(ob.polygon()) if not ob.polygon().is_valid else ob.polygon()
            if ob.kind == sea_kind:
                sea.append(poly)
            self.traced_kinds.add(ob.kind)
            kr = rules.traced_kind(ob.kind, ob.height)
            if kr.blocks:
                self.traced.append(Traced(ob.kind, kr.top_above_ground, kr.rule, poly))
        self.sea = shapely.union_all(sea) if sea else None
        self.polygons = np.array([t.polygon for t in self.traced], dtype=object)
        self.traced_height = np.array([t.height for t in self.traced], dtype=float)
        self.tree = shapely.STRtree(self.polygons) if len(self.polygons) else None
        edges_a, edges_b, owner = [], [], []
        for i, t in enumerate(self.traced):
            for ring in shapely.get_rings(t.polygon):
                c = shapely.get_coordinates(ring)
                edges_a.append(c[:-1])
                edges_b.append(c[1:])
                owner.append(np.full(len(c) - 1, i, dtype=np.int64))
        self.edge_a = np.concatenate(edges_a) if edges_a else np.zeros((0, 2))
        self.edge_b = np.concatenate(edges_b) if edges_b else np.zeros((0, 2))
        self.edge_owner = np.concatenate(owner) if owner else np.zeros(0, dtype=np.int64)

    def _load_hexes(self) -> None:
        board, rules, n = self.board, self.rules, self.n
        self.ground = np.zeros(n + 1)
        self.stand = np.zeros(n + 1)
        self.hex_top = np.zeros(n + 1)
        self.hex_kind = np.zeros(n + 1, dtype=np.int64)
        self.ground_kind = np.zeros(n + 1, dtype=np.int64)
        self.no_direct_fire: dict[int, str] = {}
        fixed = {fe.feature: fe for fe in rules.fixed_elevation}
        unit = {fe.feature: fe for fe in rules.unit_elevation}
        sc = rules.sea_centre
        for i, h in enumerate(self.hexes):
            feats = board.features.get(h, set())
            g = board.elevation.get(h, 0.0)
            gk = 0
            if sc is not None and sc.feature in feats and self.sea is not None:
                x, y = board.center(h)
                if shapely.contains_xy(self.sea, x, y):   # Leros 1.1e
                    g, gk = sc.elevation, self.kind_id(f"{sc.feature} (centre in the {sc.sea_kind})", sc.rule)
            for f in sorted(feats):
                if f in fixed:                              # Black Wednesday 1.2a
                    g, gk = fixed[f].elevation, self.kind_id(f, fixed[f].rule)
            self.ground[i] = g
            self.ground_kind[i] = gk
            s = g
            for f in sorted(feats):
                if f in unit:                               # Leros 1.1e piers
                    s = unit[f].elevation
            self.stand[i] = s
            top, kind = g, gk
            names = ([board.terrain[h]] if h in board.terrain else []) + sorted(feats)
            for name in names:
                if name in self.traced_kinds:               # "as printed": the tracing replaces the hex
                    continue
                kr = rules.kind(name)
                if kr.blocks and g + kr.top_above_ground > top:
                    top, kind = g + kr.top_above_ground, self.kind_id(name, kr.rule)
            self.hex_top[i] = top
            self.hex_kind[i] = kind
            for f in feats:
                if f in rules.no_direct_fire:               # Black Wednesday 1.1f
                    self.no_direct_fire[i] = rules.no_direct_fire[f]

    # ------------------------------------------------------------ lookups
    def lookup(self, q, r) -> np.ndarray:
        """Hex indexes of axial coordinates; ``n`` (the off-map slot) for hexes not on the board."""
        q = np.asarray(q, dtype=np.int64) - self.qmin
        r = np.asarray(r, dtype=np.int64) - self.rmin
        ok = (q >= 0) & (r >= 0) & (q < self.grid.shape[0]) & (r < self.grid.shape[1])
        out = np.full(q.shape, self.n, dtype=np.int64)
        out[ok] = self.grid[q[ok], r[ok]]
        return out

    def hex_of_index(self, i: int) -> Hex | None:
        return self.hexes[i] if 0 <= i < self.n else None

    def hex_index(self, h: Hex) -> int:
        return self.index.get(h, self.n)

    def tops_with(self, markers: Mapping[Hex, Iterable[str]] | None):
        """Hex tops and kinds with markers (smoke, …) on the map added as obstacles."""
        if not markers:
            return self.hex_top, self.hex_kind
        top = self.hex_top.copy()
        kind = self.hex_kind.copy()
        for h, names in markers.items():
            i = self.index.get(h)
            if i is None:
                continue
            for name in names:
                kr: KindRule = self.rules.kind(name)
                if kr.blocks and self.ground[i] + kr.top_above_ground > top[i]:
                    top[i] = self.ground[i] + kr.top_above_ground
                    kind[i] = self.kind_id(name, kr.rule)
        return top, kind

    # ------------------------------------------------------------ checks
    def hex_checks(self, rays: Rays, own_a, own_b, z0, dz, tops, sides: str):
        """Hex obstacles (ground included) against the whole of each sight line."""
        nr = len(rays)
        touches = crossings(rays, np.arange(nr), np.zeros(nr), np.ones(nr), self.orientation,
                            sides=sides, corners=self.rules.edge_rule == "either")
        return self._evaluate(touches, touches.item, own_a, own_b, z0, dz, tops, 0.0)

    def interval_checks(self, rays: Rays, ray_of, ta, tb, add, own_a, own_b, z0, dz, sides: str):
        """Traced obstacles: each item is a stretch ``ta..tb`` of a ray inside one, ``add`` metres high."""
        ray_of = np.asarray(ray_of, dtype=np.int64)
        ta = np.asarray(ta, dtype=float)
        tb = np.asarray(tb, dtype=float)
        add = np.asarray(add, dtype=float)
        inner = np.minimum(1e-7, (tb - ta) / 2.0)
        parts = []
        ends = []
        if sides == "both":
            ends = [(ta, ta + inner, np.arange(len(ta))), (tb, tb - inner, np.arange(len(ta)))]
        else:
            desc = rays.descending[ray_of]
            ends = [(np.where(desc, tb, ta), np.where(desc, tb - inner, ta + inner), np.arange(len(ta)))]
        for t_at, t_in, items in ends:
            qa, ra, qb, rb = cells_at(rays, ray_of, t_in, self.orientation)
            parts.append((Touches(items, t_at, qa, ra, qb, rb, np.zeros(len(items), dtype=bool))))
        inside = crossings(rays, ray_of, ta, tb, self.orientation, sides=sides, corners=False)
        touches = Touches.concat(parts + [inside])
        return self._evaluate(touches, ray_of[touches.item], own_a, own_b, z0, dz, self.ground, add[touches.item])

    def _evaluate(self, touches: Touches, ray, own_a, own_b, z0, dz, tops, add):
        """Per touch: the obstacle top the edge rule gives, the line height, and which hex it is."""
        ia = self.lookup(touches.qa, touches.ra)
        ib = self.lookup(touches.qb, touches.rb)
        oa, ob = own_a[ray], own_b[ray]
        ta_ = np.where((ia == oa) | (ia == ob), -np.inf, tops[ia])
        tb_ = np.where((ib == oa) | (ib == ob), -np.inf, tops[ib])
        if self.rules.edge_rule == "both":
            pick_b = tb_ < ta_
        else:
            pick_b = tb_ > ta_
        top = np.where(pick_b, tb_, ta_) + add
        z = z0[ray] + touches.t * dz[ray]
        with np.errstate(invalid="ignore"):
            value = top - z
        return Checks(touches.item, ray, touches.t, np.where(pick_b, ib, ia), np.where(pick_b, ia, ib),
                      top, z, value > EPS_HEIGHT, touches.pair)


@dataclass
class Checks:
    """Evaluated touches: which item and ray, where (t), which hex (and its pair), top, line height, blocked."""

    item: np.ndarray
    ray: np.ndarray
    t: np.ndarray
    hex: np.ndarray
    other: np.ndarray
    top: np.ndarray
    z: np.ndarray
    blocked: np.ndarray
    pair: np.ndarray


def blocked_rays(checks: Checks, n: int) -> np.ndarray:
    """Which of n rays have at least one blocking check."""
    out = np.zeros(n, dtype=bool)
    out[checks.ray[checks.blocked]] = True
    return out


def traced_pieces(sm: SightMap, P, Q, edge_rule: str):
    """Exact stretches of the segment P-Q inside traced obstacles (shapely): (ta, tb, obstacle index)."""
    empty = (np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))
    if sm.tree is None:
        return empty
    seg = shapely.LineString([P, Q])
    cand = sm.tree.query(seg, predicate="intersects")
    if not len(cand):
        return empty
    px, py = P
    dx, dy = Q[0] - px, Q[1] - py
    dd = dx * dx + dy * dy
    parts, owner = shapely.get_parts(shapely.intersection(seg, sm.polygons[cand]), return_index=True)
    coords, of_part = shapely.get_coordinates(parts, return_index=True)
    if not len(coords):
        return empty
    ts = ((coords[:, 0] - px) * dx + (coords[:, 1] - py) * dy) / dd
    starts = np.nonzero(np.r_[True, of_part[1:] != of_part[:-1]])[0]
    ta = np.minimum.reduceat(ts, starts)
    tb = np.maximum.reduceat(ts, starts)
    who = cand[owner[of_part[starts]]]
    if edge_rule == "both":
        # a line that only touches an outline (at a point or along it) does not enter the obstacle
        keep = tb - ta > 1e-12
        mid = (ta + tb) / 2.0
        mids = shapely.points(px + dx * mid, py + dy * mid)
        keep &= shapely.distance(mids, shapely.boundary(sm.polygons[who])) >= 1e-9
        ta, tb, who = ta[keep], tb[keep], who[keep]
    return ta, tb, who


__all__ = ["SightMap", "Checks", "Traced", "EPS_HEIGHT", "GROUND", "blocked_rays", "traced_pieces"]
