"""A sheet's drawing surface: lattice coordinates to supersampled pixels, and the strokes the art is made of."""
from __future__ import annotations

import random

import shapely
import shapely.ops
from PIL import Image, ImageDraw
from shapely.geometry import LineString

from engine.maps.board import Affine, Board, Sheet
from engine.maps.hexes import Hex
from engine.maps.art import shapes
from engine.maps.art.palette import INK, PAPER, font


class Canvas:
    """One sheet being drawn at ``ss`` times its final size; widths and sizes are in hex sizes."""

    def __init__(self, board: Board, sheet: Sheet, transform: Affine, size: tuple[int, int], ss: int, seed: int):
        self.board, self.sheet, self.t, self.ss, self.seed = board, sheet, transform, ss, seed
        self.s = transform.a * ss                      # supersampled pixels per hex size
        self.image = Image.new("RGB", (size[0] * ss, size[1] * ss), PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.layout = board.layout
        self.rect = shapes.printed_rect(board, sheet)
        self.hexes = sheet.hexes()
        self.on_sheet = set(self.hexes)
        self.ring = shapes.edge_ring(board, sheet)

    # ------------------------------------------------------------ coordinates
    def pt(self, x: float, y: float) -> tuple[float, float]:
        """Supersampled pixel of a lattice point (Pillow addresses pixel centres)."""
        u, v = self.t.apply(x, y)
        return (u * self.ss - 0.5, v * self.ss - 0.5)

    def pts(self, coords) -> list[tuple[float, float]]:
        return [self.pt(x, y) for x, y in coords]

    def px(self, width: float) -> int:
        """A width in hex sizes as whole supersampled pixels (at least one)."""
        return max(1, int(round(width * self.s)))

    def rng(self, *key) -> random.Random:
        """A generator seeded by the art's seed and a key, so each symbol is the same every time."""
        return random.Random(f"{self.seed}:" + ":".join(str(k) for k in key))

    def center(self, h: Hex) -> tuple[float, float]:
        return self.layout.hex_to_pixel(h)

    def region(self, pick):
        """The sheet's hexes (and those just off its edge) for which ``pick(hex)`` holds, as one shape."""
        hexes = [h for h in self.hexes if pick(h)] + [h for h, src in self.ring.items() if pick(src)]
        return shapes.hex_union(self.layout, hexes)

    # ------------------------------------------------------------ strokes
    def fill(self, geom, colour, alpha: int = 255) -> None:
        """Fill polygons (holes left open) with a colour at an opacity."""
        if geom.is_empty:
            return
        polys = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "Polygon" and not g.is_empty]
        if alpha == 255 and not any(p.interiors for p in polys):
            for poly in polys:
                self.draw.polygon(self.pts(poly.exterior.coords), fill=colour)
            return
        x0, y0, x1, y1 = geom.bounds
        (u0, v0), (u1, v1) = self.pt(x0, y0), self.pt(x1, y1)
        w, h = self.image.size
        bx0, by0 = max(0, int(u0) - 2), max(0, int(v0) - 2)
        bx1, by1 = min(w, int(u1) + 3), min(h, int(v1) + 3)
        if bx1 <= bx0 or by1 <= by0:
            return
        mask = Image.new("L", (bx1 - bx0, by1 - by0), 0)
        md = ImageDraw.Draw(mask)
        for poly in polys:
            md.polygon([(u - bx0, v - by0) for u, v in self.pts(poly.exterior.coords)], fill=alpha)
            for hole in poly.interiors:
                md.polygon([(u - bx0, v - by0) for u, v in self.pts(hole.coords)], fill=0)
        self.image.paste(colour, (bx0, by0, bx1, by1), mask)

    def stroke(self, geom, colour, width: float) -> None:
        """Draw the lines of a geometry, or its polygons' outlines."""
        for line in shapes.lines_of(geom):
            self.draw.line(self.pts(line.coords), fill=colour, width=self.px(width), joint="curve")

    def polyline(self, coords, colour, width: float, caps: bool = True) -> None:
        """A line through points, with round joints and (unless ``caps`` is false) round ends."""
        p = self.pts(coords)
        wd = self.px(width)
        self.draw.line(p, fill=colour, width=wd, joint="curve")
        if caps and wd > 2:
            r = wd / 2
            for u, v in (p[0], p[-1]):
                self.draw.ellipse((u - r, v - r, u + r, v + r), fill=colour)

    def dashed(self, coords, colour, width: float, dash: float, gap: float) -> None:
        """A dashed line through points; dashes follow the line round its corners."""
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
                          width=self.px(width) if outline else 0)

    def text(self, x, y, s, size: float, colour=INK, anchor="mm", bold=False, halo=None,
             halo_width: float = 0.05) -> None:
        """Text at a lattice point; ``halo`` outlines it in a colour so it reads over the art."""
        kw = {}
        if halo is not None:
            kw = {"stroke_width": max(1, int(round(halo_width * self.s))), "stroke_fill": halo}
        self.draw.text(self.pt(x, y), s, font=font(max(6, int(round(size * self.s))), bold),
                       fill=colour, anchor=anchor, **kw)
