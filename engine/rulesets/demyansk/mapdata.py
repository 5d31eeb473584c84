"""The Demyansk Pocket map, authored as data: the Demyansk–Staraya Russa area at 4 km a hex.

``python -m engine.rulesets.demyansk.mapdata [FOLDER]`` writes ``demyansk.toml``
and ``demyansk.png`` (default folder: ``maps/`` beside the engine package).
The picture is a stand-in for a scan of the printed map (Demyansk 2.2): one
sheet of 30 columns by 22 rows, flat-top hexes, ids like ``0512``.

Geography (north is up): Lake Ilmen in the north-west corner, Staraya Russa
south of it, the Redya, Lovat and Pola running north towards the lake, forest
and swamp (rough) nearly everywhere, the pocket around Demyansk in the east
centre with its airfield and fortified perimeter, and the start line from the
north to the south edge west of the pocket, with Ramushevo on the German side.
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path

from engine.maps.board import Area, Board, Line, Sheet
from engine.maps.hexes import FLAT, Hex, Hexside, hex_distance, hex_linedraw, hexside, hexsides_of
from engine.maps.numbering import NumberingScheme
from engine.maps.samples import sample_main

COLS, ROWS = 30, 22
PX_PER_HEX = 60

# Natural ground, one glyph per hex, rows 01-22 top to bottom, columns 01-30
# left to right: "." clear, "w" woods, "r" rough (the swamps), "~" Lake Ilmen.
GROUND = (
    "~~~~~~~....ww.r.rrw....w..www.",  # 01
    "~~~~~~.....r.rrw....w...www...",  # 02
    "~~~~~..w......rww....w.wwrr.ww",  # 03
    "~~~wwww.w....www.......wwrrrww",  # 04
    "...wwwww.w...wwwwww....wwwrr.w",  # 05
    "..wwwww.w.w.wwwwww.....wwwrr..",  # 06
    "..ww...wwwww.wwwwwww...wwwwww.",  # 07
    ".w....rrrwwwrwww...wrrrwwww..w",  # 08
    "ww.....rrrwwww.....wwrrwwwww.w",  # 09
    "w......rrrwwwww......rrwwwrr.w",  # 10
    ".....wwrrr.wwwww.....rrrwwrr.w",  # 11
    "..r..wwrrr.wwwww.....rr.ww..ww",  # 12
    "...rw..rrwwwwwwww....rrwwwwwww",  # 13
    "...www.rrrww.w.www..wrrwwwwww.",  # 14
    "..wwwwwrrrrww...w...wrrwwwwww.",  # 15
    "....wwrrrrrwww...r..rrrrwwrww.",  # 16
    ".w...rrrrrwwwww.rrrrrrrrwwwww.",  # 17
    "ww...rrrrwwwwwwwwrrrrwwwwwwwww",  # 18
    "ww..rrrrrwwwwrrwwrrrrwwwwwwwww",  # 19
    ".w..rrwwwwww.rr.wwrr.rwwww..ww",  # 20
    "..ww....ww..www..ww..wwww..ww.",  # 21
    "...www...www..w..www..ww..ww..",  # 22
)
GLYPHS = {".": "clear", "w": "woods", "r": "rough", "~": "lake"}
LEGEND = {"c": "clear", "w": "woods", "r": "rough", "l": "lake", "t": "town", "y": "city",
          "f": "fortification", "a": "airfield"}

# Towns and cities (Demyansk 6.3): name -> hex.  Each is also a named area.
CITIES = {"Staraya Russa": "0706", "Demyansk": "2212"}
TOWNS = {
    "Ramushevo": "1109",       # on the Lovat, west of the start line (9.2)
    "Kalitkina": "1415",       # east of the start line, south of the corridor (9.2)
    "Rosino": "1705",          # north of the corridor (9.2)
    "Vatulino": "2619",        # south-east of the pocket (9.2)
    "Fedorovka": "1910",       # inside the pocket, the military police's post (9.2)
    "Parfino": "0904",
    "Pola": "1406",
    "Zaluchye": "2209",
    "Lychkovo": "1914",
    "Kobylkino": "2510",
    "Molvotitsy": "2121",
    "Lyakhnovo": "2815",
    "Vasilyevshchina": "1312",
}
AIRFIELD = "2312"              # Demyansk airfield, next to the city (7.2, 8.2)

# The pocket: every hex within POCKET_RADIUS of Demyansk.  Its boundary is the
# pocket perimeter line; the fortifications stand on its inner ring (6.2).
POCKET_CENTRE = "2212"
POCKET_RADIUS = 5
FORTIFICATIONS = ("1715", "2016", "2317", "2615", "2713", "2710", "2408", "2108", "1809", "1712")

# The start line (9.2, 7.3): for each row, the last column on its west (German)
# side.  The line runs along the hexsides between that column and the next,
# from the north edge to the south edge: past Staraya Russa's east side, then
# east round Ramushevo.
START_LINE_WEST = {1: 8, 2: 8, 3: 8, 4: 7, 5: 7, 6: 7, 7: 7, 8: 9, 9: 11, 10: 11, 11: 11, 12: 11,
                   13: 11, 14: 12, 15: 12, 16: 12, 17: 12, 18: 12, 19: 12, 20: 12, 21: 12, 22: 12}

# Rivers along hexsides (Demyansk 6.1, TEC): waypoints as (column, row) on the
# printed grid, halves between hexes; the course is snapped to the hexsides.
RIVERS = {
    "Lovat": ((10.5, 23.0), (10.5, 16.0), (11.5, 12.0), (11.6, 9.4), (10.5, 7.0), (8.6, 4.5), (7.6, 2.6)),
    "Pola": ((16.5, 23.0), (16.5, 18.0), (15.5, 13.5), (14.6, 8.5), (13.5, 4.0), (12.6, 0.0)),
    "Redya": ((4.5, 23.0), (5.5, 17.0), (5.6, 12.0), (4.6, 8.0), (4.1, 4.6)),
}

# Roads (Demyansk 2.2 shows them; no rule of the game uses them): hex-to-hex
# links through waypoint hexes.
ROADS = (
    ("0706", "0904", "1406", "1705", "2206", "2209", "2212"),
    ("0706", "0908", "1109", "1312", "1914", "2113", "2212"),
    ("2212", "2510", "2807", "3005"),
    ("2212", "2416", "2619", "2722"),
    ("2212", "2121", "2122"),
    ("1415", "1312"),
    ("0706", "0312", "0122"),
)

# 9.2: the north-east quarter of the map (columns, rows), where one headquarters sets up.
NORTHEAST_QUARTER = ((16, 30), (1, 11))
# Areas the map file keeps but the printed map does not show.
UNPRINTED_AREAS = ("northeast_quarter",)


def sheet() -> Sheet:
    """The one sheet: 30 columns by 22 rows, flat-top, even columns half a hex down, ids like ``0512``."""
    return Sheet("A", NumberingScheme(style="classic", orientation=FLAT, cols=COLS, rows=ROWS, shifted="even"))


def build_board() -> Board:
    """The Demyansk board in memory: terrain, rivers, places, the pocket, its perimeter and the start line."""
    board = Board(name="Demyansk Pocket", orientation=FLAT, sheets=[sheet()], legend=dict(LEGEND))
    num = board.sheets[0].numbering
    h = board.parse_hex
    for row, text in enumerate(GROUND, start=1):
        for col, glyph in enumerate(text, start=1):
            board.terrain[num.colrow_to_hex(col, row)] = GLYPHS[glyph]
    for name, hid in CITIES.items():
        board.terrain[h(hid)] = "city"
        board.areas[name] = Area(name, "town", {h(hid)})
    for name, hid in TOWNS.items():
        board.terrain[h(hid)] = "town"
        board.areas[name] = Area(name, "town", {h(hid)})
    # 8.2: the airfield is clear terrain; 6.2: a fortification stands on clear ground.
    board.terrain[h(AIRFIELD)] = "clear"
    board.features.setdefault(h(AIRFIELD), set()).add("airfield")
    for hid in FORTIFICATIONS:
        board.terrain[h(hid)] = "clear"
        board.features.setdefault(h(hid), set()).add("fortification")

    for name, course in RIVERS.items():
        for side in river_course(board, course):
            board.hexsides.setdefault(side, set()).add("river")

    board.links["road"] = {link for route in ROADS for link in road_links(board, route)}

    pocket = pocket_hexes(board)
    board.areas["pocket"] = Area("pocket", "setup", pocket)
    board.lines["pocket_perimeter"] = Line("pocket_perimeter", "perimeter", boundary(board, pocket))
    west = {x for x in board.hexes() if num.hex_to_colrow(x)[0] <= START_LINE_WEST[num.hex_to_colrow(x)[1]]}
    board.lines["start_line"] = Line("start_line", "start", boundary(board, west))
    (c0, c1), (r0, r1) = NORTHEAST_QUARTER
    board.areas["northeast_quarter"] = Area("northeast_quarter", "setup", {
        x for x in board.hexes() if c0 <= num.hex_to_colrow(x)[0] <= c1 and r0 <= num.hex_to_colrow(x)[1] <= r1})
    return board


def pocket_hexes(board: Board) -> set[Hex]:
    centre = board.parse_hex(POCKET_CENTRE)
    return {x for x in board.hexes() if hex_distance(x, centre) <= POCKET_RADIUS}


def boundary(board: Board, region: set[Hex]) -> set[Hexside]:
    """Hexsides between a region and the rest of the board."""
    return {s for x in region for s in hexsides_of(x) if s.other(x) in board and s.other(x) not in region}


def road_links(board: Board, route) -> set[Hexside]:
    """Hex-to-hex links along a route through waypoint hexes."""
    hexes = [board.parse_hex(hid) for hid in route]
    links: set[Hexside] = set()
    for a, b in zip(hexes, hexes[1:]):
        path = hex_linedraw(a, b)
        links.update(hexside(u, v) for u, v in zip(path, path[1:]))
    return links


def river_course(board: Board, course) -> list[Hexside]:
    """The hexsides a river runs along, from waypoints on the printed grid."""
    return board.snap_polyline([grid_point(board, c, r) for c, r in course])


def grid_point(board: Board, col: float, row: float) -> tuple[float, float]:
    """A point of the printed grid in lattice coordinates (whole numbers are hex centres)."""
    num = board.sheets[0].numbering
    c0, r0 = int(col), int(row)
    x0, y0 = board.center(num.colrow_to_hex(max(c0, 1), max(r0, 1)))
    x = x0 + 1.5 * (col - max(c0, 1))
    y = y0 + 3 ** 0.5 * (row - max(r0, 1))
    return (x, y)


def write_map(folder) -> tuple[Path, Path]:
    """Write ``demyansk.png`` and ``demyansk.toml`` into a folder; returns their paths."""
    from engine.maps.art import render_board
    from engine.maps.mapfile import save_map

    folder = Path(folder)
    board = build_board()
    png = folder / "demyansk.png"
    printed = copy.copy(board)
    printed.areas = {k: v for k, v in board.areas.items() if k not in UNPRINTED_AREAS}
    render_board(printed, png, px_per_hex=PX_PER_HEX)
    board.sheets[0].image = png.name
    toml = folder / "demyansk.toml"
    save_map(board, toml)
    return toml, png


def main(argv: list[str] | None = None) -> int:
    return sample_main(write_map, argv)


if __name__ == "__main__":
    sys.exit(main())
