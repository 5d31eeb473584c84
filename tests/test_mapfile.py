"""Map files: loading with every problem named, saving, round trips, overlapping sheets."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import tomli
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.maps.board import Affine, Area, Board, Box, Contour, Line, Obstacle, Sheet
from engine.errors import BadFile
from engine.maps.hexes import Hex, hex_distance, hexside
from engine.keypath import find_line, format_path, parse_path
from engine.maps.mapfile import dumps_map, link_paths, load_map, map_differences, save_map
from engine.maps.numbering import NumberingScheme

# Two 4x3 TCS sheets; B's first column is A's last column (A04.xx == B01.xx).
MAP_TEXT = """\
[map]
format = 1
name = "Two sheets"
orientation = "flat"
elevation_unit = "m"

[legend]
c = "clear"
w = "woods"
r = "rough"

[[sheets]]
id = "A"
image = "a.png"
numbering = "tcs"
cols = 4
rows = 3
origin = [0, 0]
transform = [40.0, 0.0, 50.0, 0.0, 40.0, 60.0]

[[sheets]]
id = "B"
image = "b.png"
cols = 4
rows = 3
origin = [3, -1]
transform = [40.0, 0.0, 10.0, 0.0, 40.0, 100.0]

[terrain.A]
rows = [
  "ccwr",
  "cwcc",
  "crcc",
]

[terrain.B]
rows = [
  "rccw",
  "cccc",
  "cc.c",
]

[elevation.A]
rows = [
  "0 10 20 30",
  "0 10 . 30",
  "0 0 0 0",
]

[features]
trench = ["A01.01", "B02.02"]
wire = ["A04.01"]

[hexsides]
river = [
  "A01.01/A01.02",
  "A02.02/A02.03",
]

[links]
road = ["A01.01 A02.01 A03.01 A04.01 B02.01"]

[[areas]]
name = "Krasni Bor"
kind = "town"
hexes = ["A02.02", "A03.02"]

[[lines]]
name = "start line"
hexsides = ["A01.02/A02.02"]

[[boxes]]
id = "dead"
name = "Dead pile"
kind = "dead"

[[obstacles]]
kind = "building"
height = 10
sheet = "B"
points = [[10.0, 100.0], [50.0, 100.0], [50.0, 140.0]]

[[contours]]
elevation = 20
uphill = "left"
points = [[50.0, 60.0], [90.0, 80.0]]

[[contours]]
elevation = 30
closed = true
sheet = "B"
points = [[10.0, 100.0], [50.0, 100.0], [50.0, 140.0]]
"""


def write_map(folder: Path, text: str = MAP_TEXT, name: str = "m.toml", images=("a.png", "b.png")) -> Path:
    for img in images:
        (folder / img).write_bytes(b"\x89PNG\r\n\x1a\n")
    p = folder / name
    p.write_text(text, encoding="utf-8")
    return p


def problems_of(path: Path) -> list:
    with pytest.raises(BadFile) as e:
        load_map(path)
    return e.value.problems


# ---------------------------------------------------------------- a valid map

def test_valid_map_loads_with_what_it_says(tmp_path):
    board = load_map(write_map(tmp_path))
    assert board.name == "Two sheets"
    assert [s.id for s in board.sheets] == ["A", "B"]
    assert len(board.hexes()) == 4 * 3 * 2 - 3          # one column shared
    a13 = board.parse_hex("A01.03")
    assert board.terrain[board.parse_hex("A03.01")] == "woods"
    assert board.terrain[a13] == "clear"
    assert board.elevation[board.parse_hex("A04.01")] == 30.0
    assert board.parse_hex("A03.02") not in board.elevation  # '.' means no elevation
    assert board.parse_hex("B03.03") not in board.terrain     # '.' means no terrain
    assert board.features[board.parse_hex("B02.02")] == {"trench"}
    a11, a12 = board.parse_hex("A01.01"), board.parse_hex("A01.02")
    assert board.hexside_features(a12, a11) == {"river"}
    assert board.has_link("road", board.parse_hex("A04.01"), board.parse_hex("B02.01"))
    assert board.areas["Krasni Bor"].kind == "town"
    assert board.lines["start line"].kind == "line"
    assert board.boxes["dead"].name == "Dead pile"
    assert board.source == str(tmp_path / "m.toml")
    assert board.image_path(board.sheets[1]) == tmp_path / "b.png"


def test_overlapping_sheets_share_one_hex(tmp_path):
    board = load_map(write_map(tmp_path))
    shared = board.parse_hex("A04.02")
    assert board.parse_hex("B01.02") == shared
    assert board.hex_ids(shared) == ["A04.02", "B01.02"]
    assert board.terrain[shared] == "clear"
    # the wire was given by its A id and is found through its B id
    assert board.features_of(board.parse_hex("B01.01")) == {"wire"}


def test_obstacle_points_are_converted_from_sheet_pixels_to_lattice(tmp_path):
    board = load_map(write_map(tmp_path))
    ob = board.obstacles[0]
    assert ob.sheet == "B" and ob.height == 10.0
    # B's transform maps lattice (0, 0) to pixel (10, 100) at 40 px per unit
    assert ob.points == [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]


def test_classic_numbering_sheet(tmp_path):
    text = """\
[map]
format = 1
orientation = "pointy"

[legend]
c = "clear"

[[sheets]]
id = "main"
numbering = "classic"
first_col = 1
first_row = 1
cols = 3
rows = 2
shifted = "odd"

[terrain.main]
rows = ["ccc", "c.c"]

[features]
city = ["0102"]
"""
    board = load_map(write_map(tmp_path, text, images=()))
    h = board.parse_hex("0102")
    assert board.features[h] == {"city"}
    assert board.hex_id(h) == "0102"
    assert len(board.terrain) == 5


# ---------------------------------------------------------------- problems named

def test_misspelt_key_is_named_with_file_line_and_expected_keys(tmp_path):
    p = write_map(tmp_path, MAP_TEXT.replace("cols = 4\nrows = 3\norigin = [0, 0]", "colls = 4\nrows = 3\norigin = [0, 0]"))
    probs = problems_of(p)
    msgs = [str(x) for x in probs]
    unknown = [x for x in probs if x.key == "sheets[0].colls"]
    assert len(unknown) == 1
    assert unknown[0].file == str(p)
    assert unknown[0].line == 16
    assert "unknown key" in unknown[0].message and "did you mean 'cols'" in unknown[0].message
    assert "expected one of id, image, numbering" in unknown[0].message
    assert any(x.key == "sheets[0]" and "missing key 'cols'" in x.message for x in probs), msgs


def test_unknown_top_level_key_is_an_error(tmp_path):
    probs = problems_of(write_map(tmp_path, MAP_TEXT + "\n[terain]\nx = 1\n"))
    assert [(x.key, x.line) for x in probs] == [("terain", 94)]
    assert "did you mean 'terrain'" in probs[0].message


def test_unknown_terrain_code(tmp_path):
    p = write_map(tmp_path, MAP_TEXT.replace('"cwcc",', '"cwcQ",'))
    (pr,) = problems_of(p)
    assert pr.key == "terrain.A.rows[1]"
    assert pr.line == 32
    assert pr.message == "unknown terrain code 'Q' at column 4 (A04.02; legend has c, w, r)"
    assert str(pr).startswith(f"{p}:32: terrain.A.rows[1]: unknown terrain code 'Q'")


def test_hex_id_off_the_sheet(tmp_path):
    p = write_map(tmp_path, MAP_TEXT.replace('"A02.02/A02.03",', '"A45.01/A04.02",'))
    (pr,) = problems_of(p)
    assert pr.key == "hexsides.river[1]"
    assert pr.message == "'A45.01' is off the map (sheet A has columns 1-4, rows 1-3)"
    assert pr.line == 57


def test_missing_image(tmp_path):
    p = write_map(tmp_path, images=("a.png",))
    (pr,) = problems_of(p)
    assert pr.key == "sheets[1].image"
    assert pr.file == str(p)
    assert pr.message == f"file 'b.png' not found (looked in {tmp_path}/)"


@pytest.mark.parametrize("old, new, key, words", [
    ('"cwcc",', '"cwc",', "terrain.A.rows[1]", "row too short: 3 codes, but the sheet has 4 columns"),
    ('"cwcc",', '"cwccc",', "terrain.A.rows[1]", "row too long: 5 codes"),
    ('"crcc",\n]', ']', "terrain.A.rows", "2 rows, but sheet A has 3 (rows 1-3)"),
    ('"0 10 . 30"', '"0 1O . 30"', "elevation.A.rows[1]", "'1O' at column 2 (A02.02) is not a number"),
    ('"0 10 . 30"', '"0 10 30"', "elevation.A.rows[1]", "row too short: 3 values"),
    ('"A02.02/A02.03"', '"A02.02/A04.03"', "hexsides.river[1]", "the two hexes are not adjacent"),
    ('"A02.02/A02.03"', '"A02.02-A02.03"', "hexsides.river[1]", "is not a hexside"),
    ('hexes = ["A02.02", "A03.02"]', 'hexes = ["A02.02", "A03.09"]', "areas[0].hexes[1]", "'A03.09' is off the map"),
    ('hexes = ["A02.02", "A03.02"]', 'hexes = ["A02.02", "Z1"]', "areas[0].hexes[1]", "is not a hex id of this map (ids look like A01.01, B01.01)"),
    ('"rccw",', '"cccw",', "terrain.B.rows[0]", "column 1 (B01.01) says 'clear', but sheet A says 'rough' for the same hex (A04.01)"),
    ("cols = 4\nrows = 3\norigin = [3, -1]", "cols = 4\nrows = 3\norigin = [3]", "sheets[1].origin", "expected two integers"),
    ("cols = 4\nrows = 3\norigin = [3, -1]", 'cols = "4"\nrows = 3\norigin = [3, -1]', "sheets[1].cols", "expected an integer, found a string"),
    ("cols = 4\nrows = 3\norigin = [3, -1]", 'cols = true\nrows = 3\norigin = [3, -1]', "sheets[1].cols", "expected an integer, found true/false"),
    ("transform = [40.0, 0.0, 10.0, 0.0, 40.0, 100.0]", "transform = [1, 2, 0, 2, 4, 0]", "sheets[1].transform", "singular"),
    ('numbering = "tcs"', 'numbering = "tsc"', "sheets[0].numbering", "'tsc' is not one of tcs, classic"),
    ('orientation = "flat"', 'orientation = "flag"', "map.orientation", "'flag' is not one of flat, pointy"),
    ('orientation = "flat"', 'orientation = "flat"\ncontour_interval = "25"', "map.contour_interval",
     "expected a number, found a string"),
    ('orientation = "flat"', 'orientation = "flat"\ncontour_interval = 0', "map.contour_interval",
     "expected a number above 0, found 0"),
    ("format = 1", "format = 2", "map.format", "format 2 is not supported"),
    ('road = ["A01.01 A02.01 A03.01 A04.01 B02.01"]', 'road = ["A01.01 A03.01"]', "links.road[0]",
     "'A01.01' and 'A03.01' (hexes 1 and 2 of the path) are not adjacent"),
    ('road = ["A01.01 A02.01 A03.01 A04.01 B02.01"]', 'road = ["A01.01"]', "links.road[0]", "at least two hex ids"),
    ('sheet = "B"', 'sheet = "C"', "obstacles[0].sheet", "no sheet has id 'C'"),
    ("[terrain.B]", "[terrain.C]", "terrain.C", "no sheet has id 'C' (sheets: A, B)"),
    ('w = "woods"', 'ww = "woods"', "legend.ww", "one character"),
    ('kind = "dead"', 'kind = 3', "boxes[0].kind", "expected a string, found an integer"),
    ('id = "dead"', 'id = "dead"\ncolour = "red"', "boxes[0].colour", "unknown key"),
    ('elevation = 20\n', 'elevation = 20\nheight = 3\n', "contours[0].height",
     "unknown key (expected one of elevation, closed, uphill, sheet, points)"),
    ('elevation = 20\n', 'elevation = "20"\n', "contours[0].elevation", "expected a number, found a string"),
    ('elevation = 20\n', 'elevation = nan\n', "contours[0].elevation", "expected a number, not a finite number"),
    ('uphill = "left"', 'uphill = "up"', "contours[0].uphill", "'up' is not one of right, left"),
    ('closed = true', 'closed = "yes"', "contours[1].closed", "expected true or false, found a string"),
    ('points = [[50.0, 60.0], [90.0, 80.0]]', 'points = [[50.0, 60.0]]', "contours[0].points",
     "expected two or more [u, v] points"),
    ('points = [[50.0, 60.0], [90.0, 80.0]]', 'points = [[50.0, 60.0], [90.0, true]]', "contours[0].points",
     "expected two or more [u, v] points"),
    ('closed = true\nsheet = "B"\npoints = [[10.0, 100.0], [50.0, 100.0], [50.0, 140.0]]',
     'closed = true\nsheet = "B"\npoints = [[10.0, 100.0], [50.0, 100.0]]', "contours[1].points",
     "a closed ring needs three or more [u, v] points"),
    ('closed = true\nsheet = "B"', 'closed = true\nsheet = "Z"', "contours[1].sheet", "no sheet has id 'Z'"),
    ('elevation = 20\nuphill = "left"', 'uphill = "left"', "contours[0]", "missing key 'elevation'"),
])
def test_each_kind_of_problem_names_key_and_problem(tmp_path, old, new, key, words):
    assert old in MAP_TEXT
    probs = problems_of(write_map(tmp_path, MAP_TEXT.replace(old, new, 1)))
    hits = [x for x in probs if x.key == key and words in x.message]
    assert hits, [str(x) for x in probs]
    assert all(x.file.endswith("m.toml") for x in probs)


def test_all_problems_are_collected_not_just_the_first(tmp_path):
    text = (MAP_TEXT.replace('"cwcc",', '"cwcQ",')
            .replace('"A02.02/A02.03",', '"A45.01/A04.02",')
            .replace('kind = "town"', 'kind = "town"\nsize = 3'))
    probs = problems_of(write_map(tmp_path, text))
    assert sorted(x.key for x in probs) == ["areas[0].size", "hexsides.river[1]", "terrain.A.rows[1]"]


def test_broken_sheets_stop_hex_checks_but_still_report_other_problems(tmp_path):
    text = MAP_TEXT.replace("cols = 4\nrows = 3\norigin = [0, 0]", "rows = 3\norigin = [0, 0]").replace(
        'name = "Dead pile"', "name = 5")
    probs = problems_of(write_map(tmp_path, text))
    assert [(x.key, x.message) for x in probs] == [
        ("sheets[0]", "missing key 'cols'"),
        ("boxes[0].name", "expected a string, found an integer"),
    ]


def test_syntax_error_gives_line(tmp_path):
    (pr,) = problems_of(write_map(tmp_path, MAP_TEXT.replace("cols = 4\n", "cols = = 4\n", 1)))
    assert pr.line == 16 and "not valid TOML" in pr.message


def test_missing_file_and_not_a_map(tmp_path):
    (pr,) = problems_of(tmp_path / "none.toml")
    assert pr.message == "file not found"
    probs = problems_of(write_map(tmp_path, 'title = "x"\n'))
    assert {x.key for x in probs} == {"title", ""}
    assert any("missing key 'map'" in x.message for x in probs)


def test_classic_sheets_with_clashing_ids_are_refused(tmp_path):
    text = """\
[map]
format = 1

[[sheets]]
id = "one"
numbering = "classic"
cols = 3
rows = 3

[[sheets]]
id = "two"
numbering = "classic"
cols = 3
rows = 3
origin = [5, 0]
"""
    (pr,) = problems_of(write_map(tmp_path, text, images=()))
    assert pr.key == "sheets[1].id" and "'0101' names two different hexes" in pr.message


# ---------------------------------------------------------------- saving and round trips

def rich_board() -> Board:
    """A board with something in every field, built in code."""
    a = Sheet("A", NumberingScheme(style="tcs", sheet="A", cols=6, rows=5), "a.png",
              Affine(50.0, 1.5, 20.0, -1.0, 50.0, 30.0))
    origin_b = a.numbering.colrow_to_hex(6, 1)
    b = Sheet("B", NumberingScheme(style="tcs", sheet="B", cols=6, rows=5, origin=(origin_b.q, origin_b.r)),
              "b.png", Affine(49.0, 0.0, -200.0, 0.0, 51.0, 10.0))
    board = Board(name='Demo "quoted" map', sheets=[a, b], legend={"c": "clear", "w": "woods", "t": "town"})
    for i, h in enumerate(board.hexes()):
        board.terrain[h] = ("clear", "woods", "town")[i % 3]
        if i % 4:
            board.elevation[h] = float(i % 7) * 10 + (0.5 if i % 5 == 0 else 0.0)
    h = board.parse_hex
    board.features = {h("A02.02"): {"trench", "wire"}, h("B03.03"): {"city"}}
    board.hexsides = {hexside(h("A01.01"), h("A01.02")): {"river"},
                      hexside(h("A06.02"), h("B02.02")): {"river", "AT ditch"}}
    road = ["A01.01", "A02.01", "A03.02", "A04.01", "A05.02", "A06.01", "B02.01", "B03.02"]
    board.links = {"road": {hexside(h(x), h(y)) for x, y in zip(road, road[1:])}
                   | {hexside(h("A03.02"), h("A03.03")), hexside(h("A03.03"), h("A03.04"))},
                   "railroad": {hexside(h("A01.05"), h("A02.05"))}}
    board.areas = {"Krasni Bor": Area("Krasni Bor", "town", {h("B03.03"), h("B04.03")}),
                   "Soviet entry": Area("Soviet entry", "entry", {h("A01.01"), h("A01.02")})}
    board.lines = {"start line": Line("start line", "start", {hexside(h("A01.01"), h("A02.01"))})}
    board.boxes = {"dead": Box("dead", "Dead pile", "dead")}
    board.obstacles = [Obstacle("building", 12.5, [(0.0, 0.0), (1.0, 0.25), (0.5, 1.0)], "B"),
                       Obstacle("woods", 20.0, [(2.0, 2.0), (3.0, 2.0), (3.0, 3.0), (2.0, 3.0)], None)]
    board.contours = [Contour(40.0, [(0.0, 3.0), (4.5, 2.25), (9.0, 3.5)], False, "left", None),
                      Contour(60.0, [(6.0, 1.0), (7.5, 1.0), (7.0, 2.5)], True, "right", "B")]
    board.invalidate()
    return board


def test_save_then_load_gives_an_equal_board(tmp_path):
    board = rich_board()
    for img in ("a.png", "b.png"):
        (tmp_path / img).write_bytes(b"png")
    p = tmp_path / "rich.toml"
    save_map(board, p)
    again = load_map(p)
    assert map_differences(board, again) == []
    # obstacle points go through the sheet's pixels and back: equal to a hundred-thousandth of a hex
    for o1, o2 in zip(board.obstacles, again.obstacles):
        assert o2.points == [pytest.approx(pt, abs=1e-5) for pt in o1.points]
    for c1, c2 in zip(board.contours, again.contours):
        assert c2.points == [pytest.approx(pt, abs=1e-5) for pt in c1.points]
    assert map_differences(board, again, tolerance=0.0) == ["obstacles", "contours"]
    again.obstacles = board.obstacles
    again.contours = board.contours
    assert again == board


def test_load_save_load_compares_every_field_and_text_is_stable(tmp_path):
    first = load_map(write_map(tmp_path))
    out = tmp_path / "out.toml"
    save_map(first, out)
    second = load_map(out)
    assert map_differences(first, second) == []
    for name in ("name", "orientation", "sheets", "legend", "terrain", "features", "elevation",
                 "hexsides", "links", "areas", "lines", "boxes", "obstacles", "contours", "elevation_unit"):
        assert getattr(first, name) == getattr(second, name), name
    text = out.read_text()
    save_map(second, out)
    assert out.read_text() == text


def test_contours_load_from_sheet_pixels_to_lattice(tmp_path):
    board = load_map(write_map(tmp_path))
    open_line, ring = board.contours
    assert (open_line.elevation, open_line.closed, open_line.uphill, open_line.sheet) == (20.0, False, "left", None)
    assert open_line.points[0] == pytest.approx(board.center(board.parse_hex("A01.01")))
    assert open_line.points[1] == pytest.approx((1.0, 0.5))          # sheet A: u = 40x + 50, v = 40y + 60
    assert (ring.elevation, ring.closed, ring.sheet) == (30.0, True, "B")
    assert ring.points[0] == pytest.approx((0.0, 0.0))               # sheet B: u = 40x + 10, v = 40y + 100


def test_saved_contours_are_written_in_pixels_in_their_order():
    doc = tomli.loads(dumps_map(rich_board()))
    first, second = doc["contours"]
    assert first == {"elevation": 40.0, "closed": False, "uphill": "left",
                     "points": [[20.0 + 1.5 * 3.0, 30.0 + 50.0 * 3.0], [20.0 + 50.0 * 4.5 + 1.5 * 2.25,
                                                                        30.0 - 4.5 + 50.0 * 2.25],
                                [20.0 + 450.0 + 5.25, 30.0 - 9.0 + 175.0]]}
    assert second["sheet"] == "B" and second["closed"] is True
    assert second["points"][0] == [49.0 * 6.0 - 200.0, 51.0 * 1.0 + 10.0]


def test_save_is_deterministic_and_readable():
    text = dumps_map(rich_board())
    assert text == dumps_map(rich_board())
    doc = tomli.loads(text)
    assert doc["map"]["format"] == 1
    assert doc["terrain"]["A"]["rows"][0] == "ctwctw"
    assert '  "A01.01/A01.02",' in text
    assert 'road = [\n  "A01.01 A02.01 A03.02' in text


def test_save_adds_a_legend_code_for_an_unknown_terrain(tmp_path):
    board = rich_board()
    board.terrain[board.parse_hex("A01.01")] = "marsh"
    doc = tomli.loads(dumps_map(board))
    assert doc["legend"]["m"] == "marsh"
    assert doc["terrain"]["A"]["rows"][0][0] == "m"


def test_failed_save_leaves_the_old_file(tmp_path):
    p = tmp_path / "keep.toml"
    p.write_text("old")
    board = rich_board()
    board.features[Hex(100, 100)] = {"trench"}       # not on the map: cannot be written
    with pytest.raises(Exception):
        save_map(board, p)
    assert p.read_text() == "old"
    assert [f.name for f in tmp_path.iterdir()] == ["keep.toml"]


def test_link_paths_cover_every_link_once():
    board = rich_board()
    links = board.links["road"]
    paths = link_paths(links)
    used = [hexside(a, b) for p in paths for a, b in zip(p, p[1:])]
    assert sorted(used) == sorted(links)
    assert all(hex_distance(a, b) == 1 for p in paths for a, b in zip(p, p[1:]))
    assert len(paths) == 2        # the main road and its branch


# ---------------------------------------------------------------- key paths

def test_key_paths_format_parse_and_find_their_line():
    assert format_path(("sheets", 0, "cols")) == "sheets[0].cols"
    assert format_path(("hexsides", "AT ditch", 2)) == 'hexsides."AT ditch"[2]'
    assert parse_path('hexsides."AT ditch"[2]') == ("hexsides", "AT ditch", 2)
    assert find_line(MAP_TEXT, "sheets[1].transform") == 27
    assert find_line(MAP_TEXT, "features.trench[1]") == 51
    assert find_line(MAP_TEXT, "obstacles[0].points[2]") == 81
    assert find_line(MAP_TEXT, "areas[0].nothing") == 63


# ---------------------------------------------------------------- never a traceback

BASE_DOC = tomli.loads(MAP_TEXT)

garbage = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True)
    | st.text(max_size=12) | st.sampled_from(["A01.01", "A04.02/A04.03", "B02.01", "", ".", "Q", "0 1 2 3"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _strip_none(v):
    if isinstance(v, dict):
        return {k: _strip_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_strip_none(x) for x in v if x is not None]
    return v


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_documents_load_or_raise_badfile(tmp_path, data):
    doc = copy.deepcopy(BASE_DOC)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        target = data.draw(st.sampled_from(paths))
        parent = doc
        for seg in target[:-1]:
            parent = parent[seg]
        action = data.draw(st.sampled_from(["drop", "replace", "replace", "add"]))
        last = target[-1]
        if action == "drop":
            del parent[last]
        elif action == "replace":
            parent[last] = data.draw(garbage)
        elif isinstance(parent, dict):
            parent[data.draw(st.text(min_size=1, max_size=8))] = data.draw(garbage)
        else:
            parent.append(data.draw(garbage))
    doc = _strip_none(doc)
    p = write_map(tmp_path, tomli_w.dumps(doc), name="fuzz.toml")
    try:
        board = load_map(p)
    except BadFile as e:
        assert e.problems and all(pr.file == str(p) for pr in e.problems)
        assert all(str(pr) for pr in e.problems)
    else:
        assert isinstance(board, Board) and board.sheets


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pos=st.integers(0, len(MAP_TEXT) - 1), junk=st.text(min_size=1, max_size=5))
def test_mangled_text_loads_or_raises_badfile(tmp_path, pos, junk):
    p = write_map(tmp_path, MAP_TEXT[:pos] + junk + MAP_TEXT[pos:], name="fuzz.toml")
    try:
        load_map(p)
    except BadFile as e:
        assert e.problems


# ---------------------------------------------------------------- random boards round trip

names = st.text(min_size=1, max_size=8).filter(lambda s: s.strip() == s and s)


@st.composite
def random_boards(draw):
    orientation = draw(st.sampled_from(["flat", "pointy"]))
    n_sheets = draw(st.integers(1, 3))
    classic = n_sheets == 1 and draw(st.booleans())
    sheets = []
    for i in range(n_sheets):
        sid = "main" if classic else "ABC"[i]
        ns = NumberingScheme(style="classic" if classic else "tcs", sheet=sid, orientation=orientation,
                             first_col=draw(st.integers(0, 3)), first_row=draw(st.integers(0, 3)),
                             cols=draw(st.integers(1, 6)), rows=draw(st.integers(1, 6)),
                             shifted=draw(st.sampled_from(["even", "odd"])),
                             origin=(draw(st.integers(-4, 4)), draw(st.integers(-4, 4))))
        a, e = draw(st.floats(20, 80)), draw(st.floats(20, 80))
        b, d = draw(st.floats(-3, 3)), draw(st.floats(-3, 3))
        sheets.append(Sheet(sid, ns, None, Affine(a, b, draw(st.floats(-500, 500)), d, e, draw(st.floats(-500, 500)))))
    board = Board(name=draw(names), orientation=orientation, sheets=sheets,
                  elevation_unit=draw(st.sampled_from(["m", "ft", "levels"])))
    codes = draw(st.lists(st.characters(blacklist_characters=". ", blacklist_categories=("Cs", "Zs", "Cc")),
                          min_size=1, max_size=4, unique=True))
    board.legend = {c: draw(names) for c in codes}
    hexes = board.hexes()
    terrains = sorted(set(board.legend.values()))
    for h in hexes:
        if draw(st.booleans()):
            board.terrain[h] = draw(st.sampled_from(terrains))
        if draw(st.booleans()):
            board.elevation[h] = draw(st.floats(-1000, 10000, allow_nan=False) | st.integers(-50, 500).map(float))
    pick = st.sampled_from(hexes)
    for _ in range(draw(st.integers(0, 4))):
        board.features.setdefault(draw(pick), set()).add(draw(names))
    sides = sorted({hexside(h, n) for h in hexes for n in board.neighbors(h)})
    if sides:
        side = st.sampled_from(sides)
        for _ in range(draw(st.integers(0, 4))):
            board.hexsides.setdefault(draw(side), set()).add(draw(names))
        for kind in draw(st.lists(names, max_size=2, unique=True)):
            board.links[kind] = set(draw(st.lists(side, min_size=1, max_size=12)))
        for name in draw(st.lists(names, max_size=2, unique=True)):
            board.lines[name] = Line(name, draw(names), set(draw(st.lists(side, max_size=4))))
    for name in draw(st.lists(names, max_size=2, unique=True)):
        board.areas[name] = Area(name, draw(names), set(draw(st.lists(pick, max_size=4))))
    for bid in draw(st.lists(names, max_size=2, unique=True)):
        board.boxes[bid] = Box(bid, draw(names), draw(names))
    for _ in range(draw(st.integers(0, 2))):
        pts = [(draw(st.floats(-10, 10)), draw(st.floats(-10, 10))) for _ in range(draw(st.integers(3, 5)))]
        board.obstacles.append(Obstacle(draw(names), draw(st.floats(0, 100)), pts,
                                        draw(st.sampled_from([None] + [s.id for s in sheets]))))
    for _ in range(draw(st.integers(0, 2))):
        closed = draw(st.booleans())
        pts = [(draw(st.floats(-10, 10)), draw(st.floats(-10, 10))) for _ in range(draw(st.integers(3 if closed else 2, 5)))]
        board.contours.append(Contour(draw(st.floats(-100, 3000, allow_nan=False)), pts, closed,
                                      draw(st.sampled_from(["right", "left"])),
                                      draw(st.sampled_from([None] + [s.id for s in sheets]))))
    return board


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=random_boards())
def test_random_boards_survive_save_and_load(tmp_path, board):
    p = tmp_path / "random.toml"
    save_map(board, p)
    again = load_map(p)
    assert map_differences(board, again) == []
    save_map(again, p)
    text = p.read_text(encoding="utf-8")
    third = load_map(p)
    assert third == again                      # from a file on, the round trip is exact
    assert dumps_map(third) == text


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("style, shifted, first", [("tcs", "even", 1), ("tcs", "odd", 0), ("classic", "odd", 3)])
def test_sheet_grid_and_labels_agree_with_the_numbering(orientation, style, shifted, first):
    from engine.maps.mapfile import sheet_grid, sheet_labels

    ns = NumberingScheme(style=style, sheet="B", orientation=orientation, first_col=first, first_row=first + 1,
                         cols=5, rows=4, shifted=shifted, origin=(2, -3))
    hexes = [h for row in sheet_grid(ns) for h in row]
    labels = [x for row in sheet_labels(ns) for x in row]
    assert hexes == ns.hexes()
    assert labels == [ns.format(h) for h in hexes]


def test_rows_up_sheets_and_notes_round_trip(tmp_path):
    """A TCS sheet numbered from the bottom edge up, and the map's notes, survive save and load."""
    ns = NumberingScheme(style="tcs", sheet="A", cols=4, rows=3, row_direction="up")
    board = Board(name="Up", sheets=[Sheet("A", ns)], legend={"c": "clear", "w": "woods"}, notes="Orientation: north is to the left.\nSecond line \"quoted\".")
    board.invalidate()
    board.terrain = {h: "clear" for h in board.hexes()}
    board.terrain[board.parse_hex("A01.01")] = "woods"
    path = tmp_path / "up.toml"
    save_map(board, path)
    text = path.read_text(encoding="utf-8")
    assert 'row_direction = "up"' in text and 'notes = """' in text
    assert text.index('"wccc"') > text.index('"cccc"')        # rows are written top to bottom: row 01 last
    loaded = load_map(path)
    assert map_differences(board, loaded) == []
    assert loaded.notes == board.notes
    assert loaded.terrain[loaded.parse_hex("A01.01")] == "woods"


def test_bad_row_direction_is_named(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[map]\nformat = 1\n\n[[sheets]]\nid = "A"\ncols = 2\nrows = 2\nrow_direction = "left"\n',
                    encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_map(path)
    assert "sheets[0].row_direction" in str(e.value) and "'left' is not one of down, up" in str(e.value)


# ---------------------------------------------------------------- the hexes painted by hand

def test_the_hexes_painted_by_hand_are_saved_and_read_back(tmp_path):
    """The map editor's examples (hexes a person painted) were the session's alone: a map painted, saved and
    opened again had none, and every hex looked like the new map's starting terrain. They are the board's
    now, written under the first sheet that has them (A04.02 is B01.02 too: once)."""
    board = load_map(write_map(tmp_path))
    a = board.sheet("A").numbering
    board.painted = {a.parse("A01.01"), a.parse("A02.01"), a.parse("A04.02")}
    text = dumps_map(board)
    assert 'painted = [\n  "A01.01",\n  "A02.01",\n  "A04.02",\n]' in text
    assert "[terrain.B]" in text and text.count("painted = ") == 1
    again = load_map(write_map(tmp_path, text, name="again.toml"))
    assert again.painted == board.painted
    assert dumps_map(again) == text


@pytest.mark.parametrize("painted, words", [
    ('["A09.01"]', "'A09.01' is not a hex of sheet A (ids like A01.01, columns 1-4, rows 1-3)"),
    ('["woods"]', "'woods' is not a hex of sheet A"),
    ('[3]', "expected a hex id (a string), found an integer"),
    ('"A01.01"', "expected an array, found a string"),
])
def test_a_painted_hex_that_is_not_one_is_named(tmp_path, painted, words):
    text = MAP_TEXT.replace('[terrain.A]\nrows = [', f'[terrain.A]\npainted = {painted}\nrows = [')
    (pr,) = problems_of(write_map(tmp_path, text))
    assert pr.key.startswith("terrain.A.painted")
    assert words in pr.message


def test_a_painted_hex_without_terrain_is_named(tmp_path):
    text = MAP_TEXT.replace('[terrain.B]\nrows = [', '[terrain.B]\npainted = ["B03.03"]\nrows = [')
    (pr,) = problems_of(write_map(tmp_path, text))
    assert pr.key == "terrain.B.painted[0]"
    assert pr.message == "'B03.03' is listed as painted but has no terrain in the rows"
