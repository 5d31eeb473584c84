"""The map of the small classic game "River Crossing": a 16 x 12 hex sheet drawn with the project's map art.

``python -m engine.maps.sample_crossing [FOLDER]`` writes ``crossing.toml`` and
``crossing.png`` (default folder: ``maps/`` beside the engine package).
"""
from __future__ import annotations

import sys
from pathlib import Path

from engine.maps.board import Area, Board, Box, Sheet
from engine.maps.hexes import FLAT
from engine.maps.numbering import NumberingScheme
from engine.maps.samples import _course, _route, sample_main, write_drawn_map

COLS, ROWS = 16, 12
PX_PER_HEX = 72

TERRAIN_ART = """
..ww.......ww...
.www....r..www..
..w....rr...w...
.......r........
...tt...........
...t.......ww...
..........www...
....ww.....w..t.
...www.......tt.
....w...rr......
.........r..ww..
...........www..
"""
GLYPHS = {".": "clear", "w": "woods", "r": "rough", "t": "town"}
LEGEND = {"c": "clear", "w": "woods", "r": "rough", "t": "town"}
RIVER_COURSE = (("A07.01", "A08.01"), ("A07.04", "A08.04"), ("A08.06", "A09.06"), ("A08.09", "A09.09"),
                ("A07.12", "A08.12"))
ROAD_ROUTE = ("A01.05", "A04.05", "A08.07", "A10.08", "A14.09", "A16.09")


def crossing_board() -> Board:
    sheet = Sheet("A", NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=COLS, rows=ROWS,
                                       shifted="even"))
    board = Board(name="River Crossing", orientation=FLAT, sheets=[sheet], legend=dict(LEGEND))
    rows = TERRAIN_ART.strip("\n").split("\n")
    if len(rows) != ROWS or any(len(r) != COLS for r in rows):
        raise ValueError(f"the crossing's terrain art must be {COLS} x {ROWS} glyphs")
    for row, text in enumerate(rows, start=1):
        for col, glyph in enumerate(text, start=1):
            h = sheet.numbering.colrow_to_hex(col, row)
            board.terrain[h] = GLYPHS[glyph]
            board.elevation[h] = 20.0
    board.hexsides = {}
    for side in _course(board, RIVER_COURSE):
        board.hexsides.setdefault(side, set()).add("river")
    board.links = {"road": _route(board, ROAD_ROUTE)}
    towns = {h for h, t in board.terrain.items() if t == "town"}
    west = {h for h in board.hexes() if sheet.numbering.hex_to_colrow(h)[0] <= 2}
    east = {h for h in board.hexes() if sheet.numbering.hex_to_colrow(h)[0] >= COLS - 1}
    board.areas = {
        "Altdorf": Area("Altdorf", "town", {h for h in towns if sheet.numbering.hex_to_colrow(h)[0] < 8}),
        "Neustadt": Area("Neustadt", "town", {h for h in towns if sheet.numbering.hex_to_colrow(h)[0] > 8}),
        "blue_base": Area("blue_base", "supply", west),
        "red_base": Area("red_base", "supply", east),
    }
    board.boxes = {"dead": Box("dead", "Eliminated", "dead")}
    return board


def write_crossing_map(folder) -> tuple[Path, Path]:
    """Write ``crossing.png`` and ``crossing.toml`` into a folder; returns their paths."""
    return write_drawn_map(crossing_board(), folder, "crossing", PX_PER_HEX)


def main(argv: list[str] | None = None) -> int:
    return sample_main(write_crossing_map, argv)


if __name__ == "__main__":
    sys.exit(main())
