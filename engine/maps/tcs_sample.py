"""The TCS test map: two small sheets (A west, B east) built by code, for the series engine's test scenario.

``python -m engine.maps.tcs_sample [FOLDER]`` writes ``tcs-test.toml`` and its sheet images
(default folder: ``maps/`` beside the engine package).
"""
from __future__ import annotations

import sys
from pathlib import Path

from engine.maps.board import Board, Sheet
from engine.maps.hexes import FLAT, hex_linedraw, hexside
from engine.maps.numbering import NumberingScheme
from engine.maps.samples import sample_main

COLS, ROWS = 16, 10
PX_PER_HEX = 48

# One glyph per hex, rows 01-10, columns 01-16 of sheet A then 01-16 of sheet B.
TERRAIN_ART = """
....ww.......... ................
...www.....v.... ......ww........
....w......vv... .....www........
................ ......w.....vv..
......ww........ .............vv.
.....www........ ..ww............
......w......... .www............
................ ..w.......ww....
..vv............ .........www....
..v............. ................
"""
GLYPHS = {".": "clear", "w": "woods", "v": "village"}
LEGEND = {"c": "clear", "w": "woods", "v": "village"}
ROAD = ("A01.05", "A12.03", "B04.05", "B14.04", "B16.05")
HILL = ("B08.07", 40.0)


def sheets(cols: int = COLS, rows: int = ROWS) -> list[Sheet]:
    """Sheet A and, east of it, sheet B: flat-top, TCS ids, B's first column beside A's last."""
    a = NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=cols, rows=rows, shifted="even")
    wide = NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=2 * cols, rows=rows, shifted="even")
    b0 = NumberingScheme(style="tcs", sheet="B", orientation=FLAT, cols=cols, rows=rows, shifted="even")
    east, first = wide.colrow_to_hex(cols + 1, 1), b0.colrow_to_hex(1, 1)
    b = NumberingScheme(style="tcs", sheet="B", orientation=FLAT, cols=cols, rows=rows, shifted="even",
                        origin=(east.q - first.q, east.r - first.r))
    return [Sheet("A", a), Sheet("B", b)]


def tcs_test_board() -> Board:
    board = Board(name="TCS test", orientation=FLAT, sheets=sheets(), legend=dict(LEGEND))
    rows = TERRAIN_ART.strip("\n").split("\n")
    for r, line in enumerate(rows, start=1):
        west, east = line.split(" ")
        for sh, text in ((board.sheets[0], west), (board.sheets[1], east[:COLS])):
            for c, g in enumerate(text, start=1):
                board.terrain[sh.numbering.colrow_to_hex(c, r)] = GLYPHS[g]
    top = board.parse_hex(HILL[0])
    from engine.maps.hexes import hex_distance
    for h in board.hexes():
        board.elevation[h] = max(0.0, HILL[1] - 20.0 * hex_distance(h, top)) + 20.0
    hexes = [board.parse_hex(x) for x in ROAD]
    links = set()
    for p, q in zip(hexes, hexes[1:]):
        path = hex_linedraw(p, q)
        links.update(hexside(u, v) for u, v in zip(path, path[1:]))
    board.links = {"road": links}
    return board


def write_tcs_test_map(folder) -> list[Path]:
    from engine.maps.art import render_board
    from engine.maps.mapfile import save_map

    folder = Path(folder)
    board = tcs_test_board()
    images = render_board(board, folder / "tcs-test.png", px_per_hex=PX_PER_HEX)
    toml = folder / "tcs-test.toml"
    save_map(board, toml)
    return [toml, *images]


def main(argv: list[str] | None = None) -> int:
    return sample_main(write_tcs_test_map, argv)


if __name__ == "__main__":
    sys.exit(main())
