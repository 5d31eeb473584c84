"""Benchmark: drawing the demo map (30 x 20 hexes) as a printed map, and encoding it, in medians."""
from __future__ import annotations

import statistics
import time

from ..mapart import encode_image, render_sheet
from ..samples import DEMO_PX_PER_HEX, demo_board

DEFAULT_REPEAT = 5


def _median_ms(times: list[float]) -> float:
    return round(statistics.median(times) * 1000.0, 1)


def run(args) -> list[dict]:
    repeat = getattr(args, "repeat", None) or DEFAULT_REPEAT
    board = demo_board()
    sheet = board.sheets[0]
    rows = []
    for px in (DEMO_PX_PER_HEX, 2 * DEMO_PX_PER_HEX):
        draw, png, jpg = [], [], []
        size = png_bytes = jpg_bytes = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            art = render_sheet(board, sheet, px_per_hex=px)
            t1 = time.perf_counter()
            data = encode_image(art.image, ".png")
            t2 = time.perf_counter()
            jdata = encode_image(art.image, ".jpg")
            t3 = time.perf_counter()
            draw.append(t1 - t0)
            png.append(t2 - t1)
            jpg.append(t3 - t2)
            size, png_bytes, jpg_bytes = art.image.size, len(data), len(jdata)
            art = None
        rows.append({"map": "demo 30x20", "px_per_hex": px, "image": f"{size[0]}x{size[1]}",
                     "draw_ms": _median_ms(draw), "png_ms": _median_ms(png), "jpg_ms": _median_ms(jpg),
                     "png_kb": round(png_bytes / 1024), "jpg_kb": round(jpg_bytes / 1024), "repeat": repeat})
    return rows
