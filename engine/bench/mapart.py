"""Benchmark: drawing sheets as printed maps (the 30 x 20 demo and a 60 x 40 sheet), in medians."""
from __future__ import annotations

import statistics
import time

from engine.maps.board import Board, Sheet
from engine.maps.hexes import FLAT
from engine.maps.art import encode_image, render_sheet
from engine.maps.numbering import NumberingScheme
from engine.maps.samples import DEMO_PX_PER_HEX, TERRAIN_ART, GLYPHS, demo_board

DEFAULT_REPEAT = 3


def large_board() -> Board:
    """A 60 x 40 sheet tiled with the demo's terrain art (four copies)."""
    ns = NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=60, rows=40)
    board = Board(name="Large", orientation=FLAT, sheets=[Sheet("A", ns)])
    rows = TERRAIN_ART.strip("\n").split("\n")
    for col in range(1, 61):
        for row in range(1, 41):
            glyph = rows[(row - 1) % len(rows)][(col - 1) % len(rows[0])]
            h = ns.colrow_to_hex(col, row)
            board.terrain[h] = GLYPHS[glyph]
            board.elevation[h] = 20.0 * ((col // 7 + row // 5) % 4)
    return board


def _median_ms(times: list[float]) -> float:
    return round(statistics.median(times) * 1000.0, 1)


def measure(name: str, board: Board, px: int, repeat: int) -> dict:
    sheet = board.sheets[0]
    draw, png, jpg = [], [], []
    row: dict = {}
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
        row = {"map": name, "px_per_hex": px, "image": f"{art.image.size[0]}x{art.image.size[1]}",
               "png_kb": round(len(data) / 1024), "jpg_kb": round(len(jdata) / 1024)}
        art = None
    row.update(draw_ms=_median_ms(draw), png_ms=_median_ms(png), jpg_ms=_median_ms(jpg), repeat=repeat)
    return row


def run(args) -> list[dict]:
    repeat = getattr(args, "repeat", None) or DEFAULT_REPEAT
    return [measure("demo 30x20", demo_board(), DEMO_PX_PER_HEX, repeat),
            measure("tiled 60x40", large_board(), DEMO_PX_PER_HEX, repeat)]
