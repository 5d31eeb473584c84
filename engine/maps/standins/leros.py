"""Leros's three map sheets as stand-ins, built from what the rulebook says.

``python -m engine.maps.standins.leros [FOLDER]`` writes ``leros.toml`` with
``leros-A.png``, ``-B.png`` and ``-C.png``.

Sheets A (north), B (centre) and C (south), each 63 columns by 36 rows,
flat-top, rows numbered from the bottom edge up as on TCS sheets, north at
the top; A's row 01 is B's row 36 and B's row 01 is C's row 36.  Positions
below are ``(column, row)`` on sheet B's grid, extended past its edges
(row 40 is A04, row -5 is C30), so the island is drawn in one piece.
"""
from __future__ import annotations

import math
import sys

import numpy as np
import shapely
import shapely.affinity

from engine.maps.art import shapes as art_shapes
from engine.maps.board import Area, Board, Box, Obstacle, Sheet
from engine.maps.hexes import FLAT, Hex
from engine.maps.numbering import NumberingScheme
from engine.maps.standins.common import (add_area, add_feature, grid_point, hexes_in, printed_copy, standin_main)

COLS, ROWS = 63, 36
PX_PER_HEX = 52
STEM = "leros"
CONTOUR_M = 25.0       # Leros 1.1f
LEGEND = {"c": "clear", "w": "woods", "b": "building", "v": "village", "s": "sea"}


def _b(col: float, gs: float) -> tuple[str, float, float]:
    """A point given on the whole island's rows (C01 = 1, B01 = 36, A01 = 71) as a point of sheet B's grid."""
    return ("B", col, gs - 35.0)


# The coast, clockwise from the south tip, on the island's rows (C: 1-36, B: 36-71, A: 71-106).
COAST = ((32, 4), (37, 9), (42, 4), (45, 8), (48, 13), (50, 19), (52, 25), (54, 31), (56, 36), (60, 38),
         (58, 40), (55, 41.5), (57, 43.5), (60.5, 44), (61.3, 47), (60.5, 50), (58, 52), (56, 54), (53, 56),
         (48, 57.5), (46, 60), (49, 63), (54, 64), (56, 65), (54.5, 67), (57, 69.5), (59, 71), (60, 74),
         (61, 77), (57, 79), (58.5, 82), (57, 85), (54, 87), (51, 87.5), (49, 85.5), (46, 88), (43, 90),
         (39, 91.5), (34, 90.5), (30, 89), (29, 85.5), (25, 86), (21, 83), (19.5, 79), (20, 74), (18.5, 70),
         (19, 66), (24, 63.5), (28, 60.5), (25, 58), (20, 57), (18.5, 53), (19.5, 49), (21, 45), (17, 43),
         (24, 41.5), (31, 40.5), (33.5, 39.5), (31, 38.3), (24, 37.6), (17, 36), (19, 32), (22, 26), (25, 20),
         (28, 14), (30, 9))

BAYS = {
    "Serocampo Bay": ((32, 4), (37, 9), (42, 4), (43, 0), (31, 0)),
    "Pandeli Bay": ((60, 38), (58, 40), (55, 41.5), (57, 43.5), (61, 44), (64, 44), (64, 38)),
    "Alinda Bay": ((56, 54), (53, 56), (48, 57.5), (46, 60), (49, 63), (54, 64), (58, 64), (59, 54)),
    "Grifo Bay": ((56, 65), (54.5, 67), (57, 69.5), (59, 71), (62, 71), (61, 65)),
    "Palma Bay": ((61, 77), (57, 79), (58.5, 82), (57, 85), (61, 85.5), (64, 77)),
    "Blefuti Bay": ((54, 87), (51, 87.5), (49, 85.5), (46, 88), (43, 90), (45, 94), (55, 91)),
    "Parteni Bay": ((30, 89), (29, 85.5), (25, 86), (21, 83), (18, 86), (27, 93)),
    "Gurna Bay": ((19, 66), (24, 63.5), (28, 60.5), (25, 58), (20, 57), (16, 56.5), (15.5, 66.5)),
    "Portolago Bay": ((17, 43), (24, 41.5), (31, 40.5), (33.5, 39.5), (31, 38.3), (24, 37.6), (17, 36),
                      (13, 35.5), (13, 43.5)),
}

# Hills: name, summit (hex id, or a position where the text gives none), height in metres, radius in hexes.
# The text's hex ids: Mt Meraviglia B43.15, Mt Appetici B55.12, Castle Leros B51.17, Rachi Ridge B36.21,
# Quaranta B39.30, Germano B31.27, Mt Vedetta A54.06, Point 320 Clidi Ridge A45.05, S. Quirico A34.03.
HILLS = (
    ("Mt. Meraviglia", "B43.15", 200.0, 5.0),
    ("Mt. Appetici", "B55.12", 175.0, 4.0),
    ("Castle Leros", "B51.17", 125.0, 2.8),
    ("Rachi Ridge", "B36.21", 100.0, 3.0),
    ("Quaranta", "B39.30", 125.0, 3.2),
    ("Germano", "B31.27", 150.0, 3.8),
    ("Mt. Vedetta", "A54.06", 250.0, 5.2),
    ("Point 320 Clidi Ridge", "A45.05", 320.0, 7.0),
    ("S. Quirico", "A34.03", 175.0, 4.0),
    ("Mt. Palella", (40.0, 33.0), 150.0, 4.0),
    ("Mt. Liana", (27.0, 48.0), 125.0, 3.5),
    ("Mt. Vigla", (33.0, 20.0), 200.0, 5.0),
    ("Mt. Eurcona", (44.0, 25.0), 150.0, 4.0),
    ("Mt. Gortoro", (37.0, 13.0), 125.0, 3.0),
)
# Rachi Ridge runs from Meraviglia's northern slope to the isthmus between Gurna and Alinda Bays.
RACHI_CREST = ((41.0, 52.0), (34.0, 59.0), 100.0, 2.0)

# Towns: name, kind of hexes, centre (hex id or position), radii in columns and rows.
TOWNS = (
    ("Leros", "village", "B47.16", 2.3, 1.7),
    ("Portolago", "building", "B35.04", 2.0, 1.4),
    ("Alinda", "village", (45.3, 59.6), 1.6, 1.2),
    ("St. Giorgio", "building", (42.0, 33.5), 1.2, 1.0),
    ("Serocampo", "village", (38.0, 11.0), 1.3, 1.0),
    ("Parteni", "village", (30.0, 83.5), 1.2, 1.0),
)
WOODS = (((30, 15), (29, 22), (35, 23), (36, 16)), ((23, 72), (22, 79), (28, 80), (29, 73)),
         ((38, 41), (38, 45), (43, 45), (42, 41)), ((50, 30), (49, 36), (54, 35), (54, 30)),
         ((40, 60), (39, 64), (45, 65), (45, 61)), ((48, 78), (47, 84), (52, 84), (53, 79)))
CASTLE = "B51.17"
PIERS = ((34.2, 40.2), (34.4, 38.9), (55.6, 42.3), (46.6, 60.4))
# Coastal batteries (1.2g), lettered A-M; G, H and M stand where the Germans held by the 14th (Mt Appetici,
# the drop zone's ridge, Mt Vedetta), as scenarios 4 and 5 have 'all but G, H, M' active.
BATTERIES = {"A": (38, 89), "B": (26, 82), "C": (21.5, 72), "D": (23, 65), "E": (23, 52), "F": (29, 44),
             "G": (57, 46), "H": (31, 59), "I": (37, 34), "J": (27, 20), "K": (39, 7), "L": (49, 24),
             "M": (56, 76)}
# The 16 Landing Zones (1.2e), clockwise from the north coast: each coast hex belongs to the zone whose
# centre is nearest along the coast.  3 Palma Bay, 4 Grifo Bay, 5 below Mt Appetici, 6 Pandeli Bay (a pier,
# for scenario 5's heavy loads), 13 Gurna Bay, as scenario 1's historical landings have them.
LANDING_ZONES = ((49, 86.5), (56, 85), (58, 79), (55.5, 68), (60, 50), (56, 42), (57, 36), (51, 22), (45, 7),
                 (37, 8), (27, 16), (26, 39), (24, 61), (19, 72), (27, 86), (37, 91))
DROP_ZONE = "B34.25"

NOTES = """\
Stand-in for the three printed Leros sheets, drawn from the rulebook's text; an owner replaces it
by digitising the real sheets with the same ids (docs/tcs-maps.md).

Orientation. Sheet A is north, B the centre and C south. The hexes the text names on B put
Portolago (B35.04) south-west of Leros town (B47.16), Rachi Ridge (B36.21) and the drop zone (B34.25)
north-west of it, and Castle Leros (B51.17) and Mt Appetici (B55.12) to its east, once the first
number runs west to east and the second south to north; sheet A's named hexes (rows 03-17) lie just
north of B's top rows (II-Luft's area w/i 4 of A52.06, A47.04 and/or B42.34 is one area), and C's (C36.14,
C39.30) south of B's bottom rows. Rows are numbered from the bottom edge up as on TCS sheets, so north
is at the top. Neighbouring sheets share one row: A's row 01 is B's row 36, B's row 01 is C's row 36.

Placed by the text: Castle Leros B51.17; Mt Meraviglia B43.15; Mt Appetici B55.12; Leros town around
B47.16; Portolago around B35.04; Rachi Ridge B36.21; Quaranta B39.30; Germano B31.27; the historical
drop zone B34.25; Mt Vedetta A54.06; Point 320 on Clidi Ridge A45.05 (320 m); S. Quirico A34.03; every
set-up hex is on land; Palma Bay, Grifo Bay, Gurna Bay and the coast below Mt Appetici are Landing Zones
3, 4, 13 and 5, Pandeli Bay (with a pier, for scenario 5's heavy loads at Landing Zone 6) is 6;
batteries G, H and M stand where the Germans held by 14 November (scenarios 4 and 5: 'all but G, H,
M'); woods are Woods hexes (5 m, 1.1a), buildings are Building (terra-cotta roofs) or Village (white
roofs, 1.1b); a hex with land and sea is a coast hex, at 0 m when its centre is at sea (1.1e); piers
are features (units in them at 5 m, 1.1e); elevations are in steps of the 25 m contour interval
(1.1f).

Placed plausibly (the text gives no hex): the coastline; the bays Blefuti, Parteni, Alinda (spelled
Aldina on the Op Sheet form), Serocampo and Portolago; the other Landing Zones, numbered clockwise from
the north coast; the hills Mt Palella, Mt Liana, Mt Vigla, Mt Eurcona and Mt Gortoro and the village of
St. Giorgio (names from the Op Sheet form and variant 4.4); the other villages; every height but Point
320's; the woods; the piers at Portolago, Pandeli and Alinda; the batteries' letters and places; and the
off-map boxes: the Sea and Air Movement Tracks are printed on the game's charts, which the text lacks,
so each track has four boxes here (A-D), an Approach box, the Leros Parachute Assault Execution box and
three Athens Return Leg boxes, plus the Kos, Samos and Athens boxes."""


def sheets() -> list[Sheet]:
    """Sheets A (north), B and C (south): 63 x 36, flat-top, rows numbered upward, one shared row between."""
    def scheme(letter: str, origin: tuple[int, int]) -> NumberingScheme:
        return NumberingScheme(style="tcs", sheet=letter, orientation=FLAT, cols=COLS, rows=ROWS, shifted="even",
                               row_direction="up", origin=origin)
    return [Sheet("A", scheme("A", (0, 0))), Sheet("B", scheme("B", (0, ROWS - 1))),
            Sheet("C", scheme("C", (0, 2 * (ROWS - 1))))]


def _pt(board: Board, p) -> tuple[float, float]:
    """A lattice point from a hex id or an island position (column, island row)."""
    if isinstance(p, str):
        return board.center(board.parse_hex(p))
    return grid_point(board, *_b(*p))


def _poly(board: Board, pts) -> shapely.Polygon:
    return shapely.Polygon([_pt(board, p) for p in pts]).buffer(0)


def island(board: Board) -> shapely.Polygon:
    """Leros: the coast as a softly bent outline (lattice coordinates)."""
    coast = _poly(board, COAST)
    bent = art_shapes.wobble(art_shapes.smooth(coast, 1.2), 0.35, 43)
    bent = bent if bent.geom_type == "Polygon" else max(bent.geoms, key=lambda g: g.area)
    # the outline as the map file stores it (points to 1/10000 of a hex), so sea and coast agree exactly
    return shapely.Polygon([(round(x, 4), round(y, 4)) for x, y in bent.simplify(0.02).exterior.coords])


def build_board() -> Board:
    """The Leros board in memory: sea and coast, heights, towns, woods, features, zones and boxes."""
    board = Board(name="Leros", orientation=FLAT, sheets=sheets(), legend=dict(LEGEND), notes=NOTES,
                  contour_interval=CONTOUR_M)
    board.invalidate()
    h = board.parse_hex
    land = island(board)
    hexes = board.hexes()
    polys = [board.layout.polygon(x) for x in hexes]
    xy = np.array([board.center(x) for x in hexes])
    touches = shapely.intersects(polys, land)
    inside = shapely.within(polys, land)
    centre_on_land = shapely.contains_xy(land, xy[:, 0], xy[:, 1])
    coast, sea_centred = set(), set()
    for x, t, i, c in zip(hexes, touches, inside, centre_on_land):
        board.terrain[x] = "clear" if t else "sea"
        if t and not i:
            coast.add(x)
            if not c:
                sea_centred.add(x)
    add_feature(board, coast, "coast")
    _heights(board, hexes, xy, sea_centred)

    for pts in WOODS:
        for x in hexes_in(board, _poly(board, pts)):
            if board.terrain[x] != "sea":
                board.terrain[x] = "woods"
    for name, kind, centre, rc, rr in TOWNS:
        cx, cy = _pt(board, centre)
        blob = shapely.affinity.scale(shapely.Point(cx, cy).buffer(1.0, quad_segs=16), 1.5 * rc, math.sqrt(3) * rr)
        town = {x for x in hexes_in(board, blob) if board.terrain[x] != "sea" and x not in sea_centred}
        if isinstance(centre, str):
            town.add(h(centre))
        for x in town:
            board.terrain[x] = kind
        add_area(board, name, "town", town)

    castle = h(CASTLE)
    board.terrain[castle] = "building"
    add_feature(board, [castle], "castle")
    for name, summit, _height, _r in HILLS:
        if isinstance(summit, str):
            add_area(board, name, "objective", [h(summit)])
        else:
            add_area(board, name, "hill", [board.layout.pixel_to_hex(*_pt(board, summit))])
    add_area(board, "historical drop zone", "drop zone", [h(DROP_ZONE)])

    piers = [_nearest(board, coast, _pt(board, p)) for p in PIERS]
    add_feature(board, piers, "pier")
    land_hexes = {x for x in hexes if board.terrain[x] != "sea" and x not in sea_centred}
    for letter, p in BATTERIES.items():
        x = _nearest(board, land_hexes, _pt(board, p))
        add_feature(board, [x], "coastal battery")
        add_area(board, f"Coastal Battery {letter}", "battery", [x])
    _landing_zones(board, land, coast)
    for name, pts in BAYS.items():
        water = {x for x in hexes_in(board, _poly(board, pts)) if board.terrain[x] == "sea" or x in sea_centred}
        add_area(board, name, "bay", water)
    add_area(board, "Leros (island)", "island", land_hexes | coast)
    board.obstacles = _sea_outlines(board, land)
    board.boxes = _boxes()
    return board


def _heights(board: Board, hexes: list[Hex], xy: np.ndarray, sea_centred: set[Hex]) -> None:
    """Cones round the summits, a ridge along Rachi, in 25 m steps; sea and sea-centred coast at 0 m."""
    height = np.full(len(hexes), 12.0)
    for _name, summit, peak, radius in HILLS:
        sx, sy = _pt(board, summit)
        d = np.hypot(xy[:, 0] - sx, xy[:, 1] - sy) / (math.sqrt(3) * radius)
        height = np.maximum(height, peak * np.clip(1.0 - d, 0.0, 1.0) + 12.0 * (d < 1))
    (a, b, peak, radius) = RACHI_CREST
    line = shapely.LineString([_pt(board, a), _pt(board, b)])
    d = shapely.distance(shapely.points(xy), line) / (math.sqrt(3) * radius)
    height = np.maximum(height, peak * np.clip(1.0 - 0.5 * d, 0.0, 1.0))
    for x, v in zip(hexes, height):
        if board.terrain[x] == "sea" or x in sea_centred:
            board.elevation[x] = 0.0
        else:
            board.elevation[x] = math.floor(v / CONTOUR_M) * CONTOUR_M
    for _name, summit, peak, _r in HILLS:       # each named summit is the top of its hill
        if isinstance(summit, str):
            top = board.parse_hex(summit)
            board.elevation[top] = math.floor(peak / CONTOUR_M) * CONTOUR_M
            if summit == "A45.05":
                board.elevation[top] = peak          # Point 320 is named for its height
    # No slope steeper than two contours between neighbouring hex centres (the text's cliffs, 1.1f's design
    # note), so a cone running into the sea-centred coast hexes at 0 m is lowered to that there.
    steepest = 2 * CONTOUR_M
    changed = True
    while changed:
        changed = False
        for x in hexes:
            low = min((board.elevation[n] for n in board.neighbors(x) if n in board.elevation),
                      default=board.elevation[x])
            if board.elevation[x] > low + steepest:
                board.elevation[x] = low + steepest
                changed = True


def _nearest(board: Board, among, p) -> Hex:
    return min(among, key=lambda x: (math.dist(board.center(x), p), x))


def _landing_zones(board: Board, land, coast: set[Hex]) -> None:
    """Landing Zones 1-16: each coast hex goes to the zone whose centre is nearest along the coastline."""
    ring = land.exterior
    length = ring.length
    centres = [ring.project(shapely.Point(_pt(board, p))) for p in LANDING_ZONES]
    zones: dict[int, set[Hex]] = {n: set() for n in range(1, 17)}
    for x in sorted(coast):
        t = ring.project(shapely.Point(board.center(x)))
        best = min(range(16), key=lambda i: (min(abs(t - centres[i]), length - abs(t - centres[i])), i))
        zones[best + 1].add(x)
    for n, hexes in zones.items():
        add_area(board, f"Landing Zone {n}", "landing zone", hexes)


def _sea_outlines(board: Board, land) -> list[Obstacle]:
    """The sea round the island as traced polygons per sheet (cut so that none has a hole), kind "sea"."""
    out = []
    for sheet in board.sheets:
        frame = art_shapes.printed_rect(board, sheet).buffer(0.3, join_style="mitre")
        sea = frame.difference(land)
        cx = land.centroid.x
        x0, y0, x1, y1 = frame.bounds
        halves = [sea.intersection(shapely.box(x0 - 1, y0 - 1, cx, y1 + 1)),
                  sea.intersection(shapely.box(cx, y0 - 1, x1 + 1, y1 + 1))]
        for half in halves:
            for poly in getattr(half, "geoms", [half]):
                if poly.geom_type != "Polygon" or poly.area < 0.05:
                    continue
                pts = [(round(x, 4), round(y, 4)) for x, y in poly.exterior.coords[:-1]]
                out.append(Obstacle("sea", 0.0, pts, sheet.id))
    return out


def _boxes() -> dict[str, Box]:
    boxes = [Box("kos", "Kos Box", "holding"), Box("samos", "Samos Box", "holding"),
             Box("athens", "Athens Box", "holding"), Box("dead", "Dead Pile", "dead")]
    for side in ("German", "British"):
        for letter in "ABCD":
            boxes.append(Box(f"{side.lower()}-sea-{letter}", f"{side} Sea Movement Box {letter}", "sea track"))
        boxes.append(Box(f"{side.lower()}-approach", f"{side} Approach Box", "sea track"))
    for letter in "ABCDEF":        # Leros 3.6j: three preparation boxes, then three facing the return leg
        boxes.append(Box(f"air-{letter}", f"Air Movement Box {letter}", "air track"))
    boxes.append(Box("air-execution", "Leros Parachute Assault Execution Box", "air track"))
    for n in (1, 2, 3):
        boxes.append(Box(f"air-return-{n}", f"Athens Return Leg Box {n}", "air track"))
    return {b.id: b for b in boxes}


PRINTED_KINDS = ("town", "bay", "landing zone", "objective", "hill")


def printed(board: Board) -> Board:
    """What the sheets print: towns, bays, hills and Landing Zones by name; batteries by symbol."""
    out = printed_copy(board, lambda a: a.kind in PRINTED_KINDS or a.kind == "drop zone")
    areas = {}
    for name, area in out.areas.items():
        if area.kind == "landing zone":
            name = f"LZ {name.split()[-1]}"
        areas[name] = Area(name, "hill" if area.kind == "objective" else area.kind, area.hexes)
    out.areas = areas
    return out


if __name__ == "__main__":
    sys.exit(standin_main(sys.modules[__name__]))
