"""The grid search's fit and its measures (docs/grid-detection.md): points on the predicted hex edges,
the printed lines found across them at full resolution, the robust least-squares fit of the
transform, the statistics the confidence is made of, and the sampler that reads the scan between
pixels; ``gridfind`` runs them."""
from __future__ import annotations

import math

import numpy as np

from engine.maps.hexes import FLAT, SQRT3, Layout


def _edge_points(M, t, orient, centre, reach_px, limit=None, rng=None, along=(0.25, 0.5, 0.75), shape=None, box=None):
    """Points on predicted hex edges within ``reach_px`` of ``centre``: positions (n x 2), unit normals, lattice coords.

    ``shape`` (h, w): only hexes whose centres lie in the image are drawn from (``limit`` of them); ``box``
    (x0, y0, x1, y1): only those whose centres lie in it."""
    lay = Layout(orient)
    Mi = np.linalg.inv(M)
    cx, cy = Mi @ (np.asarray(centre) - t)
    hc = lay.pixel_to_hex(float(cx), float(cy))
    scale = math.sqrt(abs(np.linalg.det(M)))
    rad = int(reach_px / (scale * SQRT3)) + 2
    # the three edges a hex owns (the other three belong to its neighbours)
    corners = np.array([lay.corner_offset(i) for i in range(6)])
    own = [(0, 1), (1, 2), (2, 3)]
    qs, rs = np.meshgrid(np.arange(-rad, rad + 1), np.arange(-rad, rad + 1))
    qs, rs = qs.ravel(), rs.ravel()
    keep = np.abs(qs + rs) <= rad
    qs, rs = qs[keep] + hc.q, rs[keep] + hc.r
    if orient == FLAT:
        cxs, cys = 1.5 * qs, SQRT3 * (rs + qs / 2.0)
    else:
        cxs, cys = SQRT3 * (qs + rs / 2.0), 1.5 * rs
    centres = np.column_stack([cxs, cys])
    pix = centres @ M.T + t
    d = np.hypot(*(pix - centre).T)
    sel = d <= reach_px
    if shape is not None:
        sel &= (pix[:, 0] >= 0) & (pix[:, 0] < shape[1]) & (pix[:, 1] >= 0) & (pix[:, 1] < shape[0])
    if box is not None:
        sel &= (pix[:, 0] >= box[0]) & (pix[:, 0] <= box[2]) & (pix[:, 1] >= box[1]) & (pix[:, 1] <= box[3])
    centres = centres[sel]
    if limit is not None and len(centres) > limit:
        idx = (rng or np.random.default_rng(0)).choice(len(centres), limit, replace=False)
        centres = centres[idx]
    pts, normals = [], []
    for i, j in own:
        a, b = corners[i], corners[j]
        edge = b - a
        nrm = np.array([edge[1], -edge[0]])
        # the normal in the image: the transpose-inverse carries normals
        nimg = Mi.T @ nrm
        nimg = nimg / np.hypot(*nimg)
        for lam in along:
            p = a + lam * edge
            pts.append(centres + p)
            normals.append(np.repeat(nimg[None, :], len(centres), 0))
    lat = np.vstack(pts)
    return lat @ M.T + t, np.vstack(normals), lat


def _edge_score(img: "_Sampler", pts, nrm, hex_px: float, line_w: float = 0.0) -> float:
    """How much darker the scan is on predicted edge points than a little off them (beyond the half of a line
    ``line_w`` wide), against its spread."""
    w = max(2.0, 0.08 * hex_px, 0.5 * line_w + 1.0)
    ok = img.inside(pts, 4)
    if ok.sum() < 30:
        return 0.0
    pts, nrm = pts[ok], nrm[ok]
    on = img.sample(pts)
    off = (img.sample(pts + nrm * w) + img.sample(pts - nrm * w)) / 2
    diff = off - on                    # positive where a dark line is
    return float(np.mean(diff) / (np.std(diff) + 1.0))


def _best_offset(img: "_Sampler", M, t, orient, centre=None):
    """The offset of lattice ``M`` whose predicted edges sit darkest on the scan near ``centre``, at full resolution.

    Every offset on a grid of steps of about 3 pixels over one cell is tried on the edges of the hexes near the
    middle: the scan on the edge points against a little either side.  The fold places a lattice from the
    thin marks of the averaged-down middle, where lines as wide as the top-hat (4-6 px lines round small hexes)
    or 1 px lines round large hexes averaged down to a third leave little, and labels in every hex can pull it
    off the lines; this places it from the lines themselves.  Returns (t, score)."""
    h, w = img.shape
    centre = np.array([w / 2.0, h / 2.0]) if centre is None else np.asarray(centre, float)
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    reach = max(3.0 * hex_px, 120.0)
    pts, nrm, _ = _edge_points(M, t, orient, centre, reach, limit=60, rng=np.random.default_rng(3),
                               along=(0.3, 0.5, 0.7))
    lay = Layout(orient)
    P = M @ np.column_stack([lay.axial_to_point(1, 0), lay.axial_to_point(0, 1)])
    n = int(min(40, max(8, math.ceil(hex_px / 3.0))))
    fr = (np.arange(n) + 0.5) / n - 0.5
    offs = (np.stack(np.meshgrid(fr, fr, indexing="ij"), -1).reshape(-1, 2)) @ P.T      # (n*n, 2) pixels
    off_w = max(2.0, 0.15 * hex_px)
    best, best_t = -np.inf, t
    chunk = max(1, 200_000 // max(1, len(pts)))
    for k in range(0, len(offs), chunk):
        o = offs[k:k + chunk]
        q = pts[None, :, :] + o[:, None, :]                           # (m, p, 2)
        flatq = q.reshape(-1, 2)
        inside = img.inside(flatq, off_w + 2).reshape(q.shape[:2])
        nn = np.broadcast_to(nrm[None], q.shape).reshape(-1, 2)
        on = img.sample(flatq)
        off = 0.5 * (img.sample(flatq + nn * off_w) + img.sample(flatq - nn * off_w))
        diff = (off - on).reshape(q.shape[:2])
        cnt = inside.sum(axis=1)
        score = np.where(cnt >= 30, (diff * inside).sum(axis=1) / np.maximum(cnt, 1), -np.inf)
        i = int(np.argmax(score))
        if score[i] > best:
            best, best_t = float(score[i]), t + o[i]
    return best_t, best


# ---------------------------------------------------------------- the fit

def _fit(img: "_Sampler", M, t, orient, whole: bool = True, centre=None, reach: float | None = None):
    """Robust least-squares fit of the transform to the printed lines, spreading from the middle of the scan.

    ``whole=False``: only the middle (a few hexes around it), returning the edge score there instead of the
    statistics of the whole scan.
    """
    h, w = img.shape
    centre = np.array([w / 2.0, h / 2.0]) if centre is None else np.asarray(centre, float)
    scale = math.sqrt(abs(np.linalg.det(M)))
    hex_px = scale * SQRT3
    reach = max(5 * hex_px, 300.0) if reach is None else reach
    full = max(math.hypot(u - centre[0], v - centre[1]) for u in (0, w) for v in (0, h))
    rng = np.random.default_rng(1)
    window = max(3.0, min(0.16 * hex_px, 12.0))
    line_w = floor = None
    rounds = 0
    while True:
        for _ in range(3 if rounds == 0 else 2):
            pts, nrm, lat = _edge_points(M, t, orient, centre, reach, limit=400, rng=rng)
            ok = img.inside(pts, window + 3)
            pts, nrm, lat = pts[ok], nrm[ok], lat[ok]
            if len(pts) < 40:
                return None
            delta, strength, width = _line_offsets(img, pts, nrm, window, widths=True)
            good = np.isfinite(delta)
            if good.sum() < 30:
                return None
            if line_w is None:
                # the printed lines' width, from the first and widest profiles: the profile never narrows to less
                # than the line and a margin either side (a 6 px line in a profile of 3 px either side has a flat
                # bottom with no sides, its darkest point anywhere on it, and the fit walked off the lines)
                line_w = _line_width(width[good])
                floor = min(window, max(3.0, 0.5 * line_w + 1.5))
            dM, dt = _solve(lat[good], nrm[good], delta[good], strength[good])
            M = M + dM
            t = t + dt
            window = max(floor, window * 0.7)
        rounds += 1
        if not whole:
            pts, nrm, _ = _edge_points(M, t, orient, centre, reach, limit=400, rng=rng, along=(0.2, 0.35, 0.5, 0.65, 0.8))
            return M, t, _edge_score(img, pts, nrm, hex_px, line_w)
        if reach >= full:
            break
        reach *= 2
    return M, t, _stats(img, M, t, orient, line_w)


def _line_width(width) -> float:
    """The printed lines' width: the median of the widths measured across them at half their depth (NaN where
    a line's two sides were not both seen); 0 when too few were."""
    width = width[np.isfinite(width)]
    return float(np.median(width)) if len(width) >= 30 else 0.0


def _line_offsets(img: "_Sampler", pts, nrm, window: float, widths: bool = False):
    """For each point and normal: where the darkest line is along the normal within ``window`` (NaN: none), and its
    strength; ``widths``: and the line's width at half its depth (NaN where its two sides are not both seen)."""
    step = max(0.5, window / 10)
    steps = np.arange(-math.ceil(window), math.ceil(window) + step / 2, step)
    P = pts[:, None, :] + nrm[:, None, :] * steps[None, :, None]
    vals = img.sample(P.reshape(-1, 2)).reshape(len(pts), len(steps))
    # smooth a little along the profile
    k = np.array([0.25, 0.5, 0.25])
    sm = vals.copy()
    sm[:, 1:-1] = vals[:, :-2] * k[0] + vals[:, 1:-1] * k[1] + vals[:, 2:] * k[2]
    i = np.argmin(sm[:, 1:-1], axis=1) + 1
    rows = np.arange(len(pts))
    a, b, c = sm[rows, i - 1], sm[rows, i], sm[rows, i + 1]
    den = a - 2 * b + c
    frac = np.where(np.abs(den) > 1e-6, 0.5 * (a - c) / np.where(np.abs(den) > 1e-6, den, 1.0), 0.0)
    frac = np.clip(frac, -0.5, 0.5)
    pos = steps[i] + frac * step
    # the line's depth against the profile's ends
    depth = np.minimum(sm[:, :2].mean(axis=1), sm[:, -2:].mean(axis=1)) - b
    # a thick line's bottom is flat, and its darkest point wanders over it with the noise: its middle is halfway
    # between where the profile crosses half the line's depth on either side of the darkest point
    n = sm.shape[1]
    thr = b + 0.5 * depth
    below = sm < thr[:, None]
    idx = np.broadcast_to(np.arange(n), sm.shape)
    left_out = np.maximum.accumulate(np.where(~below, idx, -1), axis=1)[rows, i]          # last sample above, left
    right_out = np.minimum.accumulate(np.where(~below, idx, n)[:, ::-1], axis=1)[:, ::-1][rows, i]
    both = (left_out >= 0) & (right_out < n) & (right_out - left_out > 3)
    lo_a, lo_b = sm[rows, np.clip(left_out, 0, n - 1)], sm[rows, np.clip(left_out + 1, 0, n - 1)]
    hi_a, hi_b = sm[rows, np.clip(right_out - 1, 0, n - 1)], sm[rows, np.clip(right_out, 0, n - 1)]
    with np.errstate(divide="ignore", invalid="ignore"):
        xl = np.clip(left_out, 0, n - 1) + np.clip((lo_a - thr) / (lo_a - lo_b), 0, 1)
        xr = np.clip(right_out - 1, 0, n - 1) + np.clip((thr - hi_a) / (hi_b - hi_a), 0, 1)
    mid = steps[0] + 0.5 * (xl + xr) * step
    pos = np.where(both & np.isfinite(mid), mid, pos)
    noise = np.median(np.abs(np.diff(vals, axis=1)), axis=1) + 1.0
    strength = depth / noise
    edge_hit = (i <= 1) | (i >= len(steps) - 2)
    pos = np.where((strength > 2.0) & ~edge_hit, pos, np.nan)
    if widths:
        return pos, strength, np.where(both & np.isfinite(pos), (xr - xl) * step, np.nan)
    return pos, strength


def _solve(lat, nrm, delta, strength):
    """Least squares for the change of M and t that moves each predicted edge point by ``delta`` along its normal."""
    x, y = lat[:, 0], lat[:, 1]
    nx, ny = nrm[:, 0], nrm[:, 1]
    # delta = nx * (dA*x + dB*y + dC) + ny * (dD*x + dE*y + dF)
    G = np.column_stack([nx * x, nx * y, nx, ny * x, ny * y, ny])
    wts = np.minimum(strength, 10.0)
    res = delta.copy()
    sol = np.zeros(6)
    for _ in range(4):
        sol = _weighted_lstsq(G, res, wts)
        r = delta - G @ sol
        s = 1.4826 * np.median(np.abs(r)) + 0.3
        # Tukey's biweight: points far off the fit (labels, counters, rivers) stop counting
        u = r / (4.0 * s)
        wts = np.minimum(strength, 10.0) * np.where(np.abs(u) < 1, (1 - u ** 2) ** 2, 0.0)
    dM = np.array([[sol[0], sol[1]], [sol[3], sol[4]]])
    dt = np.array([sol[2], sol[5]])
    return dM, dt


def _stats(img: "_Sampler", M, t, orient, line_w: float = 0.0) -> dict:
    """How well the final fit sits on the printed lines: over the scan and region by region."""
    h, w = img.shape
    centre = np.array([w / 2.0, h / 2.0])
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    # the hexes drawn from are those in the image: drawn from the whole circle round the middle that reaches the
    # corners, a wide scan's sample was mostly outside it (one of 4,171 x 2,548 px kept 14 % of its 3,000 hexes),
    # and a region's shift was a guess from 18-20 lines
    pts, nrm, lat = _edge_points(M, t, orient, centre, math.hypot(w, h), limit=3000, rng=np.random.default_rng(2),
                                 along=(0.2, 0.35, 0.5, 0.65, 0.8), shape=(h, w))
    window = max(2.5, min(0.12 * hex_px, 6.0))
    ok = img.inside(pts, window + 3)
    pts, nrm = pts[ok], nrm[ok]
    edge_score = _edge_score(img, pts, nrm, hex_px, line_w)
    delta, strength = _line_offsets(img, pts, nrm, window)
    found = np.isfinite(delta)
    dabs = np.abs(np.nan_to_num(delta, nan=99.0))
    close = found & (dabs <= 1.5)
    # region by region (tiles of a few hexes): where the predicted edges find lines that agree on one local
    # shift, the grid is printed there; that shift (0 where the fit is right) is how far off the fit is there
    tile = max(4 * hex_px, min(w, h) / 12)
    # which of the three edge directions each point is on
    dirs = np.unique(np.round(nrm, 6), axis=0)
    kinds = np.argmax(np.abs(nrm @ dirs.T), axis=1) if len(dirs) else np.zeros(len(nrm), int)
    # whole tiles across the image (no thin strip along an edge, where a frame line can pass for the grid)
    tw, th = w / max(1, round(w / tile)), h / max(1, round(h / tile))
    tx = (pts[:, 0] // tw).astype(int)
    ty = (pts[:, 1] // th).astype(int)
    keys = tx * 100000 + ty
    shifts = []
    lined = np.zeros(len(pts), bool)
    for k in np.unique(keys):
        m = keys == k
        fm = m & found
        if fm.sum() < 18 or fm.sum() < 0.4 * m.sum():
            continue
        shift, inliers = _local_shift(nrm[fm], delta[fm], kinds[fm])
        if inliers < 0.4:
            continue                  # lines there, but not the grid's (a frame, a table, text, a river)
        lined |= m
        shifts.append(float(np.hypot(*shift)))
    regions = len(shifts)
    # a fit that is off (a wrong size, turn or stretch) is off over a stretch of the scan, growing towards an
    # edge: the second worst region says so as well as the worst; one odd region alone (a table's ruled
    # lines that happen to run along the grid's) does not
    shifts.sort(reverse=True)
    region_err = shifts[1] if len(shifts) >= 6 else (shifts[0] if shifts else 99.0)
    if not lined.any():
        return {"confirmed": 0.0, "region_err": 99.0, "regions": 0, "edges_used": 0,
                "edge_score": round(edge_score, 4), "extent": (0.0, 0.0, float(w), float(h))}
    confirmed = float(close[lined].mean())
    lp = pts[lined]
    extent = (float(lp[:, 0].min()), float(lp[:, 1].min()), float(lp[:, 0].max()), float(lp[:, 1].max()))
    return {"confirmed": round(confirmed, 4), "region_err": round(region_err, 4), "regions": regions,
            "edges_used": int(lined.sum()), "edge_score": round(edge_score, 4), "extent": extent,
            "line_px": round(line_w, 2)}


def _confirmed_within(img: "_Sampler", M, t, orient, box) -> float:
    """The share of predicted edges that find their line within 1.5 pixels, over the hexes whose centres lie in
    ``box`` (x0, y0, x1, y1: where the grid is printed), not over the paper round it."""
    h, w = img.shape
    x0, y0, x1, y1 = box
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    pts, nrm, _ = _edge_points(M, t, orient, np.array([(x0 + x1) / 2, (y0 + y1) / 2]),
                               math.hypot(x1 - x0, y1 - y0) / 2 + hex_px, limit=3000, rng=np.random.default_rng(2),
                               along=(0.2, 0.35, 0.5, 0.65, 0.8), box=box)
    window = max(2.5, min(0.12 * hex_px, 6.0))
    ok = img.inside(pts, window + 3)
    if ok.sum() < 30:
        return 0.0
    delta, _ = _line_offsets(img, pts[ok], nrm[ok], window)
    return float((np.isfinite(delta) & (np.abs(np.nan_to_num(delta, nan=99.0)) <= 1.5)).mean())


def _weighted_lstsq(G: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The weighted least-squares solution of ``G x = y`` by its normal equations (zero where they are singular)."""
    Gw = G * w[:, None]
    A = G.T @ Gw
    b = Gw.T @ y
    try:
        return np.linalg.solve(A + np.eye(len(A)) * 1e-9 * max(1.0, float(np.trace(A))), b)
    except np.linalg.LinAlgError:
        return np.zeros(G.shape[1])


def _local_shift(nrm, delta, kinds):
    """The one shift (2-vector) that best explains the offsets ``delta`` seen along normals ``nrm``, robustly,
    and the least share, over the three edge directions, of offsets within a pixel of it (a frame or a table
    line explains one direction only)."""
    w = np.ones(len(delta))
    s = np.zeros(2)
    for _ in range(4):
        s = _weighted_lstsq(nrm, delta, w)
        r = delta - nrm @ s
        u = r / 2.0
        w = np.where(np.abs(u) < 1, (1 - u ** 2) ** 2, 0.0)
    ok = np.abs(delta - nrm @ s) <= 1.0
    shares = [float(ok[kinds == k].mean()) if (kinds == k).sum() >= 5 else 0.0 for k in range(3)]
    return s, min(shares)


# ---------------------------------------------------------------- sampling

class _Sampler:
    """Bilinear samples of a grey image at arbitrary points."""

    def __init__(self, grey: np.ndarray, invert: bool = False):
        self.g = grey
        self.shape = grey.shape
        self.invert = invert

    def inside(self, pts, margin: float = 1.0) -> np.ndarray:
        h, w = self.shape
        return ((pts[:, 0] >= margin) & (pts[:, 0] < w - 1 - margin)
                & (pts[:, 1] >= margin) & (pts[:, 1] < h - 1 - margin))

    def sample(self, pts) -> np.ndarray:
        h, w = self.shape
        x = np.clip(pts[:, 0], 0, w - 1.001)
        y = np.clip(pts[:, 1], 0, h - 1.001)
        x0 = x.astype(np.int64)
        y0 = y.astype(np.int64)
        fx = (x - x0).astype(np.float32)
        fy = (y - y0).astype(np.float32)
        g = self.g
        a = g[y0, x0].astype(np.float32)
        b = g[y0, x0 + 1].astype(np.float32)
        c = g[y0 + 1, x0].astype(np.float32)
        d = g[y0 + 1, x0 + 1].astype(np.float32)
        v = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
        return 255.0 - v if self.invert else v
