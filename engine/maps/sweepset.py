"""Scans drawn at random across the space of hex grids people bring, to measure grid detection over all of it.

``engine.maps.scanset`` draws printed maps of one family (terrain fills, legends, hexside
features) at 30-150 pixels between hex centres.  This module samples the wider space a
person's scan may fall anywhere in, every choice drawn from the seed:

- hex radius (centre to corner) 10-150 pixels, log-uniform; up to 150 columns;
- flat or pointy;
- ruled grids (shared lines 1-6 pixels wide, dark on light fills or light on dark ones)
  or tile boards (each hex a tile of its own, a gap of 1-6 pixels of background between
  them, no lines at all);
- plain white fills (a clean computer-drawn grid) or coloured terrain, with dots;
- printed hex numbers and counters over the grid, a frame and a title in the margin;
- the "scan": turned up to 3 degrees, one axis stretched up to 4 %, softened, paper grain
  and shading, JPEG at quality 60-95.

    s = make_sweep_scan(17)
    s.image, s.transform, s.orientation, s.hex_px, s.centres, s.style

``transform`` is the truth in the map format's terms (lattice plane of hexes of size 1 to
image pixels, a pixel's centre at ``index + 0.5``), ``centres`` the image points of the
hexes drawn whole on the scan.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from engine.maps.board import Affine
from engine.maps.hexes import FLAT, POINTY, SQRT3, Hex, Layout

RADIUS = (10.0, 150.0)          # centre to corner, pixels
MAX_COLUMNS = 150
MAX_SIDE = 4200                 # the page's longer side, pixels (keeps a sweep of hundreds of scans quick)
SIZE_BANDS = ((10, 15), (15, 25), (25, 40), (40, 70), (70, 150))    # hex radius bands reported


@dataclass
class SweepScan:
    seed: int
    image: Image.Image
    transform: Affine
    orientation: str
    radius: float               # centre to corner on the page before the scan's turn and stretch, pixels
    hex_px: float               # centre to centre
    centres: np.ndarray         # (n, 2) image points of hexes drawn whole
    style: dict = field(default_factory=dict)


def size_band(radius: float) -> str:
    for lo, hi in SIZE_BANDS:
        if lo <= radius < hi or (hi == SIZE_BANDS[-1][1] and radius <= hi):
            return f"{lo}-{hi}"
    return "other"


def make_sweep_scan(seed: int, **fixed) -> SweepScan:
    """The sweep's scan of ``seed``; any style choice may be fixed by keyword (``radius=20``, ``tiles=True``,
    ``orientation="flat"``, ``columns=90``, ``plain=True``, ``rotation=0.0``, ``stretch=0.0``)."""
    rng = np.random.default_rng([seed, 4242])
    st = {}
    st["orientation"] = FLAT if rng.random() < 0.5 else POINTY
    st["radius"] = float(np.exp(rng.uniform(math.log(RADIUS[0]), math.log(RADIUS[1]))))
    st["tiles"] = bool(rng.random() < 0.25)
    st["columns"] = int(np.exp(rng.uniform(math.log(8), math.log(MAX_COLUMNS))))
    st["line_width"] = int(rng.integers(1, 7))
    st["light_lines"] = bool(rng.random() < 0.2)
    st["plain"] = bool(rng.random() < 0.3)
    st["numbers"] = bool(rng.random() < 0.5)
    st["counters"] = float(rng.uniform(0.0, 0.12))
    st["rotation"] = float(rng.uniform(-3.0, 3.0))
    st["stretch"] = float(rng.uniform(-0.04, 0.04))
    st["blur"] = float(rng.uniform(0.0, 1.0))
    st["noise"] = float(rng.uniform(0.5, 6.0))
    st["jpeg_quality"] = int(rng.integers(60, 96))
    st["aspect"] = float(rng.uniform(0.6, 0.9))
    st.update(fixed)
    return _draw(seed, st, rng)


def _draw(seed: int, st: dict, rng) -> SweepScan:
    r = float(st["radius"])
    flat = st["orientation"] == FLAT
    lay = Layout(st["orientation"], 1.0, (0.0, 0.0))
    col_step = 1.5 * r if flat else SQRT3 * r
    margin = max(30.0, 0.6 * r)
    cols = max(4, min(int(st["columns"]), int((MAX_SIDE - 2 * margin) / col_step) - 1))
    st["columns"] = cols
    W = int(cols * col_step + 2 * margin + r)
    H = int(max(W * st["aspect"], 6 * r + 2 * margin))
    if H > MAX_SIDE:
        H = MAX_SIDE
    # lines can be no wider than a third of a hex's side, or the hex would be all line
    lw = max(1, min(int(st["line_width"]), int(r / 3)))
    gap = max(2, lw)            # a tile board's gap: 2-6 pixels (a 1-pixel gap is the tiles' antialiased edges)
    st["line_width"] = lw
    dark_map = bool(st["light_lines"]) and not st["tiles"]
    paper = (250, 249, 244) if not dark_map else (40, 42, 48)
    page = Image.new("RGB", (W, H), paper)
    d = ImageDraw.Draw(page)
    x0, y0, x1, y1 = margin, margin, W - margin, H - margin
    ox, oy = x0 + r * float(rng.uniform(0.3, 1.0)), y0 + r * float(rng.uniform(0.3, 1.0))

    def pt(x, y):       # lattice plane -> page (Pillow rounds coordinates down: half a pixel added)
        return (r * x + ox + 0.5, r * y + oy + 0.5)

    # the hexes whose centres fall in the map area
    span_q = int((x1 - x0) / (1.5 * r if flat else SQRT3 * r)) + 3
    span_r = int((y1 - y0) / (SQRT3 * r if flat else 1.5 * r)) + 3
    hexes = []
    for a in range(-2, span_q + 2):
        for b in range(-2, span_r + 2):
            h = Hex(a, b - a // 2) if flat else Hex(a - b // 2, b)
            cx, cy = pt(*lay.hex_to_pixel(h))
            if x0 - r < cx < x1 + r and y0 - r < cy < y1 + r:
                hexes.append(h)
    if st["plain"]:
        fills = [(255, 255, 255) if not dark_map else (30, 32, 36)]
    elif dark_map:
        fills = [(40, 60, 40), (60, 50, 35), (35, 45, 70), (55, 55, 55), (70, 40, 40)]
    else:
        fills = [(236, 230, 200), (170, 205, 150), (215, 195, 160), (150, 190, 225), (220, 200, 150), (200, 200, 200),
                 (120, 150, 90)]
    weights = np.array([0.5] + [0.5 / max(1, len(fills) - 1)] * (len(fills) - 1))
    kinds = rng.choice(len(fills), len(hexes), p=weights / weights.sum())
    if st["tiles"]:
        # a tile board: the background shows between the hexes; dark or light
        bg = (30, 30, 34) if rng.random() < 0.5 else (252, 252, 250)
        d.rectangle([x0, y0, x1, y1], fill=bg)
        if bg[0] > 128:
            fills = [(int(c * 0.8), int(g * 0.8), int(b * 0.8)) for c, g, b in fills] if st["plain"] is False else [(190, 190, 200)]
    line_rgb = tuple(int(v) for v in ((rng.integers(200, 240),) * 3 if dark_map else (rng.integers(0, 120),) * 3))
    for h, k in zip(hexes, kinds):
        cx, cy = lay.hex_to_pixel(h)
        corners = lay.polygon_corners(h)
        if st["tiles"]:
            # shrink the tile so that a gap of ``gap`` pixels shows between neighbours
            f = 1.0 - (gap / 2.0) / (r * SQRT3 / 2)
            poly = [pt(cx + (x - cx) * f, cy + (y - cy) * f) for x, y in corners]
        else:
            poly = [pt(x, y) for x, y in corners]
        d.polygon(poly, fill=fills[int(k) % len(fills)])
        if not st["plain"] and rng.random() < 0.3:
            px, py = pt(cx, cy)
            for _ in range(int(rng.integers(3, 9))):
                a = rng.uniform(0, 2 * math.pi)
                rr = r * 0.6 * math.sqrt(rng.uniform())
                s = max(1.0, r * 0.08)
                ex, ey = px + rr * math.cos(a), py + rr * math.sin(a)
                d.ellipse([ex - s, ey - s, ex + s, ey + s], fill=(50, 90, 40) if not dark_map else (150, 170, 140))
    if not st["tiles"]:
        for h in hexes:
            poly = [pt(x, y) for x, y in lay.polygon_corners(h)]
            d.line(poly + [poly[0]], fill=line_rgb, width=lw)
    ink = (20, 20, 20) if not dark_map else (225, 225, 225)
    if st["numbers"] and r >= 12:
        font = ImageFont.load_default(size=max(7, int(r * 0.32)))
        for h in hexes:
            cx, cy = pt(*lay.hex_to_pixel(h))
            d.text((cx, cy - r * 0.55), f"{h.q % 100:02d}{h.r % 100:02d}", fill=ink, font=font, anchor="mt")
    n_counters = int(st["counters"] * len(hexes))
    if n_counters:
        font = ImageFont.load_default(size=max(6, int(r * 0.3)))
        for i in rng.choice(len(hexes), n_counters, replace=False):
            cx, cy = pt(*lay.hex_to_pixel(hexes[int(i)]))
            cx += rng.normal(0, r * 0.08)
            cy += rng.normal(0, r * 0.08)
            a = r * 0.6
            colour = [(200, 60, 50), (70, 110, 170), (200, 170, 60), (230, 230, 230)][int(rng.integers(4))]
            d.rectangle([cx - a + 2, cy - a + 2, cx + a + 2, cy + a + 2], fill=(60, 60, 60))
            d.rectangle([cx - a, cy - a, cx + a, cy + a], fill=colour, outline=(20, 20, 20))
            d.line([(cx - a * 0.6, cy - a * 0.6), (cx + a * 0.6, cy)], fill=(20, 20, 20), width=max(1, int(a * 0.08)))
            d.text((cx, cy + a * 0.5), f"{int(rng.integers(1, 9))}-{int(rng.integers(1, 9))}", fill=(10, 10, 10),
                   font=font, anchor="mm")
    # the margin: paper, a frame round the map and a title
    pc = (250, 249, 244)
    for box in ([0, 0, W, y0], [0, y1, W, H], [0, 0, x0, H], [x1, 0, W, H]):
        d.rectangle(box, fill=pc)
    d.rectangle([x0, y0, x1, y1], outline=(20, 20, 20), width=max(2, lw + 1))
    font = ImageFont.load_default(size=int(max(10, min(margin * 0.5, 40))))
    d.text((x0 + 4, 3), f"Sweep {seed}", fill=(20, 20, 20), font=font)
    # the scan: turn and stretch about the page centre, soften, grain, JPEG
    th = math.radians(float(st["rotation"]))
    R = np.array([[math.cos(th), math.sin(th)], [-math.sin(th), math.cos(th)]])
    M = np.diag([1.0, 1.0 + float(st["stretch"])]) @ R
    Mi = np.linalg.inv(M)
    c = np.array([W / 2.0, H / 2.0])
    t_in = c - Mi @ c
    scan = page.transform((W, H), Image.Transform.AFFINE, data=(Mi[0, 0], Mi[0, 1], t_in[0], Mi[1, 0], Mi[1, 1], t_in[1]),
                          resample=Image.Resampling.BICUBIC, fillcolor=(252, 252, 252))
    del page
    if st["blur"] > 0.05:
        scan = scan.filter(ImageFilter.GaussianBlur(float(st["blur"])))
    arr = np.asarray(scan).astype(np.float32)
    small = rng.normal(0.0, 4.0, (max(2, H // 200), max(2, W // 200))).astype(np.float32)
    shade = np.asarray(Image.fromarray(small, mode="F").resize((W, H), Image.Resampling.BICUBIC))
    tile = rng.normal(0.0, float(st["noise"]), (257, 263)).astype(np.float32)
    grain = np.tile(tile, (H // 257 + 1, W // 263 + 1))[:H, :W]
    arr += (shade + grain)[:, :, None]
    arr = np.clip(arr, 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr, "RGB").save(buf, format="JPEG", quality=int(st["jpeg_quality"]))
    image = Image.open(io.BytesIO(buf.getvalue()))
    image.load()
    # the truth: lattice -> page (pixel centres) -> scan, then the map format's +0.5
    A = M * r
    tt = M @ (np.array([ox, oy]) - c) + c + 0.5
    transform = Affine(float(A[0, 0]), float(A[0, 1]), float(tt[0]), float(A[1, 0]), float(A[1, 1]), float(tt[1]))
    whole = []
    for h in hexes:
        corners = np.array([pt(x, y) for x, y in lay.polygon_corners(h)])
        if (corners[:, 0] > x0 + 2).all() and (corners[:, 0] < x1 - 2).all() and (corners[:, 1] > y0 + 2).all() \
                and (corners[:, 1] < y1 - 2).all():
            whole.append(transform.apply(*lay.hex_to_pixel(h)))
    st = dict(st, radius=round(r, 3), width=W, height=H)
    return SweepScan(seed, image, transform, st["orientation"], r, r * SQRT3, np.array(whole).reshape(-1, 2), st)


def centre_error(scan: SweepScan, prop) -> float:
    """The largest distance from a whole hex's true centre to the nearest centre of the proposed grid (infinity
    when the proposed hexes are not the drawn ones' size: a grid of another size has centres near some true ones)."""
    T = prop.transform
    a, b, _, d, e, _ = (scan.transform.a, scan.transform.b, scan.transform.c, scan.transform.d, scan.transform.e,
                        scan.transform.f)
    if prop.orientation != scan.orientation or abs(abs(T.a * T.e - T.b * T.d) / abs(a * e - b * d) - 1) > 0.05:
        return math.inf
    if len(scan.centres) == 0:
        return math.inf
    lay = Layout(prop.orientation)
    Ti = T.inverse()
    worst = 0.0
    for u, v in scan.centres:
        h = lay.pixel_to_hex(*Ti.apply(float(u), float(v)))
        pu, pv = T.apply(*lay.hex_to_pixel(h))
        worst = max(worst, math.hypot(pu - u, pv - v))
    return worst


__all__ = ["SweepScan", "make_sweep_scan", "centre_error", "size_band", "SIZE_BANDS", "RADIUS", "MAX_COLUMNS"]
