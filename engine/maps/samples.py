"""The demo map: a 30 x 20 hex sheet built by code that has every kind of thing a board holds.

``python -m engine.maps.samples [FOLDER]`` writes ``demo.toml`` and ``demo.png``
(default folder: ``maps/`` beside the engine package).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from engine.maps.board import Area, Board, Box, Line, Obstacle, Sheet
from engine.maps.hexes import FLAT, Hex, Hexside, hex_linedraw, hex_range, hexside, hexsides_of
from engine.maps.numbering import NumberingScheme

COLS, ROWS = 30, 20
DEMO_PX_PER_HEX = 64

# One glyph per hex, rows 01-20 top to bottom, columns 01-30 left to right.
TERRAIN_ART = """
.wwww...........w.........ww..
.wwwww..r.......w........www..
..wwww.rr..................w..
...www..r.....................
....w..............rr.........
........w..........rr.........
.......www....................
........w.....................
.........ttt..................
.........tt...................
..mm..........................
.m~~m.........................
m~~~~m..........ww.....CC.....
.m~~~m.........www....CCC.....
..m~mm..........w......CCC....
...m...bb...............C.....
......bbb....r................
.......bb...rr.............ww.
............r.............www.
..........................wwww
"""

GLYPHS = {".": "clear", "w": "woods", "r": "rough", "m": "marsh", "t": "town",
          "C": "city", "~": "lake", "b": "bog"}

LEGEND = {"c": "clear", "w": "woods", "r": "rough", "m": "marsh", "t": "town",
          "y": "city", "l": "lake", "b": "bog"}

# Hills: (summit hex, height in metres, radius across columns, radius down rows).
HILLS = (("A04.03", 120.0, 5.5, 4.5), ("A21.05", 80.0, 3.5, 4.0), ("A13.18", 60.0, 2.6, 2.2))
GROUND_M = 20.0
LOWLAND = ("lake", "marsh")   # terrain at 0 m, like the river's banks
CONTOUR_M = 20.0

# The river runs along hexsides: waypoints are hexsides it passes (west/east hex).
RIVER_COURSE = (("A15.01", "A16.01"), ("A15.04", "A16.04"), ("A14.06", "A15.06"),
                ("A13.08", "A14.08"), ("A14.10", "A15.10"), ("A16.12", "A17.12"),
                ("A16.15", "A17.15"), ("A17.18", "A18.18"), ("A17.20", "A18.20"))
DITCH_COURSE = (("A21.10", "A22.10"), ("A21.13", "A22.13"), ("A22.16", "A23.16"), ("A22.18", "A23.18"))
START_LINE_COURSE = (("A08.01", "A09.01"), ("A07.06", "A08.06"), ("A08.10", "A09.10"),
                     ("A07.15", "A08.15"), ("A08.20", "A09.20"))

ROAD_ROUTE = ("A01.08", "A05.09", "A10.09", "A11.09", "A12.09", "A14.10", "A18.10", "A23.13", "A25.14", "A30.13")
ROAD_NORTH_ROUTE = ("A11.09", "A11.05", "A10.01")
RAILROAD_ROUTE = ("A26.01", "A26.07", "A25.12", "A25.16", "A24.20")

TRENCH_HEXES = [f"A20.{r:02d}" for r in range(2, 7)] + [f"A19.{r:02d}" for r in range(7, 13)] \
    + [f"A20.{r:02d}" for r in range(12, 18)]
WIRE_HEXES = [f"A19.{r:02d}" for r in range(3, 7)] + [f"A18.{r:02d}" for r in range(7, 10)] \
    + [f"A19.{r:02d}" for r in range(13, 17)]
FEATURES = {"A20.05": "fortification", "A27.05": "airfield", "A28.05": "airfield", "A14.08": "mill"}

# LOS obstacles traced "as printed": (kind, height m, hex, outline around the hex centre).
WOODS_OUTLINE = ((-0.55, -0.10), (-0.35, -0.50), (0.05, -0.62), (0.45, -0.38), (0.60, 0.05),
                 (0.40, 0.45), (-0.05, 0.58), (-0.45, 0.35))
BUILDING_OUTLINE = ((-0.30, -0.18), (0.28, -0.24), (0.32, 0.14), (-0.26, 0.20))
OBSTACLES = (("woods", 15.0, "A03.02", WOODS_OUTLINE),
             ("woods", 15.0, "A16.14", WOODS_OUTLINE),
             ("building", 10.0, "A11.09", BUILDING_OUTLINE))


def demo_sheet() -> Sheet:
    """Sheet A: 30 columns by 20 rows, flat-top, TCS ids like ``A05.06``."""
    return Sheet("A", NumberingScheme(style="tcs", sheet="A", orientation=FLAT,
                                      cols=COLS, rows=ROWS, shifted="even"))


def demo_board() -> Board:
    """The demo board: terrain, hills, river, roads, trenches, areas, lines, boxes, obstacles."""
    board = Board(name="Demo", orientation=FLAT, sheets=[demo_sheet()], legend=dict(LEGEND))
    h = board.parse_hex
    _lay_terrain(board)
    _raise_hills(board)
    board.hexsides = {}
    for side in _course(board, RIVER_COURSE):
        board.hexsides.setdefault(side, set()).add("river")
    for side in _course(board, DITCH_COURSE):
        board.hexsides.setdefault(side, set()).add("ditch")
    board.links = {"road": _route(board, ROAD_ROUTE) | _route(board, ROAD_NORTH_ROUTE),
                   "railroad": _route(board, RAILROAD_ROUTE)}
    for hid in TRENCH_HEXES:
        board.features.setdefault(h(hid), set()).add("trench")
    for hid in WIRE_HEXES:
        board.features.setdefault(h(hid), set()).add("wire")
    for hid, name in FEATURES.items():
        board.features.setdefault(h(hid), set()).add(name)
    towns = {x for x, t in board.terrain.items() if t == "town"}
    city = {x for x, t in board.terrain.items() if t == "city"}
    board.areas = {
        "Ostrov": Area("Ostrov", "town", towns),
        "Novgorodka": Area("Novgorodka", "town", city),
        "Hill 80 set-up": Area("Hill 80 set-up", "setup", {x for x in hex_range(h("A21.06"), 2) if x in board}),
    }
    ring = {x for x in hex_range(h("A25.14"), 4) if x in board}
    board.lines = {
        "Start Line": Line("Start Line", "start", set(_course(board, START_LINE_COURSE))),
        "Novgorodka perimeter": Line("Novgorodka perimeter", "perimeter", _boundary(board, ring)),
    }
    board.boxes = {"dead": Box("dead", "Dead Pile", "dead"),
                   "reserve": Box("reserve", "Reserve", "holding")}
    board.obstacles = [_obstacle(board, kind, height, hid, outline)
                       for kind, height, hid, outline in OBSTACLES]
    return board


def _lay_terrain(board: Board) -> None:
    rows = [r for r in TERRAIN_ART.strip("\n").split("\n")]
    if len(rows) != ROWS or any(len(r) != COLS for r in rows):
        raise ValueError(f"the demo's terrain art must be {COLS} x {ROWS} glyphs")
    sheet = board.sheets[0].numbering
    for row, text in enumerate(rows, start=1):
        for col, glyph in enumerate(text, start=1):
            board.terrain[sheet.colrow_to_hex(col, row)] = GLYPHS[glyph]


def _raise_hills(board: Board) -> None:
    """Elevation in metres: oval hills in 20 m steps over 20 m ground; river banks, lake and marsh at 0 m."""
    river_banks: set[Hex] = set()
    for side in _course(board, RIVER_COURSE):
        river_banks.update(side.hexes())
    summits = [(board.center(board.parse_hex(hid)), peak, rx, ry) for hid, peak, rx, ry in HILLS]
    for x in board.hexes():
        cx, cy = board.center(x)
        height = 0.0 if (board.terrain[x] in LOWLAND or x in river_banks) else GROUND_M
        for (sx, sy), peak, rx, ry in summits:
            d = math.hypot((cx - sx) / (1.5 * rx), (cy - sy) / (math.sqrt(3) * ry))
            height = max(height, math.floor(peak * max(0.0, 1.0 - d) / CONTOUR_M + 0.5) * CONTOUR_M)
        board.elevation[x] = height


def _midpoint(board: Board, a: str, b: str) -> tuple[float, float]:
    (ax, ay), (bx, by) = board.center(board.parse_hex(a)), board.center(board.parse_hex(b))
    return ((ax + bx) / 2, (ay + by) / 2)


def _course(board: Board, course) -> list[Hexside]:
    """The hexsides along a course of waypoint hexsides, run past both map edges."""
    pts = [_midpoint(board, a, b) for a, b in course]
    return board.snap_polyline([_beyond(pts[1], pts[0])] + pts + [_beyond(pts[-2], pts[-1])])


def _beyond(p: tuple[float, float], q: tuple[float, float], by: float = 0.3) -> tuple[float, float]:
    """The point ``by`` hex sizes past ``q`` on the line from ``p``."""
    d = math.dist(p, q)
    return (q[0] + by * (q[0] - p[0]) / d, q[1] + by * (q[1] - p[1]) / d)


def _route(board: Board, route) -> set[Hexside]:
    """Hex-to-hex links along a route through waypoint hexes."""
    hexes = [board.parse_hex(hid) for hid in route]
    links: set[Hexside] = set()
    for a, b in zip(hexes, hexes[1:]):
        path = hex_linedraw(a, b)
        links.update(hexside(u, v) for u, v in zip(path, path[1:]))
    return links


def _boundary(board: Board, region: set[Hex]) -> set[Hexside]:
    """Hexsides between a region and the rest of the board."""
    return {s for x in region for s in hexsides_of(x)
            if s.other(x) in board and s.other(x) not in region}


def _obstacle(board: Board, kind: str, height: float, hid: str, outline) -> Obstacle:
    cx, cy = board.center(board.parse_hex(hid))
    return Obstacle(kind, height, [(round(cx + dx, 4), round(cy + dy, 4)) for dx, dy in outline], "A")


def write_drawn_map(board: Board, folder, stem: str, px_per_hex: float) -> tuple[Path, Path]:
    """Draw ``board`` with the project's map art as ``STEM.png`` and save it as ``STEM.toml`` in ``folder``;
    returns their paths."""
    from engine.maps.art import render_board
    from engine.maps.mapfile import save_map

    folder = Path(folder)
    png = folder / f"{stem}.png"
    render_board(board, png, px_per_hex=px_per_hex)
    board.sheets[0].image = png.name
    toml = folder / f"{stem}.toml"
    save_map(board, toml)
    return toml, png


def write_demo_map(folder) -> tuple[Path, Path]:
    """Write ``demo.png`` and ``demo.toml`` into a folder; returns their paths."""
    return write_drawn_map(demo_board(), folder, "demo", DEMO_PX_PER_HEX)


def sample_main(write, argv: list[str] | None = None) -> int:
    """The command of a map built by code: ``write`` it into the folder given (the project's maps/ by default)."""
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "maps"
    for path in write(folder):
        print(path)
    return 0


def main(argv: list[str] | None = None) -> int:
    return sample_main(write_demo_map, argv)


if __name__ == "__main__":
    sys.exit(main())
