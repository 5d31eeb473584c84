"""Black Wednesday's two map sheets as stand-ins, built from what the rulebook says.

``python -m engine.maps.standins.blackwednesday [FOLDER]`` writes
``black-wednesday.toml`` with ``black-wednesday-A.png`` and ``-B.png``.

Orientation (see NOTES and docs/tcs-maps.md): the first number of a hex id
runs north to south and the second west to east, so the sheets are printed
with north to the left; rows are numbered from the bottom edge up (TCS
sheets), so east is at the top.  Sheet A lies west of (below) sheet B and
they share one row: ``A05.36`` is ``B05.01``.
"""
from __future__ import annotations

import sys

from engine.maps.board import Board, Box, Sheet
from engine.maps.hexes import FLAT, Hex, hex_neighbors, hexside
from engine.maps.numbering import NumberingScheme
from engine.maps.standins.common import (add_area, add_feature, add_hexsides, add_line, ellipse, grid_point,
                                         hexes_in, links_of, printed_copy, route, shape, standin_main)

COLS, ROWS = 63, 36
PX_PER_HEX = 56
STEM = "black-wednesday"

GROUND_M = 60.0        # the plain
VALLEY_M = 40.0        # the Izhora's banks
EMBANKMENT_M = 80.0    # Black Wednesday 1.2a

LEGEND = {"c": "clear", "f": "forest", "y": "city", "b": "building", "p": "peat bog"}

# ---------------------------------------------------------------- what the text places
HOSPITAL = "B53.12"                       # 1.1e
EL_BASTION = ("B32.06", "B33.07")         # 1.6
MILL = "A25.23"                           # 1.1f: its road enters from A26.23
MILL_GATE = "A26.23"
CRASH = "A46.20"                          # 1.1d

# The front (first) trench line, west to east along the Spanish positions the set-ups name:
# III-262 (A10.27 .. A21.31; scenarios 7 and 8 put 11-III-262 one hex east, at A12.30 and A10.28, so
# the line is two hexes thick there), 2-MR (A27.30, A30.33), 3-MR (B29.03, B30.05), El Bastion, 7-II-262
# (B31.09, B33.12), 6-II-262 (B34.15, B34.19), 5-II-262 (B33.23, B29.25), 3-I-262 (B24.25, B19.26)
# along the railroad, then 1-I-262 and 2-I-262 (B16.29, B16.33) east of it.
FIRST_LINE = ("A01.25", "A06.26", "A10.27", "A10.28", "A12.30", "A12.29", "A15.32", "A17.33", "A21.31",
              "A22.30", "A27.30", "A30.33", "A29.36", "B29.03", "B30.05", "B32.06", "B33.07", "B31.09", "B33.12", "B34.15", "B34.19",
              "B33.23", "B29.25", "B24.25", "B19.26", "B17.26", "B16.28", "B16.33", "B16.36")
# The wire line: one hex in front of the first line, on the Soviet side.
WIRE_LINE = ("A01.26", "A06.27", "A10.29", "A12.31", "A15.33", "A17.34", "A21.32", "A22.31", "A26.31",
             "A29.34", "A28.36", "B28.03", "B29.05", "B31.06", "B31.07", "B30.09", "B32.12", "B33.15", "B33.19", "B32.22",
             "B28.24", "B23.24", "B18.25", "B16.26", "B15.28", "B15.36")
# The second line: behind the first, through the battalion areas (III-262 w/i 5 A17.25, MR w/i 5 A25.24,
# II-262 w/i 4 B38.16, I-262 w/i 4 B21.32) and the Prep Log's later targets.
SECOND_LINE = ("A01.23", "A05.23", "A12.24", "A18.25", "A24.26", "A30.27", "A34.32", "A35.36", "B36.03",
               "B37.06", "B38.11", "B38.16", "B38.20", "B37.26", "B36.28", "B20.28", "B20.36")

# Linear features: the highway from the north edge through Iam Izhora, past El Bastion and through
# Krasni Bor to the south edge (toward Sablino, 2.1a); the October Railroad east of Krasni Bor.
HIGHWAY = ("B01.03", "B22.03", "B30.05", "B34.07", "B40.11", "B45.15", "B51.18", "B63.21")
RAILROAD = ("B01.27", "B30.27", "B46.28", "B63.29")
TRAIN_STATION = "B46.28"
EMBANKMENT_GAP = ("B40.27", "B53.29")     # the line runs at ground level through the station yard
ROADS = (
    ("A26.23", MILL),                                               # 1.1f: the Mill's only vehicle entry
    ("A26.23", "A32.24", "A38.27", "B42.01", "B44.05", "B45.15"),   # Mill - Staraia Myza - Krasni Bor
    ("A26.23", "A30.21", "A27.14", "A10.15", "A01.16"),             # over the Izhora to the batteries, west
    ("A38.27", "A40.22", "A40.17", "A48.15", "A54.20", "A63.22"),   # Staraia Myza - Samsonovka - Raikolovo - Mondolovo
    ("A48.15", "A53.14", "A63.12"),
    ("A54.20", "A51.30", "A63.30"),                                 # Potrolovo, the road to Sablino
    ("B45.15", "B50.11", HOSPITAL, "B63.10"),
    ("B45.15", "B46.28", "B52.34", "B63.34"),
    ("A22.35", "A12.33", "A01.32"),                                 # Iam Izhora west
)
# The Izhora: from the north edge of sheet A down past the Mill's west side, through the villages' valley,
# to the south edge (waypoints on sheet A's grid, halves between hexes).
IZHORA = ((0.0, 21.5), (10.0, 21.6), (20.0, 22.4), (25.0, 22.5), (30.0, 21.5), (38.0, 21.6), (46.0, 22.4),
          (54.0, 22.6), (64.0, 23.5))
# The anti-tank ditch: a 1941 remnant in front of the eastern line (6: "north of AT ditch" near B12.32),
# across sheet B from the east edge toward Iam Izhora.
AT_DITCH = (("B", 13.5, 37.0), ("B", 13.4, 28.0), ("B", 12.6, 20.0), ("B", 13.5, 12.0), ("B", 14.4, 5.5))

# Villages (5.1, history): Building hexes; Krasni Bor is City in its core and Building around it.
KRASNI_BOR = ("B", 45.0, 15.5, 5.2, 6.0)       # centre col, row and radii
KRASNI_BOR_CITY = ("B", 45.0, 15.5, 3.1, 3.7)
KRASNI_BOR_WOODS = ("B44.21", "B46.10")          # 5.0: small forest areas inside the town, not part of it
VILLAGES = {
    "Iam Izhora": (("A", 22.0, 35.5, 2.2, 1.3), ("B", 21.0, 2.4, 2.2, 1.3)),
    "Staraia Myza": (("A", 38.0, 27.0, 1.8, 1.7),),
    "Samsonovka": (("A", 41.0, 17.0, 1.6, 1.6),),
    "Raikolovo": (("A", 48.0, 14.5, 1.8, 1.6),),
    "Mondolovo": (("A", 54.5, 19.0, 1.6, 1.6),),
    "Potrolovo": (("A", 51.0, 30.5, 1.8, 1.6),),
}
RAIKOLOVO_FACTORY = ("A48.14", "A49.15")       # City hexes west of the Izhora (5.1 Axis Minor)

PEAT_BOG = (("B", 17, 9), ("B", 16, 15), ("B", 17.5, 22), ("B", 19, 26.5), ("B", 25, 26.4), ("B", 27.5, 21),
            ("B", 28, 14), ("B", 26, 8), ("B", 21, 6.5))
FORESTS = (
    (("B", 26.5, 7), ("B", 25.5, 14), ("B", 26.8, 22), ("B", 29.2, 21.5), ("B", 29.4, 14), ("B", 28.8, 7.5)),
    (("B", 21.5, 30.5), ("B", 21.5, 36.5), ("B", 27.5, 36.5), ("B", 27, 31)),
    (("B", 54.5, 1), ("B", 54, 9), ("B", 59, 10.5), ("B", 61, 4), ("B", 59, 0)),
    (("B", 56, 21), ("B", 55.5, 26), ("B", 60, 27), ("B", 61, 21.5)),
    (("A", 3, 28), ("A", 2, 33), ("A", 8, 35.5), ("A", 10, 31), ("A", 7, 29)),
    (("A", 5, 3), ("A", 4, 11), ("A", 14, 12.5), ("A", 15, 5), ("A", 10, 2.5)),
    (("A", 42, 3), ("A", 41.5, 9), ("A", 46.5, 9.5), ("A", 47, 3.5)),
    (("A", 57, 26), ("A", 56.5, 33.5), ("A", 62, 34), ("A", 62.5, 26.5)),
)

# Entry areas (1.10h): Spanish A-D on the west and south-west edges, German E-H on the south edge and the
# south-east corner (H is the 43 Rifle's "easiest" exit, Player's Notes).  (sheet, edge, first, last).
ENTRY_AREAS = {
    "A": (("A", "west", 10, 30),),
    "B": (("A", "west", 31, 52),),
    "C": (("A", "west", 53, 63), ("A", "south", 1, 8)),
    "D": (("A", "south", 9, 20),),
    "E": (("A", "south", 21, 36),),
    "F": (("B", "south", 2, 13),),
    "G": (("B", "south", 14, 25),),
    "H": (("B", "south", 26, 36), ("B", "east", 50, 63)),
}

NOTES = """\
Stand-in for the two printed Black Wednesday sheets, drawn from the rulebook's text; an owner
replaces it by digitising the real sheets with the same ids (docs/tcs-maps.md).

Orientation. The first number of a hex id runs north to south and the second west to east:
Soviet set-ups and the north-edge entry (1.10g) have low first numbers, the Spanish rear and the
German reinforcements (KG Heckel w/i 4 A62.30) high ones; scenario areas 'east of xx.06' and 'west of
Bxx.07' and I-262 east of the railroad (B16.29, B16.33) put higher second numbers to the east. Sheet A
lies west of sheet B: scenario 5's play area is 'Both, west of Bxx.07'. The two sheets share one row,
A's row 36 being B's row 01 (1-133 w/i 2 B25.02 beside 2-133 w/i 2 A25.34; 3-MR at B29.03 beside 2-MR
at A30.33). Columns are the first number, and rows are numbered from the bottom edge up as on TCS
sheets, so the sheets are printed with north to the left and east at the top.

Typos. Scenarios 7 and 8 set the 708-43 and 1 Ind Tank Bn up 'north of xx.37 and east of the
railroad'. No sheet has a row 37 (rows run 01-36) and a second number cannot be north of anything:
read it as 'north of 37.xx', the hexes with a first number below 37. Scenario 4's 'w/i 4 53.12' lacks
its sheet letter: it is the Hospital, B53.12.

Placed by the text: the Hospital B53.12; El Bastion B32.06 and B33.07 (trench hexes); the Mill A25.23
(City, walled on all six hexsides, its road entering from A26.23 through a gate); the FW-190 crash
A46.20; every hex a set-up, the Prep Log or a victory condition names is on the sheets; the first
trench line runs through the Spanish company areas, the second through the battalion areas and the
Prep Log's later targets; the wire is one hex in front of the first line; the AT ditch runs north of
B12.32's surroundings (scenario 6); the Peat Bog lies on sheet B in front of the 63rd Guards' sector
(history: the Guards crossed it into the woods in front of Krasni Bor); the highway enters the north
edge west of where the Soviet reinforcements enter (1.10g) and leads south toward Sablino (2.1a).

Placed plausibly (the text gives no hex): the courses of the highway, the railroad, the Izhora and
the roads; the Krasni Bor outline (City core, Building hexes round it, about 90 hexes; the Hospital
stands apart as 5.0 requires); the villages Iam Izhora (on the highway at the sheets' join, north of
3-MR and 2-MR), Staraia Myza (east of the Izhora, where the 72nd Rifle's later set-ups gather),
Samsonovka (by I-263's area A38.17), Raikolovo (5-II-269 w/i 2 A48.15, with a factory of two City
hexes west of the Izhora), Mondolovo (2-MR w/i 3 A54.19) and Potrolovo (3-MR and II-262 near A51.24 and
A51.31); the forests; the train station on the railroad east of Krasni Bor; the embankment along the
whole railroad except the station yard; entry areas A-D (west and south-west edges, Spanish) and E-H
(south edge and south-east corner, German); ground at 60 m with the Izhora's banks at 40 m; the
embankment hexes at 80 m (1.2a)."""


def sheets() -> list[Sheet]:
    """Sheets A and B: 63 columns by 36 rows, flat-top, rows numbered upward, B's row 01 = A's row 36."""
    def scheme(letter: str, origin: tuple[int, int]) -> NumberingScheme:
        return NumberingScheme(style="tcs", sheet=letter, orientation=FLAT, cols=COLS, rows=ROWS, shifted="even",
                               row_direction="up", origin=origin)
    return [Sheet("A", scheme("A", (0, 0))), Sheet("B", scheme("B", (0, -(ROWS - 1))))]


def build_board() -> Board:
    """The Black Wednesday board in memory, every feature the rulebook names at its hexes."""
    board = Board(name="Black Wednesday", orientation=FLAT, sheets=sheets(), legend=dict(LEGEND), notes=NOTES)
    board.invalidate()
    h = board.parse_hex
    all_hexes = board.hexes()
    for x in all_hexes:
        board.terrain[x] = "clear"
    for pts in FORESTS:
        for x in hexes_in(board, shape(board, pts)):
            board.terrain[x] = "forest"
    bog = hexes_in(board, shape(board, PEAT_BOG))
    for x in bog:
        board.terrain[x] = "peat bog"
    add_area(board, "Peat Bog", "feature", bog)

    # Krasni Bor: City core, Building round it, two small woods inside (not part of the town).
    town = hexes_in(board, ellipse(board, *KRASNI_BOR))
    city = hexes_in(board, ellipse(board, *KRASNI_BOR_CITY))
    woods = {h(i) for i in KRASNI_BOR_WOODS}
    for x in town:
        board.terrain[x] = "city" if x in city else "building"
    for x in woods:
        board.terrain[x] = "forest"
    add_area(board, "Krasni Bor", "town", town - woods)
    board.terrain[h(HOSPITAL)] = "city"
    add_feature(board, [h(HOSPITAL)], "hospital")
    add_area(board, "Hospital", "feature", [h(HOSPITAL)])

    for name, blobs in VILLAGES.items():
        hexes = set()
        for blob in blobs:
            hexes |= hexes_in(board, ellipse(board, *blob))
        for x in hexes:
            board.terrain[x] = "building"
        add_area(board, name, "town", hexes)
    for i in RAIKOLOVO_FACTORY:
        board.terrain[h(i)] = "city"
        board.areas["Raikolovo"].hexes.add(h(i))

    # The Izhora along hexsides, its banks lower than the plain.
    river = board.snap_polyline([grid_point(board, "A", c, r) for c, r in IZHORA])
    add_hexsides(board, river, "river")
    add_line(board, "Izhora River", "river", river)
    banks = {x for s in river for x in s.hexes()}
    for x in all_hexes:
        board.elevation[x] = VALLEY_M if x in banks else GROUND_M

    # Highway, roads, railroad and its embankment, the station.
    highway = route(board, HIGHWAY)
    board.links["highway"] = links_of(highway)
    add_area(board, "Leningrad-Moscow Highway", "feature", highway)
    board.links["road"] = set().union(*(links_of(route(board, r)) for r in ROADS))
    rail = route(board, RAILROAD)
    board.links["railroad"] = links_of(rail)
    add_area(board, "October Railroad", "feature", rail)
    gap = set(route(board, EMBANKMENT_GAP))
    bank = [x for x in rail if x not in gap]
    add_feature(board, bank, "rr embankment")
    for x in bank:
        board.elevation[x] = EMBANKMENT_M
    add_feature(board, [h(TRAIN_STATION)], "train station")
    add_area(board, "Train Station", "feature", [h(TRAIN_STATION)])

    # Trenches, El Bastion, wire, the AT ditch.
    first = set(route(board, FIRST_LINE))
    second = set(route(board, SECOND_LINE))
    bastion = {h(i) for i in EL_BASTION}
    first |= bastion
    add_feature(board, first | second, "trench")
    add_feature(board, bastion, "el bastion")
    add_area(board, "El Bastion", "feature", bastion)
    add_area(board, "first trench line", "trench line", first)
    add_area(board, "second trench line", "trench line", second)
    # Black Wednesday 2.1f: the looting limit, 5 hexes south of the second trench line in each hex row it
    # crosses (the first number runs north to south, so: the line's southernmost hex in the row, plus 5).
    south: dict[tuple[str, str], int] = {}
    for x in second:
        hid = board.hex_id(x)
        key = (hid[0], hid[4:])
        south[key] = max(south.get(key, 0), int(hid[1:3]))
    limit = [board.parse_hex(f"{sh}{n + 5:02d}.{row}") for (sh, row), n in sorted(south.items())
             if n + 5 <= COLS]
    add_area(board, "looting limit", "limit line", limit)
    wire = set(route(board, WIRE_LINE)) - first - second
    add_feature(board, wire, "wire")
    add_area(board, "wire line", "wire line", wire)
    ditch = board.snap_polyline([grid_point(board, *p) for p in AT_DITCH])
    add_hexsides(board, ditch, "at ditch")
    add_line(board, "AT ditch", "ditch", ditch)

    # The Mill: a walled City hex entered by vehicles only along its road from A26.23 (1.1f).
    mill, gate = h(MILL), h(MILL_GATE)
    board.terrain[mill] = "city"
    add_feature(board, [mill], "mill")
    add_hexsides(board, [hexside(mill, n) for n in hex_neighbors(mill)], "wall")
    add_hexsides(board, [hexside(mill, gate)], "gate")
    add_area(board, "The Mill", "feature", [mill])
    for x in (mill, gate):
        if board.terrain[x] == "forest":
            board.terrain[x] = "clear"
    add_feature(board, [h(CRASH)], "fw-190 crash")
    add_area(board, "FW-190 crash", "feature", [h(CRASH)])

    _edges_and_entries(board)
    board.boxes = {
        "dead": Box("dead", "Dead Pile", "dead"),
        "soviet-reserve": Box("soviet-reserve", "Soviet Reinforcements", "holding"),
        "axis-reserve": Box("axis-reserve", "Axis Reinforcements", "holding"),
        "soviet-sorties": Box("soviet-sorties", "Soviet Sortie Holding Box", "holding"),
        "axis-sorties": Box("axis-sorties", "Axis Sortie Holding Box", "holding"),
        "exited": Box("exited", "Exited Units", "exited"),
    }
    return board


def _edge_hexes(board: Board, sheet: str, edge: str, first: int, last: int) -> set[Hex]:
    """Hexes of one printed edge of a sheet between two numbers along it (columns or rows)."""
    ns = board.sheet(sheet).numbering
    if edge in ("north", "south"):
        col = 1 if edge == "north" else COLS
        return {ns.colrow_to_hex(col, r) for r in range(first, last + 1)}
    row = 1 if edge == "west" else ROWS
    return {ns.colrow_to_hex(c, row) for c in range(first, last + 1)}


def _edges_and_entries(board: Board) -> None:
    """The four map edges (north is sheet column 01) and entry areas A-H as named areas."""
    add_area(board, "north edge", "edge", _edge_hexes(board, "A", "north", 1, ROWS)
             | _edge_hexes(board, "B", "north", 1, ROWS))
    add_area(board, "south edge", "edge", _edge_hexes(board, "A", "south", 1, ROWS)
             | _edge_hexes(board, "B", "south", 1, ROWS))
    add_area(board, "west edge", "edge", _edge_hexes(board, "A", "west", 1, COLS))
    add_area(board, "east edge", "edge", _edge_hexes(board, "B", "east", 1, COLS))
    highway_row = 3
    add_area(board, "Soviet entry", "entry", _edge_hexes(board, "B", "north", highway_row + 1, ROWS))
    for letter, parts in ENTRY_AREAS.items():
        hexes = set()
        for part in parts:
            hexes |= _edge_hexes(board, *part)
        add_area(board, f"Entry Area {letter}", "entry", hexes)


PRINTED_KINDS = ("town", "entry")


def printed(board: Board) -> Board:
    """What the sheets print: towns, entry areas and named features, not the lines and edges.

    The plain is drawn flat (the embankment by its symbol, the Izhora's low
    banks by the river itself), and the title says where north is.
    """
    out = printed_copy(board, lambda a: a.kind in PRINTED_KINDS or a.name in ("Peat Bog", "El Bastion",
                                                                                "The Mill", "Hospital"))
    out.name = f"{board.name} · north is to the left"
    out.elevation = {x: GROUND_M for x in board.elevation}
    return out


if __name__ == "__main__":
    sys.exit(standin_main(sys.modules[__name__]))
