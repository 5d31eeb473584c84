"""The lattice walk of :mod:`engine.los.grid` for one sight line, in plain Python (the single query's path).

One line crosses a few hundred lattice lines at most, too few for numpy's
per-call cost to pay off.  The arithmetic is the same, operation for
operation, as the vectorized walk the viewshed uses, so the two give the same
hexes at the same points; the tests and the benchmark compare them.
"""
from __future__ import annotations

import math

from engine.maps.hexes import FLAT
from engine.los.grid import TOL

_STEPS = ((1, -1, 0), (-1, 1, 0), (1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1))


def vertex_hex(orientation: str, c0: int, c2: int) -> tuple[int, int]:
    """Axial (q, r) of the hex centred on the lattice vertex (c0, ., c2)."""
    a = (c0 + 2 * c2) // 3
    b = (c0 - c2) // 3
    return (a, b) if orientation == FLAT else (b, a)


def triangle_hex(orientation: str, a: int, b: int, c: int) -> tuple[int, int]:
    """Axial (q, r) of the hex owning the unit triangle whose coordinates floor to (a, b, c)."""
    s = a + b + c
    if s >= 0:
        a -= s + 1
    elif s <= -3:
        a += -2 - s
    up = (a + b + c) == -1
    m = (a - b) % 3
    c0 = a + (m == 2 if up else m != 1)
    c2 = c + ((m == 0) == up)
    return vertex_hex(orientation, c0, c2)


class Line:
    """One sight line in triangle coordinates, from FP to FQ."""

    __slots__ = ("FP", "D", "online", "descending", "orientation")

    def __init__(self, FP, FQ, descending: bool, orientation: str):
        FP = [float(v) for v in FP]
        D = [float(FQ[i]) - FP[i] for i in range(3)]
        self.online = -1
        for m in range(3):
            if abs(D[m]) < TOL and abs(FP[m] - round(FP[m])) < TOL:
                self.online = m
                FP[m] = float(round(FP[m]))
                D[m] = 0.0
                break
        self.FP, self.D = FP, D
        self.descending = bool(descending)
        self.orientation = orientation

    def cell(self, t: float) -> tuple[tuple[int, int], tuple[int, int]]:
        """The hex at parameter t (twice), or the two hexes either side when the line lies on a lattice line."""
        FP, D = self.FP, self.D
        tri = [math.floor(FP[i] + t * D[i]) for i in range(3)]
        if self.online < 0:
            h = triangle_hex(self.orientation, *tri)
            return h, h
        k = self.online
        J = round(FP[k] + t * D[k])
        alt = list(tri)
        tri[k], alt[k] = J - 1, J
        return triangle_hex(self.orientation, *tri), triangle_hex(self.orientation, *alt)

    def touches(self, corners: bool) -> list[tuple[float, tuple[int, int], tuple[int, int], bool]]:
        """(t, hex A, hex B, corner only) where the line meets hexes, lowest sides only, sorted by t."""
        FP, D, orient = self.FP, self.D, self.orientation
        out = []
        for k in range(3):
            d = D[k]
            if abs(d) < TOL:
                continue
            k1 = (k + 1) % 3
            fa, fb = FP[k], FP[k] + d
            lo = math.floor(min(fa, fb) + TOL) + 1
            hi = math.ceil(max(fa, fb) - TOL) - 1
            B = D[k1] / d
            A = FP[k1] - FP[k] * B
            take_plus = (d > 0) != self.descending
            for j in range(lo, hi + 1):
                f1 = A + B * j
                m = math.floor(f1)
                frac = f1 - m
                if frac < TOL or frac > 1.0 - TOL or self.online >= 0:
                    out.extend(self._special(k, j, (j - FP[k]) / d, corners))
                    continue
                if (m - j) % 3 != 1:
                    continue                                   # a spoke, inside one hex
                if take_plus:
                    v = (j + 1, m, -j - m - 1)
                else:
                    v = (j - 1, m + 1, -j - m)
                c0, c2 = (v[0], v[2]) if k == 0 else (v[2], v[1]) if k == 1 else (v[1], v[0])
                h = vertex_hex(orient, c0, c2)
                out.append(((j - FP[k]) / d, h, h, False))
        out.sort(key=lambda x: x[0])
        return out

    def _special(self, k: int, j: int, t: float, corners: bool):
        """At a vertex, or on a line lying on a lattice line: both sides, hexside pairs, corner touches."""
        FP, D, orient, online = self.FP, self.D, self.orientation, self.online
        F = [FP[i] + t * D[i] for i in range(3)]
        rnd = [round(v) for v in F]
        near = [abs(F[i] - rnd[i]) < TOL for i in range(3)]
        before, after = [], []
        for i in range(3):
            if near[i] and abs(D[i]) >= TOL:
                before.append(rnd[i] - 1 if D[i] > 0 else rnd[i])
                after.append(rnd[i] if D[i] > 0 else rnd[i] - 1)
            else:
                fl = math.floor(F[i])
                before.append(fl)
                after.append(fl)
        before[k] = j - 1 if D[k] > 0 else j
        after[k] = j if D[k] > 0 else j - 1
        out = []
        sides = []
        for tri in (before, after):
            if online >= 0:
                alt = list(tri)
                tri[online], alt[online] = rnd[online] - 1, rnd[online]
                ha, hb = triangle_hex(orient, *tri), triangle_hex(orient, *alt)
            else:
                ha = hb = triangle_hex(orient, *tri)
            sides.append(ha)
            out.append((t, ha, hb, False))
        if corners and online < 0 and all(near) and (rnd[0] - rnd[1]) % 3 != 0:
            for s0, s1, s2 in _STEPS:
                c0, c1, c2 = rnd[0] + s0, rnd[1] + s1, rnd[2] + s2
                if (c0 - c1) % 3 == 0:
                    h = vertex_hex(orient, c0, c2)
                    if h != sides[0] and h != sides[1]:
                        out.append((t, h, h, True))
                        break
        return out
