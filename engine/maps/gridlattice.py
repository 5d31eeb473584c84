"""The grid search's first steps (docs/grid-detection.md): the coarse lattice of hex centres from the
autocorrelation of the scan's thin dark marks, its related and finer lattices, and the offset that
places a lattice on the printed edges; ``gridfind`` runs them."""
from __future__ import annotations

import math

import numpy as np

from engine.maps.hexes import FLAT, POINTY, SQRT3, Layout

COARSE_REGION = 4096              # the middle of the scan looked at for the coarse lattice, full-resolution pixels
COARSE_SIDE = 1024                # ... averaged down to at most this many pixels a side
HEX_PX_RANGE = (16.0, 400.0)      # centre-to-centre distances looked for, full-resolution pixels


# ---------------------------------------------------------------- coarse lattice

def _coarse(grey: np.ndarray, region: int = COARSE_REGION, side: int = COARSE_SIDE):
    """The middle of the scan (up to ``region`` pixels square), averaged down to at most ``side`` pixels a side;
    returns (array, factor, (x0, y0) of the region)."""
    h, w = grey.shape
    rw, rh = min(w, region), min(h, region)
    f = max(1, math.ceil(max(rw, rh) / side))
    rw, rh = rw // f * f, rh // f * f
    x0, y0 = (w - rw) // 2, (h - rh) // 2
    region = grey[y0:y0 + rh, x0:x0 + rw]
    small = region.reshape(rh // f, f, rw // f, f).sum(axis=(1, 3), dtype=np.uint32).astype(np.float32) / (f * f)
    return small, f, (x0, y0)


def _filter(a: np.ndarray, size: int, fn) -> np.ndarray:
    """A separable square max or min filter (``fn`` = np.maximum or np.minimum) of odd ``size``."""
    r = size // 2
    out = a.copy()
    for axis in (0, 1):
        src = out
        acc = src.copy()
        n = src.shape[axis]
        for d in range(1, r + 1):
            lo = [slice(None)] * 2
            hi = [slice(None)] * 2
            lo[axis], hi[axis] = slice(0, n - d), slice(d, n)
            acc[tuple(lo)] = fn(acc[tuple(lo)], src[tuple(hi)])
            acc[tuple(hi)] = fn(acc[tuple(hi)], src[tuple(lo)])
        out = acc
    return out


def _thin_dark(coarse: np.ndarray, size: int = 5, cap: float = 90.0) -> np.ndarray:
    """Dark marks thinner than ``size`` pixels (lines, text, dots): the black top-hat, closing minus image.

    Capped at its ``cap`` percentile, so that a few very dark marks (tree symbols, text) count no more than
    the faint but long hex lines."""
    closed = _filter(_filter(coarse, size, np.maximum), size, np.minimum)
    marks = closed - coarse
    top = float(np.percentile(marks[::3, ::3], cap))
    return np.minimum(marks, max(top, 1e-6))


def _lattices(coarse: np.ndarray, f: int, size: int = 5, cap: float = 90.0) -> list[dict]:
    """Candidate hex lattices from the autocorrelation of the scan's dark marks thinner than ``size`` pixels, most
    likely first (the marks capped at their ``cap`` percentile).

    Each is ``{"A": 2 x 2 (columns: two neighbour steps, full-resolution pixels), "strength": ...}``.
    """
    h, w = coarse.shape
    x = _thin_dark(coarse, size, cap)
    x = x - x.mean()
    win = np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)
    ph, pw = _fast_size(h + h // 2), _fast_size(w + w // 2)     # padded: shifts up to half the side do not wrap
    F = np.fft.rfft2(x * win, s=(ph, pw))
    ac = np.fft.irfft2(np.abs(F) ** 2, s=(ph, pw))
    ac = np.fft.fftshift(ac)
    cy, cx = ph // 2, pw // 2
    ac = ac / max(ac[cy, cx], 1e-9)
    # the window shrinks the overlap of long shifts: undo that with the window's own autocorrelation (separable)
    wy = _autocorr_1d(np.hanning(h), ph)
    wx = _autocorr_1d(np.hanning(w), pw)
    wac = np.outer(wy, wx)
    rmax = min(HEX_PX_RANGE[1] / f, 0.3 * min(h, w))
    rmin = max(HEX_PX_RANGE[0] / f, 3.0)
    R = int(math.ceil(rmax)) + 2
    sub = ac[cy - R:cy + R + 1, cx - R:cx + R + 1] / np.maximum(wac[cy - R:cy + R + 1, cx - R:cx + R + 1], 0.05)
    yy, xx = np.mgrid[-R:R + 1, -R:R + 1]
    rr = np.hypot(xx, yy)
    loc = np.ones_like(sub, dtype=bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                loc &= sub >= np.roll(np.roll(sub, dy, 0), dx, 1)
    half = (yy > 0) | ((yy == 0) & (xx > 0))
    cand = np.argwhere(loc & half & (rr >= rmin) & (rr <= rmax) & (sub > 0.02))
    if len(cand) == 0:
        return []
    vals = sub[cand[:, 0], cand[:, 1]]
    # a clean, computer-drawn grid has a peak of nearly the same height at every lattice vector in reach (hundreds
    # of them): the strongest sixty alone may all be long ones, so the shortest of the strong peaks are kept too
    strong_peaks = np.flatnonzero(vals >= 0.5 * vals.max())
    shortest = strong_peaks[np.argsort(rr[cand[strong_peaks, 0], cand[strong_peaks, 1]])[:40]]
    top = cand[np.unique(np.concatenate([np.argsort(-vals)[:60], shortest]))]
    peaks = []
    for iy, ix in top:
        py, px = _subpixel(sub, iy, ix)
        peaks.append((np.array([px - R, py - R]), float(sub[iy, ix])))

    def value(v):
        ix, iy = int(round(v[0])) + R, int(round(v[1])) + R
        if not (1 <= ix < 2 * R and 1 <= iy < 2 * R):
            return 0.0
        return float(sub[iy - 1:iy + 2, ix - 1:ix + 2].max())

    triples = []
    for i, (v1, s1) in enumerate(peaks):
        for v2, s2 in peaks:
            if v2 is v1:
                continue
            l1, l2 = np.hypot(*v1), np.hypot(*v2)
            if not 0.9 < l1 / l2 < 1.11:
                continue
            cross = v1[0] * v2[1] - v1[1] * v2[0]
            ang = math.degrees(math.atan2(abs(cross), float(v1 @ v2)))
            if abs(ang - 60.0) > 7.0 or cross <= 0:
                continue
            s3 = value(v2 - v1)
            strength = min(s1, s2, s3)
            if strength <= 0.02:
                continue
            triples.append({"A": np.column_stack([v1, v2]) * f, "strength": strength, "radius": (l1 + l2) / 2 * f})
    if not triples:
        return []
    best = max(t["strength"] for t in triples)
    strong = [t for t in triples if t["strength"] >= 0.6 * best]
    strong.sort(key=lambda t: t["radius"])
    out = []
    for t in strong + sorted(triples, key=lambda t: -t["strength"]):
        if not any(abs(t["radius"] / o["radius"] - 1) < 0.03 for o in out):
            out.append(t)
    return out[:4]


def _fast_size(n: int) -> int:
    """The smallest size at least ``n`` made of the factors 2, 3 and 5 (quick for the FFT)."""
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


def _autocorr_1d(v: np.ndarray, size: int) -> np.ndarray:
    """A window's autocorrelation, centred in ``size`` samples and 1 at zero shift."""
    f = np.fft.rfft(v, size)
    a = np.fft.fftshift(np.fft.irfft(np.abs(f) ** 2, size))
    return a / a[size // 2]


def _subpixel(N, iy, ix):
    """A peak's position to a fraction of a bin (a parabola through each axis's three values)."""
    h, w = N.shape

    def para(a, b, c):
        den = a - 2 * b + c
        return 0.0 if abs(den) < 1e-12 else 0.5 * (a - c) / den
    dy = para(N[(iy - 1) % h, ix], N[iy, ix], N[(iy + 1) % h, ix])
    dx = para(N[iy, (ix - 1) % w], N[iy, ix], N[iy, (ix + 1) % w])
    return iy + max(-0.5, min(0.5, dy)), ix + max(-0.5, min(0.5, dx))


def _related(A: np.ndarray) -> list[np.ndarray]:
    """A lattice (columns: neighbour steps) and the lattices its hexagonal ring of peaks might also belong to:
    the grid a third of its area (its steps the ring's corners), and half its size; and the grids three and four
    times its area."""
    v1, v2 = A[:, 0], A[:, 1]
    return [A,
            np.column_stack([(v1 + v2) / 3, (2 * v2 - v1) / 3]),
            A / 2,
            np.column_stack([v1 + v2, 2 * v2 - v1]),
            A * 2]


def _finer(M: np.ndarray, orient: str) -> list[np.ndarray]:
    """The two lattices finer than a fitted one whose edges its edges could lie on: half its size, and a third
    of its area turned by 30 degrees (as columns of neighbour steps)."""
    lay = Layout(orient)
    Lq, Lr = np.array(lay.axial_to_point(1, 0)), np.array(lay.axial_to_point(0, 1))
    A = M @ np.column_stack([Lq, Lr])
    v1, v2 = A[:, 0], A[:, 1]
    return [A / 2, np.column_stack([(v1 + v2) / 3, (2 * v2 - v1) / 3])]


def _placements(folds: list, A: np.ndarray, floor: float = 0.5) -> list[dict]:
    """A lattice placed by each fold (its score over ``floor``), tagged with the fold's index."""
    out = []
    for i, fold in enumerate(folds):
        c = _place(fold, A)
        if c is not None and c["score"] > floor:
            c["fold"] = i
            out.append(c)
    return out


def _same_lattice(a: dict, b: dict) -> bool:
    return abs(a["hex_px"] / b["hex_px"] - 1) < 0.03 and a["orientation"] == b["orientation"]


# ---------------------------------------------------------------- placing a lattice

def _orient(A: np.ndarray):
    """Orientation and the matrix M (lattice plane -> pixels, no offset) of a lattice (columns: neighbour steps)."""
    a1, a2 = A[:, 0], A[:, 1]
    vecs = sorted([a1, a2, a1 - a2, a1 + a2], key=lambda v: np.hypot(*v))[:3]
    nbrs = vecs + [-v for v in vecs]
    angles = np.array([math.atan2(v[1], v[0]) for v in nbrs])
    # flat hexes have neighbours at 30, 90, 150 degrees (y down); pointy at 0, 60, 120
    off = math.degrees(np.angle(np.mean(np.exp(1j * angles * 6))) / 6)      # mean angle mod 60, in (-30, 30]
    orient = POINTY if abs(off) < 15 else FLAT
    lay = Layout(orient)
    if orient == FLAT:
        want_q, want_r = (math.cos(math.radians(30)), math.sin(math.radians(30))), (0.0, 1.0)
    else:
        want_q, want_r = (1.0, 0.0), (math.cos(math.radians(60)), math.sin(math.radians(60)))

    def nearest(d):
        return max(nbrs, key=lambda v: (v @ np.array(d)) / np.hypot(*v))
    Pq, Pr = nearest(want_q), nearest(want_r)
    Lq, Lr = lay.axial_to_point(1, 0), lay.axial_to_point(0, 1)
    L = np.array([[Lq[0], Lr[0]], [Lq[1], Lr[1]]])
    M = np.column_stack([Pq, Pr]) @ np.linalg.inv(L)
    return orient, M


def _place(fold: "_Fold", A: np.ndarray) -> dict | None:
    """The best offset of a candidate lattice (by folding the thin dark marks onto one cell), orientation, score."""
    if abs(np.linalg.det(A)) < 1e-9:
        return None
    orient, M = _orient(A)
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    if not HEX_PX_RANGE[0] * 0.9 <= hex_px <= HEX_PX_RANGE[1] * 1.1:
        return None
    score, t = fold.best_offset(M, orient)
    return {"score": score, "t": t, "M": M, "orientation": orient, "hex_px": hex_px}


class _Fold:
    """The coarse image's thin dark marks, folded onto one cell of a candidate lattice."""

    BINS = 32

    def __init__(self, marks: np.ndarray, f: int, origin):
        h, w = marks.shape
        step = 2 if h * w > 300_000 else 1
        ys, xs = np.mgrid[0:h:step, 0:w:step]
        self.vals = marks[::step, ::step].ravel().astype(np.float64)
        # coarse pixel centres in full-resolution pixels, about their mean
        x = (xs.ravel() * f + (f - 1) / 2.0 + origin[0]).astype(np.float64)
        y = (ys.ravel() * f + (f - 1) / 2.0 + origin[1]).astype(np.float64)
        self.base = np.array([x.mean(), y.mean()])
        self.x, self.y = x - self.base[0], y - self.base[1]
        self.f = f

    def best_offset(self, M: np.ndarray, orient: str):
        """The edge score and hex centre of the best offset: edges where the folded marks form a ridge."""
        lay = Layout(orient)
        Lq, Lr = np.array(lay.axial_to_point(1, 0)), np.array(lay.axial_to_point(0, 1))
        P = M @ np.column_stack([Lq, Lr])            # pixel steps of q and r
        hex_coarse = math.sqrt(abs(np.linalg.det(M))) * SQRT3 / self.f
        n = int(min(40, max(16, hex_coarse / 1.5)))
        base = self.base
        Pi = np.linalg.inv(P)
        fq = self.x * Pi[0, 0] + self.y * Pi[0, 1]
        fr = self.x * Pi[1, 0] + self.y * Pi[1, 1]
        iq = (np.floor(fq * n).astype(np.int64)) % n
        ir = (np.floor(fr * n).astype(np.int64)) % n
        idx = iq * n + ir
        sums = np.bincount(idx, weights=self.vals, minlength=n * n)
        counts = np.bincount(idx, minlength=n * n)
        C = (sums / np.maximum(counts, 1)).reshape(n, n)
        # labels printed in every hex fold into a blob far darker than the lines: cap it at the lines' level
        C = np.minimum(C, np.percentile(C, 85))
        spread = C.std()
        if spread < 1e-9:
            return 0.0, base
        # the ridge of each of the three edge directions: the folded marks on a line minus a little either side
        L = np.column_stack([Lq, Lr])
        Li = np.linalg.inv(L)
        corners = np.array([lay.corner_offset(i) for i in range(6)])
        delta = max(0.1, 1.6 * self.f / (math.sqrt(abs(np.linalg.det(M)))))   # lattice units, about 1.6 coarse pixels
        ridges = []
        for i in range(3):
            a, b = corners[i], corners[i + 1]
            nrm = np.array([(b - a)[1], -(b - a)[0]])
            nrm /= np.hypot(*nrm)
            v = Li @ (delta * nrm) * n                  # the step across the edge, in bins
            ridges.append(C - 0.5 * (_shifted(C, v) + _shifted(C, -v)))
        # hex (0, 0)'s edge points in bins of the cell; the score of every offset at once, by rolling
        stack = []
        for i in range(6):
            a, b = corners[i], corners[(i + 1) % 6]
            for lam in (0.1, 0.25, 0.4, 0.6, 0.75, 0.9):
                bi = np.rint(Li @ (a + lam * (b - a)) * n).astype(int)
                stack.append(np.roll(ridges[i % 3], (-bi[0], -bi[1]), axis=(0, 1)))
        # most of the edge must lie on a ridge, not a few points of it on something dark
        vals = np.percentile(np.array(stack), 35, axis=0)
        k = np.unravel_index(int(np.argmax(vals)), vals.shape)
        score = float(vals[k] / spread)
        off = (np.array(k, float) + 0.5) / n
        t = base + P @ off
        return score, t


def _shifted(C: np.ndarray, v) -> np.ndarray:
    """``C`` read at ``(i + v0, j + v1)``, wrapping round, bilinear."""
    i0, j0 = int(math.floor(v[0])), int(math.floor(v[1]))
    fi, fj = v[0] - i0, v[1] - j0
    r = lambda di, dj: np.roll(C, (-(i0 + di), -(j0 + dj)), axis=(0, 1))   # noqa: E731
    return ((1 - fi) * ((1 - fj) * r(0, 0) + fj * r(0, 1)) + fi * ((1 - fj) * r(1, 0) + fj * r(1, 1)))
