"""A test set of scanned hex maps, drawn in a style of their own, each with its truth.

The set measures what digitising a scan finds (the grid, the terrain, the
hexside features) on pictures the project did not draw with its own map art
(``engine.maps.art``): every scan is made on the fly from a seed, so nothing
is committed as an image.  A scan is drawn as a printed sheet first (paper,
margins, a legend and a table, the map area with terrain fills and textures,
hexside lines, hex numbers, place names, counters laid on some hexes, a frame
that cuts the edge hexes in part), then "scanned": turned up to 3 degrees,
stretched along one axis up to 4 %, softened, given paper texture and noise,
and stored as JPEG at quality 60-95.

    scan = make_scan(7)                       # a seeded scan of the set
    scan.image                                # PIL.Image (RGB), the JPEG as decoded
    scan.map_toml                             # the truth as a map file (docs/map-format.md)
    scan.transform                            # lattice plane -> image pixels, six numbers
    scan.centres()                            # {hex id: (u, v)} of the hexes printed whole
    scan.write(folder)                        # the image and its map file, loadable by load_map

``hex_px`` is the distance between the centres of two neighbouring hexes (the
hex's width across its flat sides), the size a person measures on a scan.
Image points are in the map format's terms: pixel ``(i, j)`` covers
``[i, i+1) x [j, j+1)``, so its centre is ``(i + 0.5, j + 0.5)``.
"""
from __future__ import annotations

import io
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from engine.maps.board import Affine, Board, Sheet
from engine.maps.hexes import FLAT, POINTY, SQRT3, Hex, Layout, hexside
from engine.maps.mapfile import dumps_map
from engine.maps.numbering import NumberingScheme

SET_SIZE = 30                  # the scans of the test set are seeds 0 .. SET_SIZE-1 (more may be asked for)
HEX_PX = (30.0, 150.0)         # centre-to-centre distances drawn
MAX_ROTATION = 3.0             # degrees, either way
MAX_STRETCH = 0.04             # one image axis longer than the other by up to 4 %
JPEG_QUALITY = (60, 95)
HEXSIDE_FEATURES = ("river", "wall", "ridge")

# Terrain palettes: terrain -> (fill RGB, texture, texture RGB).  Textures: plain, dots (trees),
# stipple (rough ground), hatch (marsh), waves (water), blocks (town), contour (hills).
PALETTES: dict[str, dict[str, tuple[tuple[int, int, int], str, tuple[int, int, int]]]] = {
    "pastel": {
        "clear": ((236, 230, 200), "plain", (0, 0, 0)),
        "woods": ((170, 205, 150), "dots", (60, 110, 50)),
        "rough": ((215, 195, 160), "stipple", (120, 95, 60)),
        "marsh": ((200, 220, 210), "hatch", (70, 120, 130)),
        "hills": ((220, 200, 150), "contour", (150, 110, 60)),
        "lake": ((150, 190, 225), "waves", (70, 110, 170)),
        "town": ((225, 215, 205), "blocks", (110, 90, 90)),
    },
    "vivid": {
        "clear": ((245, 240, 215), "plain", (0, 0, 0)),
        "woods": ((70, 150, 70), "dots", (20, 80, 25)),
        "rough": ((190, 160, 110), "stipple", (90, 60, 30)),
        "marsh": ((140, 190, 170), "hatch", (30, 90, 90)),
        "hills": ((200, 160, 90), "contour", (120, 70, 20)),
        "lake": ((80, 140, 210), "waves", (30, 70, 150)),
        "town": ((200, 190, 190), "blocks", (90, 60, 60)),
    },
    "faded": {
        "clear": ((225, 222, 210), "plain", (0, 0, 0)),
        "woods": ((180, 195, 165), "dots", (110, 130, 100)),
        "rough": ((205, 195, 175), "stipple", (140, 125, 105)),
        "marsh": ((195, 205, 200), "hatch", (120, 140, 140)),
        "hills": ((210, 195, 170), "contour", (160, 130, 100)),
        "lake": ((175, 195, 215), "waves", (120, 140, 170)),
        "town": ((210, 205, 200), "blocks", (130, 120, 120)),
    },
    "olive": {
        "clear": ((215, 210, 170), "plain", (0, 0, 0)),
        "woods": ((120, 140, 80), "stipple", (60, 75, 35)),
        "rough": ((180, 165, 120), "dots", (110, 95, 60)),
        "marsh": ((160, 180, 150), "hatch", (80, 100, 80)),
        "hills": ((190, 170, 110), "contour", (120, 95, 50)),
        "lake": ((120, 160, 180), "waves", (60, 100, 130)),
        "town": ((170, 160, 150), "blocks", (70, 60, 55)),
    },
}
# how often each terrain is drawn (clear most)
TERRAIN_WEIGHTS = {"clear": 0.46, "woods": 0.2, "rough": 0.1, "marsh": 0.06, "hills": 0.1, "lake": 0.04, "town": 0.04}
LINE_COLOURS = ((20, 20, 20), (60, 55, 50), (80, 50, 30), (30, 40, 80), (90, 90, 90), (120, 115, 110))
PAPER_COLOURS = ((250, 248, 240), (245, 240, 225), (238, 236, 232), (250, 250, 250))
COUNTER_COLOURS = ((200, 60, 50), (70, 110, 170), (200, 170, 60), (120, 130, 90), (230, 230, 230))
PAGE_ON_SCAN = 0.965           # the page is scanned at this scale, so its edges show on the scanner's glass
SYLLABLES = ("ka", "lo", "vi", "sta", "ro", "mi", "dor", "ne", "pol", "tsa", "ber", "gu", "an", "sk", "ov")


@dataclass(frozen=True)
class ScanStyle:
    """Everything drawn at random for one scan (all derived from its seed)."""

    seed: int
    width: int
    height: int
    orientation: str
    hex_px: float               # centre-to-centre distance on the scan (before stretch)
    rotation: float             # degrees, anticlockwise on the image as seen
    stretch: float              # the image's vertical axis is (1 + stretch) times the horizontal
    jpeg_quality: int
    line_width: int
    line_rgb: tuple[int, int, int]
    palette: str
    numbering: str              # "classic" or "tcs"
    first_col: int
    first_row: int
    labels: bool                # hex numbers printed in each hex
    counters: int               # counters laid over hexes
    legend_side: str            # "bottom", "right" or "none"
    blur: float
    noise: float                # standard deviation of the grain, in grey levels
    paper_rgb: tuple[int, int, int]

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Scan:
    """One scan of the set and its truth.

    ``image``: the scan as decoded from its JPEG (RGB).  ``board``: the truth as
    a Board (one sheet ``A`` whose ``transform`` takes the lattice plane to this
    image's pixels).  ``map_toml``: that board as a map file naming
    ``image_name``.  ``terrain``: printed hex id -> terrain name for every hex of
    the sheet.  ``hexsides``: feature (``river``, ``wall``, ``ridge``) -> list of
    ``"ID/ID"`` hexsides.  ``whole``: ids of the hexes printed whole on the
    image (not cut by the frame or the image's edge, so their centres can be
    compared).  ``style``: the random choices made for it.
    """

    seed: int
    image: Image.Image
    board: Board
    map_toml: str
    image_name: str
    terrain: dict[str, str]
    hexsides: dict[str, list[str]]
    whole: list[str]
    style: ScanStyle
    map_area: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)   # the map's frame on the page, before the scan turned it
    links: dict[str, list[str]] = field(default_factory=dict)
    covered: list[str] = field(default_factory=list)   # ids of the hexes a counter was laid on (their terrain hidden)

    @property
    def sheet(self) -> Sheet:
        return self.board.sheets[0]

    @property
    def transform(self) -> tuple[float, ...]:
        """Lattice plane (hexes of size 1) to image pixels: ``[a, b, c, d, e, f]`` as in the map format."""
        return tuple(self.sheet.transform.as_list())

    def centre(self, hex_id: str) -> tuple[float, float]:
        """The image pixel of a hex's centre."""
        h = self.sheet.numbering.parse(hex_id)
        return self.sheet.transform.apply(*self.board.center(h))

    def centres(self, ids: list[str] | None = None) -> dict[str, tuple[float, float]]:
        """Image pixels of hex centres: of the hexes printed whole unless ``ids`` names others."""
        return {i: self.centre(i) for i in (self.whole if ids is None else ids)}

    def polygon(self, hex_id: str) -> list[tuple[float, float]]:
        """The six corners of a hex in image pixels."""
        h = self.sheet.numbering.parse(hex_id)
        return [self.sheet.transform.apply(x, y) for x, y in self.board.layout.polygon_corners(h)]

    def write(self, folder: str | Path, stem: str | None = None, image_format: str = "png") -> Path:
        """Write the image (``png``: the decoded JPEG without further loss, or ``jpg``) and its map file; returns the map's path."""
        from engine.fileio import atomic_write_bytes, atomic_write_text

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        stem = stem or f"scan-{self.seed:03d}"
        image_name = f"{stem}.{image_format}"
        buf = io.BytesIO()
        if image_format == "png":
            self.image.save(buf, format="PNG", compress_level=1)
        else:
            self.image.save(buf, format="JPEG", quality=self.style.jpeg_quality)
        atomic_write_bytes(folder / image_name, buf.getvalue())
        self.sheet.image = image_name
        self.image_name = image_name
        self.map_toml = dumps_map(self.board)
        path = folder / f"{stem}.toml"
        atomic_write_text(path, self.map_toml)
        return path


def scan_set(n: int = SET_SIZE, *, first: int = 0, **kw) -> list[Scan]:
    """Seeds ``first .. first+n-1`` of the set, made now."""
    return [make_scan(seed, **kw) for seed in range(first, first + n)]


# ---------------------------------------------------------------- drawing a scan

def choose_style(seed: int, *, width: int | None = None, height: int | None = None, hex_px: float | None = None,
                 orientation: str | None = None, **overrides) -> ScanStyle:
    """The random choices for a seed; any field may be fixed by a keyword (``rotation=0.0``)."""
    rng = np.random.default_rng([seed, 19])
    orient = orientation or (FLAT if rng.random() < 0.5 else POINTY)
    hpx = float(hex_px) if hex_px is not None else float(np.exp(rng.uniform(math.log(HEX_PX[0]), math.log(HEX_PX[1]))))
    across = rng.uniform(11, 24)
    if width is None:
        width = int(min(3000, max(720, hpx * across + 160)))
    if height is None:
        height = int(width * rng.uniform(0.62, 0.85))
    labels = hpx >= 42 and rng.random() < 0.75
    style = dict(
        seed=seed, width=int(width), height=int(height), orientation=orient, hex_px=round(hpx, 3),
        rotation=round(float(rng.uniform(-MAX_ROTATION, MAX_ROTATION)), 4),
        stretch=round(float(rng.uniform(-MAX_STRETCH, MAX_STRETCH)), 5),
        jpeg_quality=int(rng.integers(JPEG_QUALITY[0], JPEG_QUALITY[1] + 1)),
        line_width=int(rng.choice([1, 1, 2, 2, 3])) if hpx >= 45 else int(rng.choice([1, 1, 2])),
        line_rgb=tuple(int(c) for c in LINE_COLOURS[int(rng.integers(len(LINE_COLOURS)))]),
        palette=str(rng.choice(sorted(PALETTES))),
        numbering="classic" if rng.random() < 0.6 else "tcs",
        first_col=int(rng.choice([1, 1, 1, 0, 5, 12])), first_row=int(rng.choice([1, 1, 1, 0, 3])),
        labels=bool(labels),
        counters=int(rng.integers(0, 12)),
        legend_side=str(rng.choice(["bottom", "right", "none", "bottom"])),
        blur=round(float(rng.uniform(0.3, 1.0)), 3),
        noise=round(float(rng.uniform(1.0, 7.0)), 3),
        paper_rgb=tuple(int(c) for c in PAPER_COLOURS[int(rng.integers(len(PAPER_COLOURS)))]),
    )
    style.update(overrides)
    return ScanStyle(**style)


def make_scan(seed: int, *, width: int | None = None, height: int | None = None, **fixed) -> Scan:
    """The scan of ``seed`` and its truth.

    ``width``/``height``: the image's size in pixels (default: about 11-24 hexes
    across, 720-3000 pixels wide).  Any field of :class:`ScanStyle` may be fixed
    by keyword (``hex_px=60``, ``orientation="pointy"``, ``rotation=0.0``,
    ``line_rgb=(200, 200, 200)`` for a faint grid, ``jpeg_quality=60``); the rest
    is drawn from the seed, so the same arguments always give the same scan.
    """
    style = choose_style(seed, width=width, height=height, **fixed)
    return _Painter(style).paint()


class _Painter:
    def __init__(self, style: ScanStyle):
        self.st = style
        self.rng = np.random.default_rng([style.seed, 7])
        self.pal = PALETTES[style.palette]
        # the page is drawn with regular hexes a little larger than on the scan, which shrinks it to
        # PAGE_ON_SCAN of its size (so a turned page stays on the scanner's glass) and turns and stretches it
        W, H = self.page_size = (int(style.width / PAGE_ON_SCAN), int(style.height / PAGE_ON_SCAN))
        self.s = style.hex_px / SQRT3 / PAGE_ON_SCAN            # centre to corner, page pixels
        self.layout = Layout(style.orientation, 1.0, (0.0, 0.0))
        rng = self.rng
        m = [rng.uniform(0.015, 0.05) * W for _ in range(4)]   # left, top, right, bottom margins
        x0, y0, x1, y1 = m[0], m[1], W - m[2], H - m[3]
        if style.legend_side == "bottom":
            y1 -= rng.uniform(0.12, 0.2) * H
        elif style.legend_side == "right":
            x1 -= rng.uniform(0.12, 0.2) * W
        self.area = (float(x0), float(y0), float(x1), float(y1))
        self.font_px = max(8, int(style.hex_px * 0.2))

    # ------------------------------------------------------------ geometry
    def page_point(self, x: float, y: float) -> tuple[float, float]:
        """Where to draw a lattice point on the page.  Pillow truncates drawing coordinates to whole pixels, so
        half a pixel is added to make it round them instead (the truth is exact, in pixel-centre terms)."""
        return (self.s * x + self.o[0] + 0.5, self.s * y + self.o[1] + 0.5)

    def hex_page_centre(self, h: Hex) -> tuple[float, float]:
        return self.page_point(*self.layout.hex_to_pixel(h))

    def hex_page_corners(self, h: Hex) -> list[tuple[float, float]]:
        return [self.page_point(x, y) for x, y in self.layout.polygon_corners(h)]

    def make_sheet(self) -> NumberingScheme:
        st, rng, s = self.st, self.rng, self.s
        hpx = s * SQRT3                    # centre to centre on the page
        x0, y0, x1, y1 = self.area
        first_shifted = bool(rng.random() < 0.5)
        ex, ey = rng.uniform(0.2, 0.8) * s, rng.uniform(0.2, 0.8) * s
        keep = 0.12 * s
        if st.orientation == FLAT:
            cols = 1 + int((x1 - x0 - ex - keep) // (1.5 * s))
            rows = 1 + int((y1 - y0 - ey - keep - hpx / 2) // hpx)
            first_shifted_units = st.first_col
        else:
            rows = 1 + int((y1 - y0 - ey - keep) // (1.5 * s))
            cols = 1 + int((x1 - x0 - ex - keep - hpx / 2) // hpx)
            first_shifted_units = st.first_row
        style = st.numbering
        if style == "classic" and (st.first_col + cols > 100 or st.first_row + rows > 100):
            style = "tcs"
        shifted = "even" if (first_shifted_units % 2 == 0) == first_shifted else "odd"
        ns = NumberingScheme(style=style, sheet="A", orientation=st.orientation,
                             first_col=st.first_col, first_row=st.first_row, cols=max(cols, 2), rows=max(rows, 2),
                             shifted=shifted, origin=(0, 0))
        pts = np.array([self.layout.hex_to_pixel(h) for h in ns.hexes()])
        mn = pts.min(axis=0)
        self.o = (x0 + ex - s * mn[0], y0 + ey - s * mn[1])
        return ns

    def drawn_hexes(self, start: Hex) -> list[Hex]:
        """Every lattice hex that shows (in part) inside the map area, found outwards from a hex inside it."""
        from engine.maps.hexes import hex_neighbors

        x0, y0, x1, y1 = self.area
        seen = {start}
        todo = [start]
        while todo:
            h = todo.pop()
            for n in hex_neighbors(h):
                if n in seen:
                    continue
                cx, cy = self.hex_page_centre(n)
                if x0 - self.s < cx < x1 + self.s and y0 - self.s < cy < y1 + self.s:
                    seen.add(n)
                    todo.append(n)
        return sorted(seen)

    # ------------------------------------------------------------ truth content
    def lay_terrain(self, hexes: list[Hex]) -> dict[Hex, str]:
        rng = self.rng
        names = list(TERRAIN_WEIGHTS)
        w = np.array([TERRAIN_WEIGHTS[n] for n in names])
        seeds_n = max(6, len(hexes) // 9)
        seed_hexes = [hexes[int(i)] for i in rng.integers(0, len(hexes), seeds_n)]
        seed_kind = [names[int(i)] for i in rng.choice(len(names), seeds_n, p=w / w.sum())]
        sx = np.array([self.layout.hex_to_pixel(h) for h in seed_hexes])
        out = {}
        for h in hexes:
            p = np.array(self.layout.hex_to_pixel(h)) + rng.normal(0, 0.9, 2)
            d = np.hypot(*(sx - p).T)
            out[h] = seed_kind[int(np.argmin(d))]
        return out

    def lay_hexsides(self, hexes: set[Hex]) -> dict[str, set]:
        """Rivers, walls and ridges as walks along hexsides (corner to corner)."""
        rng, lay = self.rng, self.layout
        out: dict[str, set] = {}
        area_hexes = sorted(hexes)
        n_walks = {"river": int(rng.integers(1, 4)), "wall": int(rng.integers(0, 3)), "ridge": int(rng.integers(0, 3))}
        for feature, n in n_walks.items():
            for _ in range(n):
                h = area_hexes[int(rng.integers(len(area_hexes)))]
                corner = np.array(lay.polygon_corners(h)[int(rng.integers(6))])
                heading = rng.uniform(0, 2 * math.pi)
                prev = None
                length = int(rng.integers(4, 26 if feature == "river" else 10))
                for _ in range(length):
                    # the three corners one side away; go on the way the walk heads, with a wobble
                    nbrs = [corner + np.array([math.cos(a), math.sin(a)]) for a in
                            [math.radians((0 if lay.orientation == FLAT else 30) + 60 * i) for i in range(6)]]
                    nbrs = [p for p in nbrs if _is_corner(lay, p)]
                    if prev is not None:
                        nbrs = [p for p in nbrs if np.hypot(*(p - prev)) > 1e-6]
                    heading += rng.normal(0, 0.5)
                    dirv = np.array([math.cos(heading), math.sin(heading)])
                    nxt = max(nbrs, key=lambda p: float((p - corner) @ dirv))
                    mid = (corner + nxt) / 2
                    normal = np.array([-(nxt - corner)[1], (nxt - corner)[0]])
                    a = lay.pixel_to_hex(*(mid + normal * 0.5))
                    b = lay.pixel_to_hex(*(mid - normal * 0.5))
                    if a in hexes and b in hexes:
                        out.setdefault(feature, set()).add(hexside(a, b))
                    prev, corner = corner, nxt
        return out

    # ------------------------------------------------------------ painting
    def paint(self) -> Scan:
        st, rng = self.st, self.rng
        W, H = self.page_size
        ns = self.make_sheet()
        sheet_hexes = set(ns.hexes())
        drawn = self.drawn_hexes(ns.hexes()[0])
        terrain = self.lay_terrain(drawn)
        sides = self.lay_hexsides(set(drawn))
        page = Image.new("RGB", (W, H), st.paper_rgb)
        d = ImageDraw.Draw(page)
        # terrain fills and textures
        for h in drawn:
            fill, texture, ink = self.pal[terrain[h]]
            jitter = rng.integers(-6, 7, 3)
            fill = tuple(int(np.clip(c + j, 0, 255)) for c, j in zip(fill, jitter))
            poly = self.hex_page_corners(h)
            d.polygon(poly, fill=fill)
            self.texture(d, h, poly, texture, ink)
        # hex lines
        lw, lc = st.line_width, st.line_rgb
        for h in drawn:
            poly = self.hex_page_corners(h)
            for i in range(3):
                d.line([poly[i], poly[i + 1]], fill=lc, width=lw)
            d.line([poly[3], poly[4], poly[5], poly[0]], fill=lc, width=lw)
        # hexside features over the lines
        for feature, ss in sides.items():
            for side in ss:
                a, b = self.layout.hexside_segment(side)
                self.hexside_line(d, self.page_point(*a), self.page_point(*b), feature)
        links = self.road(d, drawn, terrain)
        if st.labels:
            self.hex_numbers(d, ns)
        self.place_names(d, drawn, terrain)
        self.covered: set[Hex] = set()
        self.counters(d, sorted(sheet_hexes))
        self.margins(d, page)
        # the scan: turn and stretch about the page centre, soften, grain, JPEG
        th = math.radians(st.rotation)
        # scan = K * R * z * (page - c) + c_scan + shift; a positive rotation turns the picture anticlockwise
        # as seen (y down)
        R = np.array([[math.cos(th), math.sin(th)], [-math.sin(th), math.cos(th)]])
        K = np.diag([1.0, 1.0 + st.stretch])
        M = K @ R * PAGE_ON_SCAN
        Mi = np.linalg.inv(M)
        c = np.array([W / 2.0, H / 2.0])
        c_scan = np.array([st.width / 2.0, st.height / 2.0]) + rng.uniform(-0.008, 0.008, 2) * np.array([st.width, st.height])
        t_in = c - Mi @ c_scan
        scan = page.transform((st.width, st.height), Image.Transform.AFFINE,
                              data=(Mi[0, 0], Mi[0, 1], t_in[0], Mi[1, 0], Mi[1, 1], t_in[1]),
                              resample=Image.Resampling.BICUBIC, fillcolor=(252, 252, 252))
        page = None
        if st.blur > 0:
            scan = scan.filter(ImageFilter.GaussianBlur(st.blur))
        scan = self.grain(scan)
        buf = io.BytesIO()
        scan.save(buf, format="JPEG", quality=st.jpeg_quality)
        image = Image.open(io.BytesIO(buf.getvalue()))
        image.load()
        image = image.convert("RGB")
        # the truth: lattice -> page -> scan
        Lp = np.array([[self.s, 0.0], [0.0, self.s]])
        A = M @ Lp
        # pixel-centre terms so far; the map format counts from pixels' corners (a pixel's centre is at +0.5)
        tt = M @ (np.array(self.o) - c) + c_scan + 0.5
        transform = Affine(float(A[0, 0]), float(A[0, 1]), float(tt[0]), float(A[1, 0]), float(A[1, 1]), float(tt[1]))
        return self.truth(image, ns, transform, terrain, sides, links)

    def truth(self, image, ns, transform, terrain, sides, links) -> Scan:
        st = self.st
        image_name = f"scan-{st.seed:03d}.jpg"
        board = Board(name=f"Test scan {st.seed}", orientation=st.orientation,
                      sheets=[Sheet("A", ns, image_name, transform)])
        board.invalidate()
        sheet_hexes = set(ns.hexes())
        codes = {"clear": "c", "woods": "w", "rough": "r", "marsh": "m", "hills": "h", "lake": "l", "town": "t"}
        board.legend = {codes[n]: n for n in TERRAIN_WEIGHTS}
        board.terrain = {h: terrain[h] for h in sheet_hexes}
        for feature, ss in sides.items():
            for side in ss:
                if side.a in sheet_hexes and side.b in sheet_hexes:
                    board.hexsides.setdefault(side, set()).add(feature)
        road = {s for s in links if s.a in sheet_hexes and s.b in sheet_hexes}
        if road:
            board.links["road"] = road
        board.notes = (f"Test scan {st.seed} of the digitising set: {st.orientation} hexes {st.hex_px:.1f} px apart, "
                       f"turned {st.rotation:+.2f} degrees, stretched {st.stretch * 100:+.2f} %, JPEG quality {st.jpeg_quality}.")
        W, H = image.size
        x0, y0, x1, y1 = self.area
        whole = []
        for h in ns.hexes():
            page_poly = self.hex_page_corners(h)
            if not all(x0 + 1 <= x <= x1 - 1 and y0 + 1 <= y <= y1 - 1 for x, y in page_poly):
                continue
            img_poly = [transform.apply(x, y) for x, y in self.layout.polygon_corners(h)]
            if all(1 <= u <= W - 2 and 1 <= v <= H - 2 for u, v in img_poly):
                whole.append(ns.format(h))
        hs: dict[str, list[str]] = {}
        for side, feats in board.hexsides.items():
            for f in feats:
                hs.setdefault(f, []).append(f"{ns.format(side.a)}/{ns.format(side.b)}")
        for f in hs:
            hs[f].sort()
        return Scan(seed=st.seed, image=image, board=board, map_toml=dumps_map(board), image_name=image_name,
                    terrain={ns.format(h): terrain[h] for h in ns.hexes()}, hexsides=hs, whole=whole, style=st,
                    map_area=self.area, links={"road": sorted(f"{ns.format(s.a)}/{ns.format(s.b)}" for s in road)} if road else {},
                    covered=sorted(ns.format(h) for h in self.covered))

    def texture(self, d: ImageDraw.ImageDraw, h: Hex, poly, texture: str, ink) -> None:
        rng, s = self.rng, self.s
        cx, cy = self.hex_page_centre(h)
        if texture == "dots":
            n = int(rng.integers(6, 14))
            for _ in range(n):
                px, py = _in_hex(rng, cx, cy, s * 0.85)
                r = max(1.5, s * rng.uniform(0.08, 0.16))
                d.ellipse([px - r, py - r, px + r, py + r], fill=ink)
        elif texture == "stipple":
            n = int(rng.integers(15, 35))
            for _ in range(n):
                px, py = _in_hex(rng, cx, cy, s * 0.9)
                r = max(0.8, s * 0.03)
                d.ellipse([px - r, py - r, px + r, py + r], fill=ink)
        elif texture == "hatch":
            step = max(3.0, s * 0.18)
            y = cy - s + step / 2
            while y < cy + s:
                seg = _hline_in_polygon(poly, y)
                if seg:
                    a, b = seg
                    d.line([(a + step * 0.3, y), (b - step * 0.3, y)], fill=ink, width=1)
                y += step
        elif texture == "waves":
            step = max(4.0, s * 0.3)
            y = cy - s * 0.6
            while y < cy + s * 0.7:
                seg = _hline_in_polygon(poly, y)
                if seg:
                    a, b = seg
                    xs = np.linspace(a + 2, b - 2, 8)
                    pts = [(float(x), float(y + math.sin(x * 0.3) * step * 0.15)) for x in xs]
                    d.line(pts, fill=ink, width=1)
                y += step
        elif texture == "blocks":
            for _ in range(int(rng.integers(2, 6))):
                px, py = _in_hex(rng, cx, cy, s * 0.55)
                w, hh = s * rng.uniform(0.12, 0.3), s * rng.uniform(0.12, 0.3)
                d.rectangle([px - w / 2, py - hh / 2, px + w / 2, py + hh / 2], fill=ink)
        elif texture == "contour":
            r = s * rng.uniform(0.35, 0.6)
            ox, oy = rng.normal(0, s * 0.12, 2)
            d.ellipse([cx + ox - r, cy + oy - r * 0.8, cx + ox + r, cy + oy + r * 0.8], outline=ink, width=max(1, int(s * 0.04)))

    def hexside_line(self, d, a, b, feature: str) -> None:
        s = self.s
        if feature == "river":
            w = max(2, int(s * rng_choice(self.rng, (0.12, 0.18, 0.25))))
            mid = ((a[0] + b[0]) / 2 + self.rng.normal(0, s * 0.04), (a[1] + b[1]) / 2 + self.rng.normal(0, s * 0.04))
            d.line([a, mid, b], fill=(50, 100, 200), width=w, joint="curve")
        elif feature == "wall":
            d.line([a, b], fill=(40, 40, 40), width=max(2, int(s * 0.06)))
            n = 4
            for i in range(1, n):
                px, py = a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n
                r = max(1.5, s * 0.05)
                d.rectangle([px - r, py - r, px + r, py + r], fill=(40, 40, 40))
        else:  # ridge: a brown line with short hachures on one side
            d.line([a, b], fill=(130, 80, 30), width=max(2, int(s * 0.08)))
            dx, dy = b[0] - a[0], b[1] - a[1]
            ln = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / ln, dx / ln
            for i in range(1, 5):
                px, py = a[0] + dx * i / 5, a[1] + dy * i / 5
                d.line([(px, py), (px + nx * s * 0.18, py + ny * s * 0.18)], fill=(130, 80, 30), width=max(1, int(s * 0.04)))

    def road(self, d, drawn: list[Hex], terrain) -> set:
        """A road from hex centre to hex centre across the map (a line that is not a hexside)."""
        rng = self.rng
        if rng.random() < 0.3 or len(drawn) < 10:
            return set()
        hs = set(drawn)
        h = drawn[int(rng.integers(len(drawn)))]
        direction = int(rng.integers(6))
        path = [h]
        from engine.maps.hexes import hex_neighbor
        for _ in range(int(rng.integers(6, 30))):
            direction = (direction + int(rng.choice([-1, 0, 0, 0, 1]))) % 6
            n = hex_neighbor(path[-1], direction)
            if n not in hs:
                break
            path.append(n)
        pts = [self.hex_page_centre(x) for x in path]
        if len(pts) > 1:
            d.line(pts, fill=(170, 60, 40), width=max(2, int(self.s * 0.1)), joint="curve")
        return {hexside(a, b) for a, b in zip(path, path[1:])}

    def hex_numbers(self, d, ns: NumberingScheme) -> None:
        font = ImageFont.load_default(size=self.font_px)
        for h in ns.hexes():
            cx, cy = self.hex_page_centre(h)
            text = ns.format(h)
            if ns.style == "tcs":
                text = text[1:]
            d.text((cx, cy - self.s * 0.62), text, fill=(40, 40, 40), font=font, anchor="mt")

    def place_names(self, d, drawn, terrain) -> None:
        rng = self.rng
        font = ImageFont.load_default(size=max(10, int(self.font_px * 1.4)))
        for h in [x for x in drawn if terrain[x] == "town"][:6]:
            name = "".join(rng.choice(SYLLABLES) for _ in range(int(rng.integers(2, 4)))).capitalize()
            cx, cy = self.hex_page_centre(h)
            d.text((cx, cy + self.s * 0.3), name, fill=(10, 10, 10), font=font, anchor="mm")

    def counters(self, d, hexes: list[Hex]) -> None:
        rng = self.rng
        font = ImageFont.load_default(size=max(8, int(self.s * 0.3)))
        for _ in range(self.st.counters):
            h = hexes[int(rng.integers(len(hexes)))]
            self.covered.add(h)
            cx, cy = self.hex_page_centre(h)
            cx += rng.normal(0, self.s * 0.08)
            cy += rng.normal(0, self.s * 0.08)
            a = self.s * 0.62
            colour = COUNTER_COLOURS[int(rng.integers(len(COUNTER_COLOURS)))]
            d.rectangle([cx - a + 3, cy - a + 3, cx + a + 3, cy + a + 3], fill=(60, 60, 60))
            d.rectangle([cx - a, cy - a, cx + a, cy + a], fill=colour, outline=(20, 20, 20), width=1)
            bw, bh = a * 0.7, a * 0.45
            d.rectangle([cx - bw, cy - a * 0.7, cx + bw, cy - a * 0.7 + 2 * bh], outline=(20, 20, 20), width=max(1, int(a * 0.06)))
            d.line([(cx - bw, cy - a * 0.7), (cx + bw, cy - a * 0.7 + 2 * bh)], fill=(20, 20, 20), width=max(1, int(a * 0.05)))
            d.line([(cx - bw, cy - a * 0.7 + 2 * bh), (cx + bw, cy - a * 0.7)], fill=(20, 20, 20), width=max(1, int(a * 0.05)))
            d.text((cx, cy + a * 0.55), f"{int(rng.integers(1, 9))}-{int(rng.integers(1, 9))}-{int(rng.integers(3, 9))}",
                   fill=(10, 10, 10), font=font, anchor="mm")

    def margins(self, d, page: Image.Image) -> None:
        """Paper outside the map's frame: the frame, a title, and a legend with a table and a track."""
        st, rng = self.st, self.rng
        W, H = self.page_size
        x0, y0, x1, y1 = self.area
        paper = st.paper_rgb
        d.rectangle([0, 0, W, y0], fill=paper)
        d.rectangle([0, y1, W, H], fill=paper)
        d.rectangle([0, 0, x0, H], fill=paper)
        d.rectangle([x1, 0, W, H], fill=paper)
        d.rectangle([x0, y0, x1, y1], outline=(20, 20, 20), width=max(2, st.line_width + 1))
        d.rectangle([x0 - 5, y0 - 5, x1 + 5, y1 + 5], outline=(20, 20, 20), width=1)
        if st.legend_side == "none":
            return
        if st.legend_side == "bottom":
            lx0, ly0, lx1, ly1 = x0, y1 + 12, x1, H - 8
        else:
            lx0, ly0, lx1, ly1 = x1 + 12, y0, W - 8, y1
        if lx1 - lx0 < 40 or ly1 - ly0 < 40:
            return
        size = max(10, min(int((ly1 - ly0) / 7), int((lx1 - lx0) / 12), 28))
        font = ImageFont.load_default(size=size)
        title = "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize() + " " + str(int(rng.integers(1939, 1946)))
        d.text((lx0 + 4, ly0 + 2), title, fill=(20, 20, 20), font=font)
        y = ly0 + size * 1.8
        x = lx0 + 4
        for name, (fill, _, ink) in self.pal.items():
            if y + size > ly1 or x + size * 6 > lx1:
                break
            d.rectangle([x, y, x + size, y + size], fill=fill, outline=(20, 20, 20))
            d.text((x + size * 1.4, y), name, fill=(20, 20, 20), font=font)
            if st.legend_side == "bottom":
                x += size * 7
                if x + size * 6 > lx1:
                    x, y = lx0 + 4, y + size * 1.5
            else:
                y += size * 1.5
        # a table of numbers in ruled cells (a terrain effects chart) and a turn track
        cell_w, cell_h = size * 2.4, size * 1.4
        tx0 = lx0 + 4 if st.legend_side == "right" else lx1 - cell_w * 6 - 4
        ty0 = y + size * 2 if st.legend_side == "right" else ly0 + size * 1.8
        for r in range(4):
            for c in range(6):
                bx, by = tx0 + c * cell_w, ty0 + r * cell_h
                if bx + cell_w > lx1 or by + cell_h > ly1:
                    continue
                d.rectangle([bx, by, bx + cell_w, by + cell_h], outline=(30, 30, 30), width=1)
                d.text((bx + cell_w / 2, by + cell_h / 2), str(int(rng.integers(0, 7))), fill=(20, 20, 20), font=font, anchor="mm")
        track_y = ly1 - cell_h * 1.3
        for i in range(12):
            bx = lx0 + 4 + i * cell_h * 1.2
            if bx + cell_h > lx1 or track_y < ty0 + 4 * cell_h:
                break
            d.rectangle([bx, track_y, bx + cell_h, track_y + cell_h], outline=(30, 30, 30), width=2)
            d.text((bx + cell_h / 2, track_y + cell_h / 2), str(i + 1), fill=(20, 20, 20), font=font, anchor="mm")

    def grain(self, im: Image.Image) -> Image.Image:
        """Paper texture (slow shading) and grain (a tiled noise) added in bands, to keep memory small."""
        rng = self.rng
        W, H = im.size
        small = rng.normal(0.0, 4.0, (max(2, H // 200), max(2, W // 200))).astype(np.float32)
        shade_img = Image.fromarray(small, mode="F").resize((W, H), Image.Resampling.BICUBIC)
        tile = rng.normal(0.0, self.st.noise, (256, 256)).astype(np.float32)
        arr = np.asarray(im)
        out = np.empty_like(arr)
        band = 512
        for y in range(0, H, band):
            yy = min(H, y + band)
            shade = np.asarray(shade_img.crop((0, y, W, yy)))
            reps = (int(math.ceil((yy - y) / 256)) + 1, int(math.ceil(W / 256)))
            noise = np.tile(tile, reps)[(y % 256):(y % 256) + (yy - y), :W]
            add = (shade + noise)[:, :, None]
            out[y:yy] = np.clip(arr[y:yy].astype(np.float32) + add, 0, 255).astype(np.uint8)
        return Image.fromarray(out, "RGB")


def rng_choice(rng, options):
    return options[int(rng.integers(len(options)))]


def _is_corner(lay: Layout, p) -> bool:
    """Whether a point of the lattice plane is a hex corner (one side from the centre of some hex)."""
    h = lay.pixel_to_hex(float(p[0]), float(p[1]))
    for c in lay.polygon_corners(h):
        if abs(c[0] - p[0]) < 1e-6 and abs(c[1] - p[1]) < 1e-6:
            return True
    return False


def _in_hex(rng, cx: float, cy: float, radius: float) -> tuple[float, float]:
    """A random point within ``radius`` of a centre (inside the hex's inscribed circle and a bit more)."""
    a = rng.uniform(0, 2 * math.pi)
    r = radius * math.sqrt(rng.uniform(0, 1)) * SQRT3 / 2
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _hline_in_polygon(poly, y: float):
    """Where a horizontal line crosses a convex polygon: ``(x_left, x_right)`` or None."""
    xs = []
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        if (ay - y) * (by - y) <= 0 and ay != by:
            xs.append(ax + (y - ay) * (bx - ax) / (by - ay))
    if len(xs) < 2:
        return None
    return min(xs), max(xs)


__all__ = ["Scan", "ScanStyle", "make_scan", "scan_set", "choose_style", "SET_SIZE", "PALETTES", "HEXSIDE_FEATURES",
           "HEX_PX", "MAX_ROTATION", "MAX_STRETCH", "JPEG_QUALITY"]
