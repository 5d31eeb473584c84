"""Map art: draw a board with Pillow so that it looks like a printed wargame map.

Each sheet becomes one image: paper, hills as tinted bands with contour
lines, terrain with its symbols, rivers and ditches along hexsides, roads and
railroads from hex centre to hex centre, hex features, named lines and areas,
the printed hex grid with a small id at the top of every hex, and a strip
below the map with its title and off-map boxes.  The sheet's transform is
set to what was drawn, so the board's grid lies exactly over its image.

Image coordinates are continuous: pixel ``(i, j)`` covers ``[i, i+1) x [j, j+1)``.
Drawing happens at ``supersample`` times the size and is then reduced, which
gives cheap antialiasing.  Only one sheet image is held in memory at a time.
"""
from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import shapely
import shapely.affinity
import shapely.ops
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from shapely.geometry import LineString, MultiLineString, box
from shapely.ops import unary_union

from .board import Affine, Board, Sheet
from .fileio import atomic_write_bytes
from .hexes import Hex, hex_neighbors, hexside

SQRT3 = math.sqrt(3.0)

PAPER = (239, 232, 212)
INK = (46, 40, 34)
GROUND = ((222, 228, 194), (232, 226, 188), (226, 210, 168), (212, 188, 146), (192, 164, 124))
CONTOUR = (150, 108, 66)
WATER = (148, 192, 222)
WATER_EDGE = (46, 98, 160)

# Terrain drawn as regions: fill colour, fill opacity (0-255), outline colour or None,
# outline softening and wobble (hex sizes).
TERRAIN_STYLE = {
    "lake": ((148, 192, 222), 255, (46, 98, 160), 0.5, 0.07),
    "sea": ((148, 192, 222), 255, (46, 98, 160), 0.4, 0.07),
    "marsh": ((182, 212, 196), 190, None, 0.55, 0.08),
    "bog": ((176, 160, 116), 170, None, 0.5, 0.08),
    "woods": ((128, 168, 92), 215, (66, 110, 50), 0.45, 0.07),
    "forest": ((128, 168, 92), 215, (66, 110, 50), 0.45, 0.07),
    "rough": ((196, 174, 132), 120, None, 0.55, 0.06),
    "town": ((226, 206, 192), 220, (160, 120, 106), 0.3, 0.03),
    "city": ((206, 178, 168), 235, (140, 96, 88), 0.2, 0.02),
}

# Where lines and symbols are drawn, widths are in hex sizes (centre to corner).
GRID_WIDTH = 0.018


@dataclass
class SheetArt:
    """A rendered sheet: its image and the lattice-to-image transform it was drawn with."""

    image: Image.Image
    transform: Affine


def sheet_frame(board: Board, sheet: Sheet, px_per_hex: float, with_strip: bool = True):
    """The transform and image size for a sheet drawn at ``px_per_hex`` pixels between hex centres."""
    size_px = px_per_hex / SQRT3
    x0, y0, x1, y1 = _printed_rect(board, sheet).bounds
    margin = 0.45
    strip = 1.4 if with_strip else 0.0
    width = int(math.ceil((x1 - x0 + 2 * margin) * size_px))
    height = int(math.ceil((y1 - y0 + 2 * margin + strip) * size_px))
    transform = Affine(size_px, 0.0, (margin - x0) * size_px, 0.0, size_px, (margin - y0) * size_px)
    return transform, (width, height)


def render_sheet(board: Board, sheet: Sheet, px_per_hex: float = 64, supersample: int = 2,
                 seed: int = 1) -> SheetArt:
    """Draw one sheet; returns the image and the transform it was drawn with."""
    transform, (w, h) = sheet_frame(board, sheet, px_per_hex)
    painter = _Painter(board, sheet, transform, (w, h), supersample, seed)
    painter.paint()
    img = painter.image.resize((w, h), Image.Resampling.LANCZOS)
    painter.image = None
    img = _print_on_paper(img, seed)
    return SheetArt(img, transform)


def sheet_image_path(board: Board, sheet: Sheet, out_path) -> Path:
    """``out.png`` for a one-sheet board, ``out-A.png``, ``out-B.png`` … for several sheets."""
    out = Path(out_path)
    if len(board.sheets) == 1:
        return out
    return out.with_name(f"{out.stem}-{sheet.id}{out.suffix}")


def render_board(board: Board, out_path, px_per_hex: float = 64, supersample: int = 2,
                 seed: int = 1, colours: int | None = 128) -> list[Path]:
    """Draw every sheet to an image file and set each sheet's image and transform to match.

    The image format follows the file's suffix (``.png`` or ``.jpg``);
    ``colours`` reduces a PNG to that many palette colours (None keeps full colour).
    """
    paths = []
    for sheet in board.sheets:
        path = sheet_image_path(board, sheet, out_path)
        art = render_sheet(board, sheet, px_per_hex, supersample, seed)
        atomic_write_bytes(path, _encode(art.image, path, colours))
        del art.image
        sheet.transform = art.transform
        sheet.image = path.name
        paths.append(path)
    return paths


def _encode(img: Image.Image, path: Path, colours: int | None) -> bytes:
    buf = io.BytesIO()
    suffix = path.suffix.lower()
    if suffix in (".jpg", ".jpeg"):
        img.save(buf, "JPEG", quality=90, optimize=True)
    elif suffix == ".png":
        if colours:
            img = img.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        img.save(buf, "PNG", optimize=False, compress_level=9)
    else:
        raise ValueError(f"{path}: map images are .png or .jpg, not {path.suffix or 'no suffix'}")
    return buf.getvalue()


# ---------------------------------------------------------------- geometry helpers

def _printed_rect(board: Board, sheet: Sheet):
    """The printed map area of a sheet: the box round its hexes."""
    lay = board.layout
    corners = np.array([c for h in sheet.hexes() for c in lay.polygon_corners(h)])
    return box(corners[:, 0].min(), corners[:, 1].min(), corners[:, 0].max(), corners[:, 1].max())


def _edge_ring(sheet: Sheet) -> dict[Hex, Hex]:
    """Hexes just off the sheet, each with the sheet hex it copies (so art runs to the edge)."""
    ns = sheet.numbering
    out = {}
    for col in range(ns.first_col - 2, ns.first_col + ns.cols + 2):
        for row in range(ns.first_row - 2, ns.first_row + ns.rows + 2):
            if ns.contains_colrow(col, row):
                continue
            c = min(max(col, ns.first_col), ns.first_col + ns.cols - 1)
            r = min(max(row, ns.first_row), ns.first_row + ns.rows - 1)
            out[ns.colrow_to_hex(col, row)] = ns.colrow_to_hex(c, r)
    return out


def _smooth(geom, sigma: float):
    """Soften a union of hexes into a drawn shape: a Gaussian of ``sigma`` hex sizes along its outline.

    The outline is first grown by a little so single hexes keep about their size.
    """
    if sigma <= 0 or geom.is_empty:
        return geom
    grown = geom.buffer(0.25 * sigma, join_style="mitre")
    step = 0.08
    polys = []
    for poly in getattr(grown, "geoms", [grown]):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        rings = []
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(shapely.segmentize(ring, step).coords)[:-1]
            if len(pts) >= 8:
                rings.append(_gauss_ring(pts, sigma / step))
        if rings:
            polys.append(shapely.Polygon(rings[0], [r for r in rings[1:]]))
    out = shapely.MultiPolygon(polys) if len(polys) > 1 else (polys[0] if polys else shapely.Polygon())
    return out if out.is_valid else out.buffer(0)


def _gauss_ring(pts: np.ndarray, sigma: float) -> np.ndarray:
    """Smooth a closed ring of points with a circular Gaussian of ``sigma`` samples."""
    n = len(pts)
    half = min(int(3 * sigma), (n - 1) // 2)
    k = np.exp(-0.5 * (np.arange(-half, half + 1) / sigma) ** 2)
    k /= k.sum()
    padded = np.concatenate([pts[-half:], pts, pts[:half]]) if half else pts
    return np.stack([np.convolve(padded[:, i], k, mode="valid") for i in (0, 1)], axis=1)


def _wobble(geom, amplitude: float, seed: int):
    """Bend outlines by a smooth, seeded deformation so they look drawn by hand."""
    if amplitude <= 0 or geom.is_empty:
        return geom
    rng = np.random.default_rng(seed)
    k = rng.uniform(2.5, 6.0, (2, 3))
    ph = rng.uniform(0, 2 * math.pi, (2, 3))
    ang = rng.uniform(0, math.pi, (2, 3))

    def bend(xy):
        x, y = xy[:, 0], xy[:, 1]
        out = xy.copy()
        for i in range(2):
            d = sum(np.sin(k[i, j] * (x * math.cos(ang[i, j]) + y * math.sin(ang[i, j])) + ph[i, j])
                    for j in range(3))
            out[:, i] += amplitude * d / 2
        return out

    bent = shapely.transform(shapely.segmentize(geom, 0.08), bend)
    return bent if bent.is_valid else bent.buffer(0)


def _chains(edges: list[tuple[tuple, tuple]]) -> list[list[tuple]]:
    """Join undirected edges (pairs of points) into as few polylines as a walk gives."""
    adj: dict[tuple, list[tuple]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj.values():
        v.sort()
    used: set[frozenset] = set()
    chains = []
    starts = sorted(p for p, n in adj.items() if len(n) != 2) + sorted(adj)
    for s in starts:
        for nxt in adj[s]:
            if frozenset((s, nxt)) in used:
                continue
            chain = [s]
            cur, prev = nxt, s
            used.add(frozenset((s, nxt)))
            chain.append(cur)
            while len(adj[cur]) == 2:
                step = adj[cur][0] if adj[cur][0] != prev else adj[cur][1]
                if frozenset((cur, step)) in used:
                    break
                used.add(frozenset((cur, step)))
                prev, cur = cur, step
                chain.append(cur)
            chains.append(chain)
    return chains


def _key(p) -> tuple[float, float]:
    return (round(p[0], 5), round(p[1], 5))


def _ground_colour(t: float) -> tuple[int, int, int]:
    t = min(max(t, 0.0), 1.0) * (len(GROUND) - 1)
    i = min(int(t), len(GROUND) - 2)
    f = t - i
    return tuple(int(round(a + (b - a) * f)) for a, b in zip(GROUND[i], GROUND[i + 1]))


@lru_cache(maxsize=32)
def _font(size: int, bold: bool = False):
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)


def _print_on_paper(img: Image.Image, seed: int) -> Image.Image:
    """Multiply by a faint, seeded paper texture: soft blotches and a few fibres."""
    w, h = img.size
    rng = np.random.default_rng(seed + 7919)
    blotch = Image.fromarray((rng.random((h // 40 + 2, w // 40 + 2)) * 255).astype(np.uint8))
    blotch = np.asarray(blotch.resize((w, h), Image.Resampling.BICUBIC), dtype=np.float32) / 255.0
    factor = 0.978 + 0.03 * blotch
    arr = np.asarray(img, dtype=np.float32) * factor[:, :, None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


# ---------------------------------------------------------------- the painter

class _Painter:
    """Draws one sheet at supersampled size, layer by layer."""

    def __init__(self, board: Board, sheet: Sheet, transform: Affine, size, ss: int, seed: int):
        self.board, self.sheet, self.ss, self.seed = board, sheet, ss, seed
        self.t = transform
        self.s = transform.a * ss                      # pixels per hex size, supersampled
        self.image = Image.new("RGB", (size[0] * ss, size[1] * ss), PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.layout = board.layout
        self.rect = _printed_rect(board, sheet)
        self.hexes = [h for h in sheet.hexes()]
        self.on_sheet = set(self.hexes)
        self.ring = _edge_ring(sheet)

    # ------------------------------------------------------------ coordinates
    def pt(self, x: float, y: float) -> tuple[float, float]:
        u, v = self.t.apply(x, y)
        return (u * self.ss - 0.5, v * self.ss - 0.5)

    def pts(self, coords) -> list[tuple[float, float]]:
        return [self.pt(x, y) for x, y in coords]

    def w(self, width: float) -> int:
        return max(1, int(round(width * self.s)))

    def rng(self, *key) -> random.Random:
        return random.Random(f"{self.seed}:" + ":".join(str(k) for k in key))

    def center(self, h: Hex) -> tuple[float, float]:
        return self.layout.hex_to_pixel(h)

    # ------------------------------------------------------------ primitives
    def fill(self, geom, colour, alpha: int = 255) -> None:
        """Fill polygons (holes respected) with a colour at an opacity."""
        if geom.is_empty:
            return
        x0, y0, x1, y1 = geom.bounds
        (u0, v0), (u1, v1) = self.pt(x0, y0), self.pt(x1, y1)
        W, H = self.image.size
        bx0, by0 = max(0, int(u0) - 2), max(0, int(v0) - 2)
        bx1, by1 = min(W, int(u1) + 3), min(H, int(v1) + 3)
        if bx1 <= bx0 or by1 <= by0:
            return
        mask = Image.new("L", (bx1 - bx0, by1 - by0), 0)
        md = ImageDraw.Draw(mask)
        for poly in getattr(geom, "geoms", [geom]):
            if poly.geom_type != "Polygon" or poly.is_empty:
                continue
            md.polygon([(u - bx0, v - by0) for u, v in self.pts(poly.exterior.coords)], fill=alpha)
            for hole in poly.interiors:
                md.polygon([(u - bx0, v - by0) for u, v in self.pts(hole.coords)], fill=0)
        self.image.paste(colour, (bx0, by0, bx1, by1), mask)

    def stroke(self, geom, colour, width: float) -> None:
        """Draw the lines of a geometry (or a polygon's rings)."""
        if geom.is_empty:
            return
        for line in _lines_of(geom):
            self.draw.line(self.pts(line.coords), fill=colour, width=self.w(width), joint="curve")

    def polyline(self, coords, colour, width: float, caps: bool = True) -> None:
        p = self.pts(coords)
        wd = self.w(width)
        self.draw.line(p, fill=colour, width=wd, joint="curve")
        if caps and wd > 2:
            r = wd / 2
            for u, v in (p[0], p[-1]):
                self.draw.ellipse((u - r, v - r, u + r, v + r), fill=colour)

    def dashed(self, coords, colour, width: float, dash: float, gap: float) -> None:
        line = LineString(coords)
        pos, n = 0.0, line.length
        while pos < n:
            seg = shapely.ops.substring(line, pos, min(n, pos + dash))
            if seg.length > 0:
                self.polyline(seg.coords, colour, width)
            pos += dash + gap

    def disc(self, x, y, r, fill, outline=None, width=0.0) -> None:
        u, v = self.pt(x, y)
        rr = r * self.s
        self.draw.ellipse((u - rr, v - rr, u + rr, v + rr), fill=fill, outline=outline,
                          width=self.w(width) if outline else 0)

    def text(self, x, y, s, size: float, colour=INK, anchor="mm", bold=False, halo=None) -> None:
        font = _font(max(6, int(round(size * self.s))), bold)
        kw = {}
        if halo is not None:
            kw = {"stroke_width": max(1, int(round(0.05 * self.s))), "stroke_fill": halo}
        self.draw.text(self.pt(x, y), s, font=font, fill=colour, anchor=anchor, **kw)

    # ------------------------------------------------------------ layers
    def paint(self) -> None:
        self.paint_ground()
        self.paint_terrain()
        self.paint_hexsides()
        self.paint_links()
        self.paint_features()
        self.paint_obstacles()
        self.paint_areas()
        self.paint_lines()
        self.paint_grid()
        self.paint_labels()
        self.paint_frame()

    def region(self, pick) -> object:
        """Union of the sheet's hexes (and the copies just off its edge) for which ``pick(hex)`` holds."""
        polys = [self.layout.polygon(h) for h in self.hexes if pick(h)]
        polys += [self.layout.polygon(h) for h, src in self.ring.items() if pick(src)]
        return unary_union(polys) if polys else shapely.Polygon()

    def paint_ground(self) -> None:
        """Ground tinted by height, with a contour line at every change of elevation."""
        elev = self.board.elevation
        heights = sorted({elev.get(h, 0.0) for h in self.hexes})
        lo, hi = heights[0], heights[-1]
        span = (hi - lo) or 1.0
        self.fill(self.rect, _ground_colour(0.0))
        for level in heights[1:]:
            zone = _smooth(self.region(lambda h, L=level: elev.get(h, 0.0) >= L), 0.6)
            zone = _wobble(zone, 0.05, self.seed + int(level))
            self.fill(zone.intersection(self.rect), _ground_colour((level - lo) / span))
            self.stroke(zone.boundary.intersection(self.rect), CONTOUR, 0.04)

    def paint_terrain(self) -> None:
        terrain = self.board.terrain
        names = sorted({terrain.get(h) for h in self.hexes} - {None, "clear"},
                       key=lambda n: list(TERRAIN_STYLE).index(n) if n in TERRAIN_STYLE else 99)
        for name in names:
            style = TERRAIN_STYLE.get(name)
            hexes = [h for h in self.hexes if terrain.get(h) == name]
            if style is None:
                for h in hexes:
                    cx, cy = self.center(h)
                    self.text(cx, cy + 0.45, name, 0.2, colour=(90, 80, 70))
                continue
            colour, alpha, edge, smooth, wob = style
            zone = _smooth(self.region(lambda h: terrain.get(h) == name), smooth)
            zone = _wobble(zone, wob, self.seed + sum(map(ord, name)))
            inside = zone.intersection(self.rect)
            self.fill(inside, colour, alpha)
            if edge is not None:
                self.stroke(zone.boundary.intersection(self.rect), edge, 0.04)
            if name in ("lake", "sea"):
                ripple = zone.buffer(-0.14)
                self.stroke(ripple.boundary.intersection(self.rect), (96, 146, 196), 0.02)
            symbol = getattr(self, f"symbol_{name}", None)
            if symbol is not None:
                for h in hexes:
                    symbol(h)

    # ------------------------------------------------------------ terrain symbols
    def symbol_woods(self, h: Hex) -> None:
        rnd = self.rng("woods", h.q, h.r)
        cx, cy = self.center(h)
        crowns = []
        for _ in range(9):
            a, d = rnd.uniform(0, 2 * math.pi), 0.62 * math.sqrt(rnd.random())
            crowns.append((cy + d * math.sin(a), cx + d * math.cos(a), rnd.uniform(0.13, 0.2)))
        for y, x, r in sorted(crowns):
            self.disc(x + 0.02, y + 0.03, r, (70, 100, 50))
            self.disc(x, y, r, (92, 140, 66), outline=(48, 84, 38), width=0.02)
            self.disc(x - r * 0.3, y - r * 0.3, r * 0.38, (128, 172, 96))

    def symbol_forest(self, h: Hex) -> None:
        self.symbol_woods(h)

    def symbol_rough(self, h: Hex) -> None:
        rnd = self.rng("rough", h.q, h.r)
        cx, cy = self.center(h)
        for _ in range(16):
            a, d = rnd.uniform(0, 2 * math.pi), 0.7 * math.sqrt(rnd.random())
            self.disc(cx + d * math.cos(a), cy + d * math.sin(a), 0.025, (120, 92, 60))
        for _ in range(5):
            a, d = rnd.uniform(0, 2 * math.pi), 0.55 * math.sqrt(rnd.random())
            x, y = cx + d * math.cos(a), cy + d * math.sin(a)
            s = rnd.uniform(0.09, 0.14)
            self.polyline([(x - s, y + s * 0.5), (x - s * 0.2, y - s * 0.6), (x + s * 0.3, y - s * 0.1),
                           (x + s, y + s * 0.5)], (110, 82, 52), 0.025, caps=False)

    def _tufts(self, h: Hex, kind: str, colour, water) -> None:
        rnd = self.rng(kind, h.q, h.r)
        cx, cy = self.center(h)
        for _ in range(5):
            a, d = rnd.uniform(0, 2 * math.pi), 0.58 * math.sqrt(rnd.random())
            x, y = cx + d * math.cos(a), cy + d * math.sin(a)
            self.polyline([(x - 0.16, y + 0.02), (x + 0.16, y + 0.02)], water, 0.025)
            for k in range(-2, 3):
                ang = math.radians(24 * k)
                ln = 0.15 - 0.02 * abs(k)
                bx = x + 0.025 * k
                self.polyline([(bx, y), (bx + ln * math.sin(ang), y - ln * math.cos(ang))],
                              colour, 0.018, caps=False)

    def symbol_marsh(self, h: Hex) -> None:
        self._tufts(h, "marsh", (40, 104, 86), (82, 140, 190))

    def symbol_bog(self, h: Hex) -> None:
        rnd = self.rng("peat", h.q, h.r)
        cx, cy = self.center(h)
        for i in range(3):
            y = cy - 0.35 + 0.35 * i + rnd.uniform(-0.05, 0.05)
            x = cx + rnd.uniform(-0.25, 0.05)
            self.fill(box(x, y - 0.04, x + rnd.uniform(0.22, 0.38), y + 0.04), (112, 84, 56), 200)
        self._tufts(h, "bog", (70, 84, 40), (120, 96, 64))

    def _buildings(self, h: Hex, kind: str, n: int, spread: float, colour, edge) -> None:
        rnd = self.rng(kind, h.q, h.r)
        cx, cy = self.center(h)
        for _ in range(n):
            a, d = rnd.uniform(0, 2 * math.pi), spread * math.sqrt(rnd.random())
            x, y = cx + d * math.cos(a), cy + d * math.sin(a)
            bw, bh = rnd.uniform(0.1, 0.2), rnd.uniform(0.07, 0.13)
            rot = rnd.choice((0.0, 0.0, math.pi / 2, rnd.uniform(-0.4, 0.4)))
            block = shapely.affinity.rotate(box(x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2), rot,
                                            origin=(x, y), use_radians=True)
            self.fill(block, colour)
            self.stroke(block.exterior, edge, 0.012)

    def symbol_town(self, h: Hex) -> None:
        self._buildings(h, "town", 6, 0.55, (168, 82, 66), (96, 44, 36))

    def symbol_city(self, h: Hex) -> None:
        """City blocks on a street grid, a few lots left empty."""
        rnd = self.rng("city", h.q, h.r)
        cx, cy = self.center(h)
        for i in range(-2, 3):
            for j in range(-2, 3):
                x, y = cx + 0.27 * i + 0.06 * (j % 2), cy + 0.25 * j
                if math.hypot(x - cx, y - cy) > 0.68 or rnd.random() < 0.2:
                    continue
                bw, bh = rnd.uniform(0.13, 0.19), rnd.uniform(0.1, 0.16)
                block = box(x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)
                self.fill(block, (132, 62, 54))
                self.stroke(block.exterior, (72, 34, 30), 0.012)

    # ------------------------------------------------------------ hexsides
    def side_segments(self, feature: str) -> list[tuple[tuple, tuple]]:
        out = []
        for side, names in sorted(self.board.hexsides.items()):
            if feature in names and (side.a in self.on_sheet or side.b in self.on_sheet):
                a, b = self.layout.hexside_segment(side)
                out.append((_key(a), _key(b)))
        return out

    def paint_hexsides(self) -> None:
        names = sorted({n for v in self.board.hexsides.values() for n in v})
        for name in names:
            chains = _chains(self.side_segments(name))
            if name == "river":
                for c in chains:
                    self.polyline(c, WATER_EDGE, 0.17)
                for c in chains:
                    self.polyline(c, (104, 160, 214), 0.10)
            elif name in ("ditch", "at ditch"):
                for c in chains:
                    self.ditch(c)
            else:
                for c in chains:
                    self.polyline(c, (80, 80, 80), 0.06)

    def ditch(self, chain) -> None:
        """A ditch: a line with teeth on its west (or north) side."""
        colour = (104, 66, 36)
        self.polyline(chain, colour, 0.045)
        line = LineString(chain)
        n = int(line.length / 0.16)
        for i in range(n):
            p = line.interpolate((i + 0.5) * line.length / n)
            q = line.interpolate(min(line.length, (i + 0.5) * line.length / n + 0.01))
            dx, dy = q.x - p.x, q.y - p.y
            ln = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / ln, dx / ln
            if nx > 1e-9 or (abs(nx) <= 1e-9 and ny > 0):
                nx, ny = -nx, -ny
            self.polyline([(p.x, p.y), (p.x + 0.11 * nx, p.y + 0.11 * ny)], colour, 0.03, caps=False)

    # ------------------------------------------------------------ links
    def link_chains(self, kind: str) -> list[list[tuple]]:
        edges = []
        for side in sorted(self.board.links.get(kind, ())):
            if side.a in self.on_sheet or side.b in self.on_sheet:
                edges.append((_key(self.center(side.a)), _key(self.center(side.b))))
        return _chains(edges)

    def paint_links(self) -> None:
        kinds = sorted(self.board.links)
        for kind in kinds:
            chains = self.link_chains(kind)
            if kind == "road":
                self.bridges(kind, 0.13)
                for c in chains:
                    self.polyline(c, (92, 62, 40), 0.13)
                for c in chains:
                    self.polyline(c, (238, 186, 104), 0.075)
            elif kind == "railroad":
                self.bridges(kind, 0.1)
                for c in chains:
                    self.railroad(c)
            else:
                for c in chains:
                    self.polyline(c, (110, 90, 70), 0.05)

    def railroad(self, chain) -> None:
        line = LineString(chain)
        n = max(1, int(line.length / 0.17))
        for i in range(n + 1):
            d = i * line.length / n
            p = line.interpolate(d)
            q = line.interpolate(min(line.length, d + 0.01)) if d < line.length - 0.01 else line.interpolate(d - 0.01)
            dx, dy = (q.x - p.x, q.y - p.y) if d < line.length - 0.01 else (p.x - q.x, p.y - q.y)
            ln = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / ln * 0.09, dx / ln * 0.09
            self.polyline([(p.x - nx, p.y - ny), (p.x + nx, p.y + ny)], (30, 28, 26), 0.025, caps=False)
        self.polyline(chain, (30, 28, 26), 0.045)

    def bridges(self, kind: str, width: float) -> None:
        """A bridge where a link crosses a river hexside."""
        for side in sorted(self.board.links.get(kind, ())):
            if "river" not in self.board.hexsides.get(side, ()):
                continue
            (ax, ay), (bx, by) = self.center(side.a), self.center(side.b)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            dx, dy = (bx - ax) / SQRT3, (by - ay) / SQRT3
            nx, ny = -dy, dx
            deck = shapely.Polygon([(mx - 0.2 * dx + nx * k * (width * 0.5 + 0.04), my - 0.2 * dy + ny * k * (width * 0.5 + 0.04))
                                    for k in (-1, 1)] + [(mx + 0.2 * dx + nx * k * (width * 0.5 + 0.04), my + 0.2 * dy + ny * k * (width * 0.5 + 0.04))
                                                         for k in (1, -1)])
            self.fill(deck, (236, 230, 214))
            for k in (-1, 1):
                ox, oy = nx * k * (width * 0.5 + 0.05), ny * k * (width * 0.5 + 0.05)
                self.polyline([(mx - 0.28 * dx + ox + 0.08 * k * nx, my - 0.28 * dy + oy + 0.08 * k * ny),
                               (mx - 0.2 * dx + ox, my - 0.2 * dy + oy),
                               (mx + 0.2 * dx + ox, my + 0.2 * dy + oy),
                               (mx + 0.28 * dx + ox + 0.08 * k * nx, my + 0.28 * dy + oy + 0.08 * k * ny)],
                              INK, 0.04, caps=False)

    # ------------------------------------------------------------ hex features
    def paint_features(self) -> None:
        feats = self.board.features
        for h in self.hexes:
            for name in sorted(feats.get(h, ())):
                if name in ("trench", "wire"):
                    continue
                draw = getattr(self, f"feature_{name}", None)
                if draw is not None:
                    draw(h)
                else:
                    cx, cy = self.center(h)
                    self.text(cx, cy + 0.42, name, 0.18, colour=(90, 40, 30), halo=PAPER)
        for name, draw in (("wire", self.feature_wire), ("trench", self.feature_trench)):
            for h in self.hexes:
                if name in feats.get(h, ()):
                    draw(h)

    def _spokes(self, h: Hex, name: str) -> list[tuple[tuple, tuple]]:
        """Half-lines from the hex centre toward neighbours with the same feature (or across the hex)."""
        feats = self.board.features
        c = self.center(h)
        out = []
        for n in hex_neighbors(h):
            if name in feats.get(n, ()):
                nc = self.center(n)
                out.append((c, ((c[0] + nc[0]) / 2, (c[1] + nc[1]) / 2)))
        if len(out) == 1:
            out.append((c, (2 * c[0] - out[0][1][0], 2 * c[1] - out[0][1][1])))
        if not out:
            out = [((c[0] - 0.6, c[1]), c), (c, (c[0] + 0.6, c[1]))]
        return out

    def feature_trench(self, h: Hex) -> None:
        colour = (84, 56, 34)
        for a, b in self._spokes(h, "trench"):
            dx, dy = b[0] - a[0], b[1] - a[1]
            ln = math.hypot(dx, dy)
            n = max(2, int(ln / 0.09))
            nx, ny = -dy / ln, dx / ln
            pts = []
            for i in range(n + 1):
                t = i / n
                off = 0.0 if i in (0, n) else (0.06 if i % 2 else -0.06)
                pts.append((a[0] + dx * t + nx * off, a[1] + dy * t + ny * off))
            self.polyline(pts, (200, 176, 140), 0.09)
            self.polyline(pts, colour, 0.04)

    def feature_wire(self, h: Hex) -> None:
        colour = (40, 36, 32)
        for a, b in self._spokes(h, "wire"):
            self.polyline([a, b], colour, 0.02, caps=False)
            dx, dy = b[0] - a[0], b[1] - a[1]
            ln = math.hypot(dx, dy)
            n = max(1, int(ln / 0.16))
            for i in range(n):
                t = (i + 0.5) / n
                x, y = a[0] + dx * t, a[1] + dy * t
                s = 0.065
                self.polyline([(x - s, y - s), (x + s, y + s)], colour, 0.026, caps=False)
                self.polyline([(x - s, y + s), (x + s, y - s)], colour, 0.026, caps=False)

    def feature_fortification(self, h: Hex) -> None:
        cx, cy = self.center(h)
        star = []
        for i in range(10):
            r = 0.36 if i % 2 == 0 else 0.2
            a = math.radians(-90 + 36 * i)
            star.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        poly = shapely.Polygon(star)
        self.fill(poly, (150, 40, 36), 150)
        self.stroke(poly.exterior, (110, 24, 20), 0.035)

    def feature_airfield(self, h: Hex) -> None:
        cx, cy = self.center(h)
        for ang in (math.radians(20), math.radians(-40)):
            strip = shapely.affinity.rotate(box(cx - 0.72, cy - 0.08, cx + 0.72, cy + 0.08), ang,
                                            origin=(cx, cy), use_radians=True)
            self.fill(strip, (150, 148, 140))
            self.stroke(strip.exterior, (70, 68, 64), 0.015)
            d = (math.cos(ang), math.sin(ang))
            for k in range(-3, 4):
                x, y = cx + d[0] * 0.18 * k, cy + d[1] * 0.18 * k
                self.polyline([(x - d[0] * 0.05, y - d[1] * 0.05), (x + d[0] * 0.05, y + d[1] * 0.05)],
                              (245, 244, 238), 0.02, caps=False)

    def feature_mill(self, h: Hex) -> None:
        cx, cy = self.center(h)
        cy += 0.1
        body = box(cx - 0.12, cy - 0.1, cx + 0.12, cy + 0.2)
        self.fill(body, (168, 82, 66))
        self.stroke(body.exterior, INK, 0.02)
        hub = (cx, cy - 0.1)
        for a in (45, 135, 225, 315):
            r = math.radians(a)
            tip = (hub[0] + 0.3 * math.cos(r), hub[1] + 0.3 * math.sin(r))
            self.polyline([hub, tip], INK, 0.035)
        self.disc(hub[0], hub[1], 0.04, INK)

    # ------------------------------------------------------------ obstacles, areas, lines
    def paint_obstacles(self) -> None:
        for ob in self.board.obstacles:
            if ob.sheet not in (None, self.sheet.id):
                continue
            poly = ob.polygon()
            if ob.kind in ("woods", "forest", "orchard"):
                self.fill(poly, (58, 104, 46), 230)
                self.stroke(poly.exterior, (30, 62, 26), 0.03)
                rnd = self.rng("obstacle", *poly.centroid.coords[0])
                inner = poly.buffer(-0.1)
                x0, y0, x1, y1 = inner.bounds
                for _ in range(10):
                    x, y = rnd.uniform(x0, x1), rnd.uniform(y0, y1)
                    if inner.contains(shapely.Point(x, y)):
                        self.disc(x, y, 0.05, (96, 150, 72))
            elif ob.kind in ("building", "house", "wall"):
                self.fill(poly, (96, 40, 34))
                self.stroke(poly.exterior, INK, 0.02)
            else:
                self.fill(poly, (90, 90, 90), 160)
                self.stroke(poly.exterior, INK, 0.02)

    def paint_areas(self) -> None:
        for name in sorted(self.board.areas):
            area = self.board.areas[name]
            if area.kind == "town" or not (area.hexes & self.on_sheet):
                continue
            zone = unary_union([self.layout.polygon(h) for h in area.hexes if h in self.on_sheet])
            edge = (20, 90, 160)
            self.fill(zone.buffer(-0.08), edge, 28)
            for ring in _lines_of(zone.buffer(-0.08)):
                self.dashed(list(ring.coords), edge, 0.045, 0.16, 0.09)

    def paint_lines(self) -> None:
        styles = {"start": ((196, 26, 26), 0.075, 0.32, 0.14),
                  "perimeter": ((118, 36, 140), 0.06, 0.09, 0.09)}
        for name in sorted(self.board.lines):
            ln = self.board.lines[name]
            colour, width, dash, gap = styles.get(ln.kind, (INK, 0.05, 0.2, 0.1))
            edges = []
            for side in sorted(ln.hexsides):
                if side.a in self.on_sheet or side.b in self.on_sheet:
                    a, b = self.layout.hexside_segment(side)
                    edges.append((_key(a), _key(b)))
            for c in _chains(edges):
                self.dashed(c, colour, width, dash, gap)

    # ------------------------------------------------------------ grid, ids, labels, frame
    def paint_grid(self) -> None:
        grid = (70, 64, 56)
        wd = max(self.ss, int(round(GRID_WIDTH * self.s)))
        for h in self.hexes:
            corners = self.pts(self.layout.polygon_corners(h))
            self.draw.line(corners + [corners[0]], fill=grid, width=wd, joint="curve")
        for h in self.hexes:
            cx, cy = self.center(h)
            self.disc(cx, cy, 0.035, grid)
            top = cy - (SQRT3 / 2 if self.board.orientation == "flat" else 1.0)
            self.text(cx, top + 0.07, self.sheet.numbering.format(h), 0.2, colour=grid, anchor="mt")

    def paint_labels(self) -> None:
        for name in sorted(self.board.areas):
            area = self.board.areas[name]
            hexes = [h for h in area.hexes if h in self.on_sheet]
            if not hexes:
                continue
            xs, ys = zip(*(self.center(h) for h in hexes))
            if area.kind == "town":
                self.text(sum(xs) / len(xs), max(ys) + 0.62, name.upper(), 0.34, colour=INK,
                          bold=True, halo=(248, 244, 232))
            else:
                self.text(sum(xs) / len(xs), min(ys) - 0.5, name, 0.26, colour=(20, 70, 130),
                          bold=True, halo=(248, 244, 232))

    def paint_frame(self) -> None:
        x0, y0, x1, y1 = self.rect.bounds
        self.stroke(self.rect.exterior, INK, 0.05)
        self.stroke(self.rect.buffer(0.15, join_style="mitre").exterior, INK, 0.02)
        title = f"{self.board.name} — sheet {self.sheet.id}" if len(self.board.sheets) > 1 else self.board.name
        self.text(x0, y1 + 0.75, title.upper(), 0.42, bold=True, anchor="lm")
        right = x1
        for key in sorted(self.board.boxes, reverse=True):
            bx = self.board.boxes[key]
            frame = box(right - 4.2, y1 + 0.35, right, y1 + 1.15)
            self.fill(frame, (226, 218, 196))
            self.stroke(frame.exterior, INK, 0.03)
            self.text(right - 2.1, y1 + 0.75, bx.name, 0.28, bold=True)
            right -= 4.6


def _lines_of(geom) -> list:
    """The LineStrings of any geometry: its lines, or its polygons' rings."""
    if geom.is_empty:
        return []
    t = geom.geom_type
    if t == "LineString" or t == "LinearRing":
        return [geom]
    if t == "Polygon":
        return [geom.exterior, *geom.interiors]
    if hasattr(geom, "geoms"):
        out = []
        for g in geom.geoms:
            out += _lines_of(g)
        return out
    return []


__all__ = ["render_board", "render_sheet", "sheet_frame", "sheet_image_path", "SheetArt"]
