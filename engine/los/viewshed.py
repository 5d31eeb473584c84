"""Every hex one hex can see, in one vectorized pass that agrees with the single exact query.

Hex obstacles use the same lattice arithmetic as :func:`engine.los.query.line_of_sight`,
for all sight lines at once.  Traced obstacles are found without shapely
calls per line: seen from the observer, each outline edge covers an arc of
bearings; the sight lines whose bearing falls in that arc are the only ones
that can cross it (a sorted-bearings search), their crossings are solved in
numpy, and sorted crossings pair up into the stretches of each line inside
each obstacle.  A line that meets an outline exactly at a vertex, or runs
along an edge, is ambiguous for that arithmetic; such lines are re-decided
by the exact query, so the two always agree.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np
import shapely

from engine.maps.hexes import Hex, hex_distance
from engine.los.query import line_of_sight
from engine.los.grid import Rays, axial_to_f
from engine.los.model import SightMap

ANGLE_PAD = 1e-9
UV_TOL = 1e-9


@dataclass(frozen=True)
class Viewshed:
    """What one hex sees: the visible hexes, and how many lines were re-decided exactly."""

    frm: Hex
    visible: frozenset
    checked: int
    exact_rechecks: int

    def __contains__(self, h: Hex) -> bool:
        return h in self.visible

    def to_dict(self, sm: SightMap) -> dict:
        ids = sorted(sm.board.hex_id(h) for h in self.visible)
        return {"from": sm.board.hex_id(self.frm), "visible": ids, "count": len(ids), "checked": self.checked}


def viewshed(sm: SightMap, frm: Hex, *, observer_height: float | None = None, target_height: float | None = None,
             observer_type: str | None = None, target_type: str | None = None,
             markers: Mapping[Hex, Iterable[str]] | None = None, visibility_limit: int | None = None,
             targets: list[Hex] | None = None) -> Viewshed:
    """The hexes ``frm`` can see (spotting), all at once; ``frm`` itself included."""
    R = sm.rules
    oh = observer_height if observer_height is not None else R.unit_height(observer_type, R.observer_height)
    th = target_height if target_height is not None else R.unit_height(target_type, R.target_height)
    limit = visibility_limit if visibility_limit is not None else R.visibility_limit
    pool = sm.hexes if targets is None else list(targets)
    tq = np.array([h.q for h in pool], dtype=np.int64)
    tr = np.array([h.r for h in pool], dtype=np.int64)
    dist = (np.abs(tq - frm.q) + np.abs(tr - frm.r) + np.abs(tq + tr - frm.q - frm.r)) // 2
    keep = dist > 0
    if limit is not None:
        keep &= dist <= limit                              # Black Wednesday 1.8
    tq, tr = tq[keep], tr[keep]
    n = len(tq)
    ia = sm.hex_index(frm)
    ia = ia if ia < sm.n else -1
    ib = sm.lookup(tq, tr)
    z0 = float(sm.stand[ia]) + oh
    zT = sm.stand[ib] + th
    FP = np.broadcast_to(axial_to_f(sm.orientation, frm.q, frm.r), (n, 3))
    FQ = axial_to_f(sm.orientation, tq, tr)
    rays = Rays.make(FP, FQ, zT < z0)
    own_a = np.full(n, ia, dtype=np.int64)
    own_b = np.where(ib == sm.n, -1, ib)                # a target off the map has no hex of its own
    z0a = np.full(n, z0)
    dz = zT - z0
    tops, _kinds = sm.tops_with(markers)
    blocked = sm.hex_checks(rays, own_a, own_b, z0a, dz, tops, sides="low", only_blocked=True)
    recheck = np.zeros(n, dtype=bool)
    if len(sm.traced):
        P = np.array(sm.layout.hex_to_pixel(frm))
        T = np.stack(_centres(sm, tq, tr), axis=1)
        ray_of, ta, tb, who, ambiguous = traced_stretches(sm, P, T, blocked)
        recheck[ambiguous] = True
        if len(ta):
            blocked |= sm.interval_checks(rays, ray_of, ta, tb, sm.traced_height[who], own_a, own_b, z0a, dz,
                                          sides="low", only_blocked=True)
    visible = ~blocked
    for k in np.nonzero(recheck)[0]:
        h = Hex(int(tq[k]), int(tr[k]))
        visible[k] = line_of_sight(sm, frm, h, observer_height=oh, target_height=th, markers=markers).clear
    seen = {Hex(int(q), int(r)) for q, r in zip(tq[visible], tr[visible])}
    seen.add(frm)
    return Viewshed(frm, frozenset(seen), n, int(recheck.sum()))


def _centres(sm: SightMap, q, r):
    x, y = [], []
    lay = sm.layout
    size = lay.size
    q = q.astype(float)
    r = r.astype(float)
    if lay.orientation == "flat":
        x = size * 1.5 * q
        y = size * math.sqrt(3.0) * (r + q / 2.0)
    else:
        x = size * math.sqrt(3.0) * (q + r / 2.0)
        y = size * 1.5 * r
    return x + lay.origin[0], y + lay.origin[1]


def traced_stretches(sm: SightMap, P: np.ndarray, T: np.ndarray, skip: np.ndarray):
    """Stretches ``ta..tb`` of the sight lines P->T[i] inside traced obstacles, and the ambiguous lines.

    Lines in ``skip`` (already blocked) are left out.
    """
    n = len(T)
    d = T - P
    theta = np.arctan2(d[:, 1], d[:, 0])
    live = np.nonzero(~skip)[0]
    order = live[np.argsort(theta[live], kind="stable")]
    ts = theta[order]
    A = sm.edge_a - P
    B = sm.edge_b - P
    tha = np.arctan2(A[:, 1], A[:, 0])
    thb = np.arctan2(B[:, 1], B[:, 0])
    dth = np.remainder(thb - tha + math.pi, 2 * math.pi) - math.pi
    lo = np.minimum(tha, tha + dth) - ANGLE_PAD
    hi = np.maximum(tha, tha + dth) + ANGLE_PAD
    edge = np.arange(len(A))
    # arcs that cross the -pi/pi cut are searched as two arcs
    wrap_lo = lo < -math.pi
    wrap_hi = hi > math.pi
    e_all = np.concatenate([edge, edge[wrap_lo], edge[wrap_hi]])
    lo_all = np.concatenate([np.maximum(lo, -math.pi), lo[wrap_lo] + 2 * math.pi, np.full(wrap_hi.sum(), -math.pi)])
    hi_all = np.concatenate([np.minimum(hi, math.pi), np.full(wrap_lo.sum(), math.pi), hi[wrap_hi] - 2 * math.pi])
    i0 = np.searchsorted(ts, lo_all, side="left")
    i1 = np.searchsorted(ts, hi_all, side="right")
    cnt = np.maximum(i1 - i0, 0)
    total = int(cnt.sum())
    pe = np.repeat(e_all, cnt)
    start = np.cumsum(cnt) - cnt
    pos = np.repeat(i0, cnt) + (np.arange(total) - np.repeat(start, cnt))
    pr = order[pos]
    dd = d[pr]
    e = sm.edge_b[pe] - sm.edge_a[pe]
    w = A[pe]
    den = dd[:, 0] * e[:, 1] - dd[:, 1] * e[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / den
        u = (w[:, 0] * dd[:, 1] - w[:, 1] * dd[:, 0]) / den
    scale = np.hypot(dd[:, 0], dd[:, 1]) * np.hypot(e[:, 0], e[:, 1])
    parallel = np.abs(den) <= 1e-12 * scale
    hit = ~parallel & (t > 0) & (t < 1) & (u >= 0) & (u < 1)
    ambiguous_pair = (~parallel & (t > -UV_TOL) & (t < 1 + UV_TOL)
                      & ((np.abs(u) < UV_TOL) | (np.abs(u - 1) < UV_TOL) | (np.abs(t) < UV_TOL)
                         | (np.abs(t - 1) < UV_TOL)))
    # a parallel edge matters only if it lies on the line itself
    on_line = parallel & (np.abs(w[:, 0] * dd[:, 1] - w[:, 1] * dd[:, 0]) <= 1e-9 * np.hypot(dd[:, 0], dd[:, 1]))
    ambiguous = np.zeros(n, dtype=bool)
    ambiguous[pr[ambiguous_pair | on_line]] = True
    ray = pr[hit]
    poly = sm.edge_owner[pe[hit]]
    tt = t[hit]
    # obstacles the observer stands in: every line starts inside them
    inside = np.nonzero(shapely.contains_xy(sm.polygons, P[0], P[1]))[0]
    if len(inside):
        boundary_near = shapely.distance(shapely.boundary(sm.polygons[inside]), shapely.Point(P)) < 1e-9
        if boundary_near.any():
            ambiguous[live] = True
        ray = np.concatenate([ray, np.repeat(live, len(inside))])
        poly = np.concatenate([poly, np.tile(inside, len(live))])
        tt = np.concatenate([tt, np.zeros(len(live) * len(inside))])
    if not len(tt):
        return (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64), ambiguous)
    key = ray * len(sm.traced) + poly
    o = np.lexsort((tt, key))
    key, tt, ray, poly = key[o], tt[o], ray[o], poly[o]
    first = np.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    gstart = np.nonzero(first)[0]
    gid = np.cumsum(first) - 1
    rank = np.arange(len(key)) - gstart[gid]
    gcount = np.diff(np.append(gstart, len(key)))
    opens = rank % 2 == 0
    idx = np.nonzero(opens)[0]
    has_next = rank[idx] + 1 < gcount[gid[idx]]
    nxt = np.minimum(idx + 1, len(tt) - 1)
    tb = np.where(has_next, tt[nxt], 1.0)
    return ray[idx], tt[idx], tb, poly[idx], ambiguous


def viewshed_by_loop(sm: SightMap, frm: Hex, **kw) -> frozenset:
    """The same viewshed as a loop of single exact queries (for checking and benchmarks)."""
    limit = kw.pop("visibility_limit", None)
    limit = limit if limit is not None else sm.rules.visibility_limit
    seen = {frm}
    for h in sm.hexes:
        if h == frm or (limit is not None and hex_distance(frm, h) > limit):
            continue
        if line_of_sight(sm, frm, h, **kw).clear:
            seen.add(h)
    return frozenset(seen)


__all__ = ["viewshed", "viewshed_by_loop", "Viewshed", "traced_stretches"]
