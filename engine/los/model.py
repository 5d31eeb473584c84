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

from engine.maps.board import Board
from engine.maps.hexes import Hex
from engine.los.grid import Rays, Touches, cells_at, crossing_parts
from engine.los.rules import DEFAULT_LOS_RULES, KindRule, LosRules

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
        # a border of off-map cells all round: lookups clip into it
        self.qmin, self.rmin = self.qmin - 1, self.rmin - 1
        self.grid = np.full((int(qs.max()) - self.qmin + 2, int(rs.max()) - self.rmin + 2), n, dtype=np.int64)
        if n:
            self.grid[qs - self.qmin, rs - self.rmin] = np.arange(n)
        self.qmax, self.rmax = self.grid.shape[0] - 1, self.grid.shape[1] - 1
        self.q = np.append(qs[:n], 0)
        self.r = np.append(rs[:n], 0)
        self.kind_names: list[str] = [GROUND]
        self.kind_rules: list[str] = [""]
        self._kind_ids: dict[str, int] = {GROUND: 0}
        self._load_traced()
        self._load_hexes()
        self._index_traced()
        # plain-Python copies for the single query, which looks up a few dozen hexes at a time
        self.index_qr = {(h.q, h.r): i for i, h in enumerate(self.hexes)}
        self.hex_top_list = self.hex_top.tolist()
        self.hex_kind_list = self.hex_kind.tolist()
        self.ground_list = self.ground.tolist()
        self.traced_ptr_list = self.traced_ptr.tolist()
        self.traced_at_list = self.traced_at.tolist()
        self.traced_height_list = self.traced_height.tolist()

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
        self.outlines = shapely.boundary(self.polygons) if len(self.polygons) else self.polygons
        shapely.prepare(self.polygons)
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

    def _index_traced(self) -> None:
        """Which traced obstacles overlap each hex (a CSR table: ``traced_ptr``, ``traced_at``)."""
        n = self.n
        if not len(self.traced) or not n:
            self.traced_ptr = np.zeros(n + 2, dtype=np.int64)
            self.traced_at = np.zeros(0, dtype=np.int64)
            return
        lay = self.layout
        cx, cy = self.layout_centres()
        corners = np.array([lay.corner_offset(i) for i in range(6)])
        rings = np.stack([cx[:, None] + corners[None, :, 0], cy[:, None] + corners[None, :, 1]], axis=2)
        hex_polys = shapely.polygons(rings)
        hex_i, poly_i = shapely.STRtree(hex_polys).query(self.polygons, predicate="intersects")[::-1]
        order = np.argsort(hex_i, kind="stable")
        self.traced_at = poly_i[order]
        self.traced_ptr = np.zeros(n + 2, dtype=np.int64)
        np.add.at(self.traced_ptr, hex_i + 1, 1)
        self.traced_ptr = np.cumsum(self.traced_ptr)

    def layout_centres(self):
        """Centres of the board's hexes (lattice coordinates), as two arrays."""
        q = self.q[:self.n].astype(float)
        r = self.r[:self.n].astype(float)
        lay = self.layout
        if lay.orientation == "flat":
            x, y = 1.5 * q, np.sqrt(3.0) * (r + q / 2.0)
        else:
            x, y = np.sqrt(3.0) * (q + r / 2.0), 1.5 * r
        return x * lay.size + lay.origin[0], y * lay.size + lay.origin[1]

    def traced_near(self, hexes: np.ndarray) -> np.ndarray | None:
        """Traced obstacles overlapping any of these hex indexes; None if one is off the map."""
        hexes = np.unique(hexes)
        if len(hexes) and hexes[-1] >= self.n:
            return None
        lo = self.traced_ptr[hexes]
        cnt = self.traced_ptr[hexes + 1] - lo
        total = int(cnt.sum())
        if not total:
            return np.zeros(0, dtype=np.int64)
        start = np.cumsum(cnt) - cnt
        pos = np.repeat(lo - start, cnt) + np.arange(total)
        return np.unique(self.traced_at[pos])

    # ------------------------------------------------------------ lookups
    def lookup(self, q, r) -> np.ndarray:
        """Hex indexes of axial coordinates; ``n`` (the off-map slot) for hexes not on the board."""
        qi = np.maximum(np.minimum(q - self.qmin, self.qmax), 0)
        ri = np.maximum(np.minimum(r - self.rmin, self.rmax), 0)
        return self.grid[qi, ri]

    def hex_of_index(self, i: int) -> Hex | None:
        return self.hexes[i] if 0 <= i < self.n else None

    def hex_index(self, h: Hex) -> int:
        return self.index.get(h, self.n)

    def marker_tops(self, markers: Mapping[Hex, Iterable[str]] | None) -> dict[int, tuple[float, int]]:
        """Hex index -> (top, kind id) for hexes whose markers (smoke, …) raise their top."""
        out: dict[int, tuple[float, int]] = {}
        for h, names in (markers or {}).items():
            i = self.index.get(h)
            if i is None:
                continue
            top, kind = out.get(i, (self.hex_top_list[i], self.hex_kind_list[i]))
            for name in names:
                kr: KindRule = self.rules.kind(name)
                if kr.blocks and self.ground_list[i] + kr.top_above_ground > top:
                    top, kind = self.ground_list[i] + kr.top_above_ground, self.kind_id(name, kr.rule)
            out[i] = (top, kind)
        return out

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
    def hex_checks(self, rays: Rays, own_a, own_b, z0, dz, tops, sides: str, only_blocked: bool = False):
        """Hex obstacles (ground included) against the whole of each sight line."""
        nr = len(rays)
        return self.stretch_checks(rays, np.arange(nr), np.zeros(nr), np.ones(nr), np.zeros(nr),
                                   np.ones(nr, dtype=bool), own_a, own_b, z0, dz, tops, sides, only_blocked)

    def interval_checks(self, rays: Rays, ray_of, ta, tb, add, own_a, own_b, z0, dz, sides: str,
                        only_blocked: bool = False):
        """Traced obstacles: each item is a stretch ``ta..tb`` of a ray inside one, ``add`` metres high."""
        n = len(ta)
        return self.stretch_checks(rays, ray_of, ta, tb, add, np.zeros(n, dtype=bool), own_a, own_b, z0, dz,
                                   self.ground, sides, only_blocked)

    def stretch_checks(self, rays: Rays, ray_of, ta, tb, add, hex_item, own_a, own_b, z0, dz, tops, sides: str,
                       only_blocked: bool = False):
        """Checks along stretches ``ta..tb`` of rays (or, ``only_blocked``, which rays are blocked).

        A hex item (a whole sight line) is judged by the hexes' tops; any other
        item is a stretch inside a traced obstacle, judged by the ground under
        it plus ``add`` and also checked at its own two ends.
        """
        ray_of = np.asarray(ray_of, dtype=np.int64)
        ta = np.asarray(ta, dtype=float)
        tb = np.asarray(tb, dtype=float)
        add = np.asarray(add, dtype=float)
        parts = crossing_parts(rays, ray_of, ta, tb, self.orientation, sides=sides,
                               corners=self.rules.edge_rule == "either")
        traced = np.nonzero(~hex_item)[0]
        if len(traced):
            a, b, r = ta[traced], tb[traced], ray_of[traced]
            inner = np.minimum(1e-7, (b - a) / 2.0)
            if sides == "both":
                t_at = np.concatenate([a, b])
                t_in = np.concatenate([a + inner, b - inner])
                items = np.concatenate([traced, traced])
            else:
                desc = rays.descending[r]
                t_at = np.where(desc, b, a)
                t_in = np.where(desc, b - inner, a + inner)
                items = traced
            qa, ra, qb, rb = cells_at(rays, ray_of[items], t_in, self.orientation)
            parts.append(Touches(items, t_at, qa, ra, qb, rb, np.zeros(len(items), dtype=bool)))
        if only_blocked:
            out = np.zeros(len(rays), dtype=bool)
            for part in parts:
                ck = self._judge_touches(part, ray_of, add, hex_item, own_a, own_b, z0, dz, tops)
                out[ck.ray[ck.blocked]] = True
            return out
        return self._judge_touches(Touches.concat(parts), ray_of, add, hex_item, own_a, own_b, z0, dz, tops)

    def _judge_touches(self, touches: Touches, ray_of, add, hex_item, own_a, own_b, z0, dz, tops) -> "Checks":
        item = touches.item
        ia = self.lookup(touches.qa, touches.ra)
        ib = self.lookup(touches.qb, touches.rb)
        hexi = hex_item[item]
        if hexi.all():
            base_a, base_b = tops[ia], tops[ib]
        elif not hexi.any():
            base_a, base_b = self.ground[ia], self.ground[ib]
        else:
            base_a = np.where(hexi, tops[ia], self.ground[ia])
            base_b = np.where(hexi, tops[ib], self.ground[ib])
        return self._judge(item, ray_of[item], touches.t, ia, ib, base_a, base_b, add[item], touches.pair,
                           own_a, own_b, z0, dz)

    def _judge(self, item, ray, t, ia, ib, base_a, base_b, add, pair, own_a, own_b, z0, dz) -> "Checks":
        """The edge rule picks a side of each hexside pair; own hexes never block; compare with the line."""
        oa, ob = own_a[ray], own_b[ray]
        top_a = np.where((ia == oa) | (ia == ob), -np.inf, base_a)
        top_b = np.where((ib == oa) | (ib == ob), -np.inf, base_b)
        pick_b = (top_b < top_a) if self.rules.edge_rule == "both" else (top_b > top_a)
        top = np.where(pick_b, top_b, top_a) + add
        z = z0[ray] + t * dz[ray]
        with np.errstate(invalid="ignore"):
            value = top - z
        return Checks(item, ray, t, np.where(pick_b, ib, ia), np.where(pick_b, ia, ib), top, z,
                      value > EPS_HEIGHT, pair)


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


def traced_pieces(sm: SightMap, P, Q, edge_rule: str, upto: float = 1.0, near: np.ndarray | None = None):
    """Exact stretches of the segment P-Q (its first ``upto`` part) inside traced obstacles, by shapely.

    ``near`` (optional) are the only obstacles that can meet it.  Returns
    parameters ``ta``, ``tb`` along P-Q and the obstacle index of each stretch.
    """
    empty = (np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))
    if sm.tree is None or upto <= 0.0:
        return empty
    end = (P[0] + upto * (Q[0] - P[0]), P[1] + upto * (Q[1] - P[1]))
    seg = shapely.LineString([P, end])
    if near is None:
        cand = sm.tree.query(seg, predicate="intersects")
    else:
        cand = near[shapely.intersects(seg, sm.polygons[near])]
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
        keep &= shapely.distance(mids, sm.outlines[who]) >= 1e-9
        ta, tb, who = ta[keep], tb[keep], who[keep]
    return ta, tb, who


__all__ = ["SightMap", "Checks", "Traced", "EPS_HEIGHT", "GROUND", "traced_pieces"]
