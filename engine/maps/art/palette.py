"""The printed map's colours, terrain styles, fonts and paper."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageFont

PAPER = (239, 232, 212)
HALO = (248, 244, 232)
INK = (46, 40, 34)
GRID = (70, 64, 56)
GROUND = ((222, 228, 194), (232, 226, 188), (226, 210, 168), (212, 188, 146), (192, 164, 124))
CONTOUR = (150, 108, 66)
WATER = (148, 192, 222)
WATER_EDGE = (46, 98, 160)
RIVER = (88, 146, 206)
ROAD, ROAD_EDGE = (238, 186, 104), (92, 62, 40)
RAIL = (30, 28, 26)
DITCH = (104, 66, 36)
AREA_EDGE = (20, 90, 160)
AREA_LABEL = (20, 70, 130)

# Terrain drawn as regions: fill colour, fill opacity (0-255), outline colour or None,
# outline softening and wobble (both in hex sizes, centre to corner).
TERRAIN_STYLE = {
    "lake": (WATER, 255, WATER_EDGE, 0.5, 0.07),
    "sea": (WATER, 255, WATER_EDGE, 0.4, 0.07),
    "marsh": ((182, 212, 196), 190, None, 0.55, 0.08),
    "bog": ((176, 160, 116), 170, None, 0.5, 0.08),
    "woods": ((128, 168, 92), 215, (66, 110, 50), 0.45, 0.07),
    "forest": ((128, 168, 92), 215, (66, 110, 50), 0.45, 0.07),
    "rough": ((196, 174, 132), 120, None, 0.55, 0.06),
    "peat bog": ((176, 160, 116), 170, None, 0.5, 0.08),
    "town": ((226, 206, 192), 220, (160, 120, 106), 0.3, 0.03),
    "village": ((236, 230, 218), 220, (150, 140, 120), 0.3, 0.03),
    "building": ((218, 204, 186), 200, (150, 126, 104), 0.3, 0.03),
    "city": ((206, 178, 168), 235, (140, 96, 88), 0.2, 0.02),
}

# Named lines by kind: colour, width, dash and gap (hex sizes).
LINE_STYLE = {
    "start": ((196, 26, 26), 0.075, 0.32, 0.14),
    "perimeter": ((136, 40, 168), 0.075, 0.12, 0.1),
}
OTHER_LINE = (INK, 0.05, 0.2, 0.1)


def terrain_order(name: str) -> int:
    """Drawing order of terrain: water first, towns last, unknown names after all."""
    names = list(TERRAIN_STYLE)
    return names.index(name) if name in names else len(names)


def ground_colour(t: float) -> tuple[int, int, int]:
    """Ground tint at a height ``t`` from 0 (lowest on the map) to 1 (highest)."""
    t = min(max(t, 0.0), 1.0) * (len(GROUND) - 1)
    i = min(int(t), len(GROUND) - 2)
    f = t - i
    return tuple(int(round(a + (b - a) * f)) for a, b in zip(GROUND[i], GROUND[i + 1]))


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False):
    """DejaVu Sans at a pixel size when installed, else Pillow's built-in font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)


def print_on_paper(img: Image.Image, seed: int) -> Image.Image:
    """Multiply an image by a faint, seeded paper texture of soft blotches."""
    w, h = img.size
    rng = np.random.default_rng(seed + 7919)
    blotch = Image.fromarray((rng.random((h // 40 + 2, w // 40 + 2)) * 255).astype(np.uint8))
    blotch = np.asarray(blotch.resize((w, h), Image.Resampling.BICUBIC), dtype=np.float32) / 255.0
    factor = 0.978 + 0.03 * blotch
    arr = np.asarray(img, dtype=np.float32) * factor[:, :, None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
