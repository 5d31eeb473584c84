"""Which hexes a straight sight line runs through, by exact lattice arithmetic (vectorized).

Hex sides and the spokes from each hex centre to its corners lie on three
families of parallel lines that cut the plane into unit triangles; every
triangle belongs to one hex.  In "triangle coordinates" ``(f0, f1, f2)``,
with ``f0 + f1 + f2 = 0``, those lines are where some ``f`` is a whole number,
and every hex centre and corner has whole coordinates.  A sight line is
``F(t) = FP + t * D`` for ``t`` in ``[0, 1]``; it leaves one hex for the next
only where it crosses such a line, so the hexes it passes through, the
hexsides it runs along and the corners it touches are all decided by
comparing numbers with whole numbers within :data:`TOL`, never by where a
floating-point sample happens to fall.

A crossing of a hexside gives the hex before it and the hex after it.  A line
that lies on a lattice line (a line between two hex centres in one of the
six directions through hex corners) runs alternately through hexes (along a
spoke) and along hexsides; there each "side" is a *pair* of hexes, which the
edge rule later combines.  A line through a corner without running along a
hexside touches a third hex at that point only; that touch is reported when
asked for (the "either" edge rule counts it, "both" does not).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.maps.hexes import FLAT

TOL = 1e-9   # in triangle coordinates: a point this close to a lattice line is on it


def axial_to_f(orientation: str, q, r) -> np.ndarray:
    """Triangle coordinates of axial (fractional) coordinates; shape (..., 3)."""
    q = np.asarray(q, dtype=float)
    r = np.asarray(r, dtype=float)
    if orientation != FLAT:
        q, r = r, q
    return np.stack([2.0 * r + q, -2.0 * q - r, q - r], axis=-1)


def point_f(layout, x, y) -> np.ndarray:
    """Triangle coordinates of lattice-plane points."""
    x = (np.asarray(x, dtype=float) - layout.origin[0]) / layout.size
    y = (np.asarray(y, dtype=float) - layout.origin[1]) / layout.size
    if layout.orientation == FLAT:
        q = x * 2.0 / 3.0
        r = -x / 3.0 + y / np.sqrt(3.0)
    else:
        q = x / np.sqrt(3.0) - y / 3.0
        r = y * 2.0 / 3.0
    return axial_to_f(layout.orientation, q, r)


def vertex_hex(orientation: str, c0, c2):
    """Axial (q, r) of the hex centred on the lattice vertex with coordinates (c0, ., c2)."""
    a = (c0 + 2 * c2) // 3
    b = (c0 - c2) // 3
    return (a, b) if orientation == FLAT else (b, a)


def triangle_hex(orientation: str, a, b, c):
    """Axial (q, r) of the hex owning the unit triangle whose coordinates floor to (a, b, c)."""
    s = a + b + c
    odd = (s != -1) & (s != -2)
    if odd.any():
        # floors of coordinates summing to 0 sum to -1 ("up") or -2; others happen only at exact vertices
        a = a - np.where(s >= 0, s + 1, 0) + np.where(s <= -3, -2 - s, 0)
        s = a + b + c
    up = s == -1
    m = (a - b) % 3
    # of the triangle's three vertices, the one with v0 = v1 (mod 3) is the hex centre
    c0 = a + np.where(up, m == 2, m != 1)
    c2 = c + ((m == 0) == up)
    return vertex_hex(orientation, c0, c2)


@dataclass
class Rays:
    """Sight lines from P to Q in triangle coordinates; ``online`` is the lattice family each lies on, or -1."""

    FP: np.ndarray        # (n, 3)
    D: np.ndarray         # (n, 3)
    online: np.ndarray    # (n,) int
    descending: np.ndarray  # (n,) bool: the sight line's height falls from P to Q

    @classmethod
    def make(cls, FP, FQ, descending) -> "Rays":
        FP = np.array(np.atleast_2d(FP), dtype=float)
        FQ = np.atleast_2d(np.asarray(FQ, dtype=float))
        D = FQ - FP
        near = np.abs(FP - np.round(FP)) < TOL
        on = (np.abs(D) < TOL) & near
        online = np.where(on.any(axis=1), np.argmax(on, axis=1), -1)
        # a line on a lattice line sits exactly on it
        rows = np.nonzero(online >= 0)[0]
        if len(rows):
            ks = online[rows]
            FP[rows, ks] = np.round(FP[rows, ks])
            D[rows, ks] = 0.0
        return cls(FP, D, online.astype(np.int64), np.asarray(descending, dtype=bool).reshape(-1))

    def __len__(self) -> int:
        return len(self.FP)


@dataclass
class Touches:
    """Where sight lines meet hexes: item, parameter t, hex A and hex B (B = A unless a hexside pair)."""

    item: np.ndarray
    t: np.ndarray
    qa: np.ndarray
    ra: np.ndarray
    qb: np.ndarray
    rb: np.ndarray
    corner: np.ndarray    # True for a touch at a corner only

    @classmethod
    def concat(cls, parts: list["Touches"]) -> "Touches":
        parts = [p for p in parts if len(p.t)]
        if not parts:
            z = np.zeros(0, dtype=np.int64)
            return cls(z, np.zeros(0), z, z, z, z, np.zeros(0, dtype=bool))
        return cls(*(np.concatenate([getattr(p, f) for p in parts])
                     for f in ("item", "t", "qa", "ra", "qb", "rb", "corner")))

    @property
    def pair(self) -> np.ndarray:
        return (self.qa != self.qb) | (self.ra != self.rb)


def crossings(rays: Rays, ray_of: np.ndarray, ta: np.ndarray, tb: np.ndarray, orientation: str,
              sides: str = "both", corners: bool = False) -> Touches:
    """All of :func:`crossing_parts` in one."""
    return Touches.concat(crossing_parts(rays, ray_of, ta, tb, orientation, sides, corners))


def crossing_parts(rays: Rays, ray_of: np.ndarray, ta: np.ndarray, tb: np.ndarray, orientation: str,
                   sides: str = "both", corners: bool = False) -> list[Touches]:
    """Hexes met where items (sub-segments ``ta..tb`` of rays) cross lattice lines strictly inside.

    ``sides="both"`` reports the hex on each side of every hexside crossed;
    ``sides="low"`` only the side whose stretch of line is lowest at the
    crossing (the hex left when the line descends, the hex entered when it
    rises), which is all a blocking test needs.  ``corners`` adds the hexes a
    line touches only at a corner.
    """
    ray_of = np.asarray(ray_of, dtype=np.int64)
    ta = np.asarray(ta, dtype=float)[:, None]
    tb = np.asarray(tb, dtype=float)[:, None]
    FPi = rays.FP[ray_of]
    Di = rays.D[ray_of]
    fa = FPi + ta * Di
    fb = FPi + tb * Di
    lo = np.floor(np.minimum(fa, fb) + TOL) + 1
    hi = np.ceil(np.maximum(fa, fb) - TOL) - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        cnt = np.where(np.abs(Di) < TOL, 0, np.maximum(hi - lo + 1, 0)).astype(np.int64).ravel()
        # per (item, family k): along its crossings, f_{k+1} = A + B * j
        B = (Di[:, _NEXT] / Di).ravel()
        A = FPi[:, _NEXT].ravel() - FPi.ravel() * B
    total = int(cnt.sum())
    if not total:
        return []
    owner = np.repeat(np.arange(len(cnt)), cnt)
    start = np.cumsum(cnt) - cnt
    j = np.repeat(lo.ravel() - start, cnt) + np.arange(total)
    f1 = A[owner] + B[owner] * j
    m = np.floor(f1)
    frac = f1 - m
    special = (frac < TOL) | (frac > 1.0 - TOL)
    on = rays.online[ray_of] >= 0
    if on.any():
        special |= np.repeat(on, 3)[owner]
    parts = []
    x = m - j
    # hexsides, not spokes: (m - j) mod 3 == 1, in floats (whole numbers, margins of 1/6)
    keep = (x - 3.0 * np.floor((x + 0.5) * (1.0 / 3.0)) == 1.0) & ~special
    if keep.any():
        o = owner[keep]
        item = o // 3
        k = o - 3 * item
        jj = j[keep]
        dk = Di.ravel()[o]
        t = (jj - FPi.ravel()[o]) / dk
        parts.append(_fast(orientation, k, item, t, jj.astype(np.int64), m[keep].astype(np.int64), dk > 0,
                           rays.descending[ray_of[item]], sides))
    if special.any():
        o = owner[special]
        item = o // 3
        k = o - 3 * item
        jj = j[special]
        t = (jj - FPi.ravel()[o]) / Di.ravel()[o]
        parts.append(_special(orientation, rays, k, item, ray_of[item], t, jj.astype(np.int64), corners))
    return parts


_NEXT = [1, 2, 0]


def _family_order(k, xk, xk1, xk2):
    """(f0, f2) of a point given by its coordinates in families k, k+1, k+2."""
    c0 = np.where(k == 0, xk, np.where(k == 1, xk2, xk1))
    c2 = np.where(k == 0, xk2, np.where(k == 1, xk1, xk))
    return c0, c2


def _fast(orientation, k, item, t, j, m, rising_k, descending, sides) -> Touches:
    """Generic crossings (not at a vertex, line not on a lattice line): hexsides only."""
    # the centres on either side of the hexside: f_k = j + 1 ("plus") and f_k = j - 1 ("minus")
    if sides == "both":
        p0, p2 = _family_order(k, j + 1, m, -j - m - 1)
        n0, n2 = _family_order(k, j - 1, m + 1, -j - m)
        qa, ra = vertex_hex(orientation, np.concatenate([p0, n0]), np.concatenate([p2, n2]))
        none = np.zeros(len(qa), dtype=bool)
        return Touches(np.concatenate([item, item]), np.concatenate([t, t]), qa, ra, qa, ra, none)
    # before the crossing lies the minus side when f_k rises; the low side is "before" when descending
    plus = rising_k != descending
    s = np.where(plus, 1, -1)
    c0, c2 = _family_order(k, j + s, m + (~plus), np.where(plus, -j - m - 1, -j - m))
    qa, ra = vertex_hex(orientation, c0, c2)
    return Touches(item, t, qa, ra, qa, ra, np.zeros(len(qa), dtype=bool))


def _special(orientation, rays: Rays, k, item, ray, t, j, corners) -> Touches:
    """Crossings at a vertex or on a line lying on a lattice line: both sides, pairs and corner touches."""
    n = len(t)
    rows = np.arange(n)
    F = rays.FP[ray] + t[:, None] * rays.D[ray]
    D = rays.D[ray]
    online = rays.online[ray]
    rnd = np.round(F)
    near = np.abs(F - rnd) < TOL
    rnd = rnd.astype(np.int64)
    rising = D > 0
    at_line = near & (np.abs(D) >= TOL)
    before = np.where(at_line, np.where(rising, rnd - 1, rnd), np.floor(F).astype(np.int64))
    after = np.where(at_line, np.where(rising, rnd, rnd - 1), before)
    before[rows, k] = np.where(rising[rows, k], j - 1, j)
    after[rows, k] = np.where(rising[rows, k], j, j - 1)
    parts: list[Touches] = []
    sides = []
    on = np.nonzero(online >= 0)[0]
    ks = online[on]
    for tri in (before, after):
        if len(on):
            alt = tri.copy()
            tri[on, ks] = rnd[on, ks] - 1
            alt[on, ks] = rnd[on, ks]
            qa, ra = triangle_hex(orientation, tri[:, 0], tri[:, 1], tri[:, 2])
            qb, rb = triangle_hex(orientation, alt[:, 0], alt[:, 1], alt[:, 2])
        else:
            qa, ra = triangle_hex(orientation, tri[:, 0], tri[:, 1], tri[:, 2])
            qb, rb = qa, ra
        sides.append((qa, ra))
        parts.append(Touches(item, t, qa, ra, qb, rb, np.zeros(n, dtype=bool)))
    if corners:
        vertex = near.all(axis=1) & (online < 0)
        if vertex.any():
            parts.append(_corner_touches(orientation, item[vertex], t[vertex], rnd[vertex],
                                         sides[0][0][vertex], sides[0][1][vertex],
                                         sides[1][0][vertex], sides[1][1][vertex]))
    return Touches.concat(parts)


_STEPS = ((1, -1, 0), (-1, 1, 0), (1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1))


def _corner_touches(orientation, item, t, V, qx, rx, qy, ry) -> Touches:
    """At corners passed through, the third hex around the corner (neither before nor after)."""
    corner = (V[:, 0] - V[:, 1]) % 3 != 0
    item, t, V, qx, rx, qy, ry = item[corner], t[corner], V[corner], qx[corner], rx[corner], qy[corner], ry[corner]
    qz = np.zeros(len(t), dtype=np.int64)
    rz = np.zeros(len(t), dtype=np.int64)
    found = np.zeros(len(t), dtype=bool)
    for s0, s1, s2 in _STEPS:
        c0, c1, c2 = V[:, 0] + s0, V[:, 1] + s1, V[:, 2] + s2
        centre = (c0 - c1) % 3 == 0
        q, r = vertex_hex(orientation, c0, c2)
        other = centre & ~((q == qx) & (r == rx)) & ~((q == qy) & (r == ry)) & ~found
        qz = np.where(other, q, qz)
        rz = np.where(other, r, rz)
        found |= other
    keep = found
    return Touches(item[keep], t[keep], qz[keep], rz[keep], qz[keep], rz[keep], np.ones(int(keep.sum()), dtype=bool))


def cells_at(rays: Rays, ray_of: np.ndarray, t: np.ndarray, orientation: str):
    """The hex (or hexside pair, on a lattice line) at parameter t of each ray: (qa, ra, qb, rb)."""
    ray_of = np.asarray(ray_of, dtype=np.int64)
    F = rays.FP[ray_of] + np.asarray(t, dtype=float)[:, None] * rays.D[ray_of]
    tri = np.floor(F).astype(np.int64)
    online = rays.online[ray_of]
    rows = np.nonzero(online >= 0)[0]
    if not len(rows):
        qa, ra = triangle_hex(orientation, tri[:, 0], tri[:, 1], tri[:, 2])
        return qa, ra, qa, ra
    alt = tri.copy()
    ks = online[rows]
    J = np.round(F[rows, ks]).astype(np.int64)
    tri[rows, ks] = J - 1
    alt[rows, ks] = J
    qa, ra = triangle_hex(orientation, tri[:, 0], tri[:, 1], tri[:, 2])
    qb, rb = triangle_hex(orientation, alt[:, 0], alt[:, 1], alt[:, 2])
    return qa, ra, qb, rb
