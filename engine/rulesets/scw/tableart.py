"""Drawing a gridless table's image with Pillow: ground, buildings, copses, crests, walls, base lines, inch marks.

``python -m engine.rulesets.scw.tableart maps/scw-table.toml`` writes the
image the table file names (atomically).
"""
from __future__ import annotations

import io
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter
from shapely.geometry import Point

from ...fileio import atomic_write_bytes
from engine.maps.table import Table, load_table

GROUND = (196, 178, 128)
COLOURS = {
    "building": ((172, 150, 128), (96, 70, 52)),
    "copse": ((92, 122, 64), (58, 84, 40)),
    "crest": ((176, 150, 96), (126, 100, 60)),
    "wall": ((150, 146, 138), (90, 86, 80)),
    "field": ((206, 192, 120), (160, 146, 84)),
    "road": ((214, 200, 160), (170, 150, 110)),
}
BASE_LINE = (150, 40, 30)
MARK = (110, 96, 64)


def render_table(table: Table, seed: int = 1936) -> Image.Image:
    """The table's picture at its ``pixels_per_inch`` (the same table always gives the same pixels)."""
    ppi = table.pixels_per_inch
    w, h = int(round(table.width * ppi)), int(round(table.height * ppi))
    rng = random.Random(seed)
    img = Image.new("RGB", (w, h), GROUND)
    d = ImageDraw.Draw(img)
    for _ in range(int(table.width * table.height / 6)):  # scrub and stones on the dry ground
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.2) * ppi
        tone = rng.randint(-18, 12)
        d.ellipse((x - r, y - r, x + r, y + r), fill=tuple(max(0, min(255, c + tone)) for c in GROUND))
    img = img.filter(ImageFilter.GaussianBlur(radius=max(1.0, ppi / 12)))
    d = ImageDraw.Draw(img)
    for piece in table.pieces:
        fill, edge = COLOURS.get(piece.kind, COLOURS["field"])
        pts = [(x * ppi, y * ppi) for x, y in piece.polygon.exterior.coords]
        if piece.kind == "crest":  # a rise drawn as nested contours
            for k in range(4):
                inner = piece.polygon.buffer(-k * 0.6)
                if inner.is_empty or inner.geom_type != "Polygon":
                    break
                shade = tuple(max(0, c - 10 * k) for c in fill)
                d.polygon([(x * ppi, y * ppi) for x, y in inner.exterior.coords], fill=shade, outline=edge)
            continue
        d.polygon(pts, fill=fill, outline=edge, width=max(1, int(ppi / 8)))
        if piece.kind == "copse":  # trees
            minx, miny, maxx, maxy = piece.polygon.bounds
            inside = piece.polygon.buffer(-0.3)
            for _ in range(int(piece.polygon.area * 1.5)):
                x, y = rng.uniform(minx, maxx), rng.uniform(miny, maxy)
                if inside.contains(Point(x, y)):
                    r = rng.uniform(0.35, 0.7) * ppi
                    d.ellipse((x * ppi - r, y * ppi - r, x * ppi + r, y * ppi + r), fill=edge,
                              outline=(40, 60, 28))
        elif piece.kind == "building":  # a roof ridge
            c = piece.polygon.centroid
            minx, miny, maxx, maxy = piece.polygon.bounds
            d.line(((minx * ppi, c.y * ppi), (maxx * ppi, c.y * ppi)), fill=edge, width=max(1, int(ppi / 6)))
    for line in table.lines.values():
        d.line([(x * ppi, y * ppi) for x, y in line.coords], fill=BASE_LINE, width=max(1, int(ppi / 5)))
    for inch in range(0, int(table.width) + 1, 6):  # 6-inch marks along the edges, a foot marked longer
        length = ppi * (1.0 if inch % 12 == 0 else 0.5)
        d.line(((inch * ppi, 0), (inch * ppi, length)), fill=MARK, width=1)
        d.line(((inch * ppi, h - 1), (inch * ppi, h - 1 - length)), fill=MARK, width=1)
    for inch in range(0, int(table.height) + 1, 6):
        length = ppi * (1.0 if inch % 12 == 0 else 0.5)
        d.line(((0, inch * ppi), (length, inch * ppi)), fill=MARK, width=1)
        d.line(((w - 1, inch * ppi), (w - 1 - length, inch * ppi)), fill=MARK, width=1)
    return img


def write_table_image(table_file: str | Path) -> Path:
    """Render the image a table file names and write it beside the file."""
    table = load_table(table_file, check_image=False)
    if not table.image:
        raise ValueError(f"{table_file}: table.image names no image file to write")
    out = Path(table_file).parent / table.image
    buf = io.BytesIO()
    render_table(table).save(buf, format="PNG", optimize=True)
    atomic_write_bytes(out, buf.getvalue())
    return out


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(write_table_image(arg))
