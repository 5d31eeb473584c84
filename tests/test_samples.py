"""The demo board: every kind of thing a board holds, laid out as a coherent map, and its files."""
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from engine.maps.hexes import hex_distance, hexside
from engine.maps.mapfile import load_map, map_differences
from engine.maps.samples import demo_board, write_demo_map

MAPS = Path(__file__).resolve().parent.parent / "maps"


@pytest.fixture(scope="module")
def board():
    return demo_board()


def _edge_hexes(board):
    ns = board.sheets[0].numbering
    cols = {h: ns.hex_to_colrow(h) for h in board.hexes()}
    return {side: {h for h, (c, r) in cols.items() if test(c, r)} for side, test in (
        ("west", lambda c, r: c == 1), ("east", lambda c, r: c == 30),
        ("north", lambda c, r: r == 1), ("south", lambda c, r: r == 20))}


def _link_component(links, start):
    adj = {}
    for s in links:
        adj.setdefault(s.a, set()).add(s.b)
        adj.setdefault(s.b, set()).add(s.a)
    seen, todo = {start}, [start]
    while todo:
        for n in adj.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _corner_degrees(board, sides):
    deg = Counter()
    for s in sides:
        for p in board.layout.hexside_segment(s):
            deg[(round(p[0], 4), round(p[1], 4))] += 1
    return deg


def test_the_sheet_is_30_by_20_flat_top_with_tcs_ids(board):
    assert len(board.hexes()) == 600
    assert board.orientation == "flat"
    assert board.hex_id(board.parse_hex("A30.20")) == "A30.20"
    assert set(board.terrain) == set(board.hexes())


def test_every_terrain_type_and_hills_from_0_to_120_metres(board):
    counts = Counter(board.terrain.values())
    assert set(counts) == {"clear", "woods", "rough", "marsh", "town", "city", "lake", "bog"}
    assert counts["clear"] > 300 and counts["woods"] >= 30 and counts["lake"] >= 6 and counts["city"] > counts["town"]
    heights = set(board.elevation.values())
    assert min(heights) == 0 and max(heights) == 120
    assert all(e % 20 == 0 for e in heights) and len(heights) == 7
    assert all(board.elevation[h] == 0 for h, t in board.terrain.items() if t == "lake")


def test_the_river_runs_along_hexsides_from_the_north_edge_to_the_south_edge(board):
    river = {s for s, f in board.hexsides.items() if "river" in f}
    assert len(river) >= 30
    deg = _corner_degrees(board, river)
    ends = [p for p, n in deg.items() if n == 1]
    assert len(ends) == 2 and all(n <= 2 for n in deg.values())  # one unbroken line
    edges = _edge_hexes(board)
    assert any(s.a in edges["north"] and s.b in edges["north"] for s in river)
    assert any(s.a in edges["south"] or s.b in edges["south"] for s in river)


def test_the_ditch_is_an_unbroken_line_of_hexsides(board):
    ditch = {s for s, f in board.hexsides.items() if "ditch" in f}
    assert len(ditch) >= 12
    deg = _corner_degrees(board, ditch)
    assert sorted(deg.values()).count(1) == 2


def test_the_road_crosses_the_map_and_bridges_the_river_and_the_railroad_runs_north_to_south(board):
    edges = _edge_hexes(board)
    road, rail = board.links["road"], board.links["railroad"]
    west = next(h for h in edges["west"] if any(h in s.hexes() for s in road))
    reach = _link_component(road, west)
    assert reach & edges["east"] and reach & edges["north"]
    assert any("river" in board.hexsides.get(s, ()) for s in road)
    town = board.areas["Ostrov"].hexes
    assert reach & town and reach & board.areas["Novgorodka"].hexes
    north = next(h for h in edges["north"] if any(h in s.hexes() for s in rail))
    assert _link_component(rail, north) & edges["south"]
    assert all(hex_distance(s.a, s.b) == 1 for s in road | rail)


def test_trenches_are_a_connected_line_with_wire_in_front(board):
    trench = {h for h, f in board.features.items() if "trench" in f}
    wire = {h for h, f in board.features.items() if "wire" in f}
    assert len(trench) >= 12 and len(wire) >= 8
    links = {hexside(a, b) for a in trench for b in board.neighbors(a) if b in trench}
    assert _link_component(links, min(trench)) == trench
    assert all(any(n in trench for n in board.neighbors(w)) for w in wire)
    assert not trench & wire


def test_one_fortification_two_airfield_hexes_and_a_mill_on_the_river(board):
    by_name = Counter(f for fs in board.features.values() for f in fs)
    assert by_name["fortification"] == 1 and by_name["airfield"] == 2 and by_name["mill"] == 1
    mill = next(h for h, f in board.features.items() if "mill" in f)
    assert any("river" in board.hexside_features(mill, n) for n in board.neighbors(mill))
    fort = next(h for h, f in board.features.items() if "fortification" in f)
    assert "trench" in board.features[fort] and board.elevation[fort] >= 60


def test_areas_lines_and_boxes(board):
    assert {a.kind for a in board.areas.values()} == {"town", "setup"}
    assert all(board.terrain[h] == "town" for h in board.areas["Ostrov"].hexes)
    assert all(board.terrain[h] == "city" for h in board.areas["Novgorodka"].hexes)
    assert len(board.areas["Hill 80 set-up"].hexes) == 19
    start = board.lines["Start Line"]
    assert start.kind == "start" and len(start.hexsides) >= 30
    assert sorted(_corner_degrees(board, start.hexsides).values()).count(1) == 2
    perimeter = board.lines["Novgorodka perimeter"]
    assert perimeter.kind == "perimeter"
    assert set(_corner_degrees(board, perimeter.hexsides).values()) == {2}  # a closed loop
    assert board.boxes["dead"].name == "Dead Pile" and board.boxes["dead"].kind == "dead"


def test_obstacles_lie_inside_the_hexes_they_were_traced_in(board):
    assert Counter(o.kind for o in board.obstacles) == {"woods": 2, "building": 1}
    for ob in board.obstacles:
        poly = ob.polygon()
        h = board.hex_at(*poly.centroid.coords[0])
        assert board.layout.polygon(h).contains(poly)
        assert board.terrain[h] == {"woods": "woods", "building": "town"}[ob.kind]
        assert ob.height > 0 and ob.sheet == "A"


def test_the_demo_board_is_the_same_every_time(board):
    again = demo_board()
    assert map_differences(board, again) == []


def test_the_committed_map_file_loads_and_equals_the_board_built_by_code(board):
    loaded = load_map(MAPS / "demo.toml")
    assert loaded.sheets[0].image == "demo.png"
    assert set(map_differences(loaded, board)) <= {"sheets", "obstacles"}
    assert loaded.sheets[0].numbering == board.sheets[0].numbering
    assert len(loaded.obstacles) == len(board.obstacles)
    for a, b in zip(loaded.obstacles, board.obstacles):
        assert (a.kind, a.height, a.sheet) == (b.kind, b.height, b.sheet)
        assert max(abs(p - q) for pa, pb in zip(a.points, b.points) for p, q in zip(pa, pb)) < 1e-4


def test_the_committed_image_lies_under_the_grid_of_the_map_file():
    loaded = load_map(MAPS / "demo.toml")
    sheet = loaded.sheets[0]
    with Image.open(loaded.image_path(sheet)) as img:
        gray = img.convert("L")
        w, h = gray.size
        assert 100_000 < (MAPS / "demo.png").stat().st_size < 600_000
        for hid in ("A01.01", "A15.10", "A30.20", "A07.13", "A22.04"):
            for cx, cy in loaded.layout.polygon_corners(loaded.parse_hex(hid))[:3]:
                u, v = sheet.transform.apply(cx, cy)
                assert 0 <= u < w and 0 <= v < h
                darkest = min(gray.getpixel((int(u) + du, int(v) + dv)) for du in (-1, 0, 1) for dv in (-1, 0, 1))
                assert darkest < 140, (hid, u, v, darkest)


def test_write_demo_map_writes_the_same_map_file_as_the_committed_one(tmp_path):
    toml, png = write_demo_map(tmp_path)
    assert toml.read_text(encoding="utf-8") == (MAPS / "demo.toml").read_text(encoding="utf-8")
    with Image.open(png) as a, Image.open(MAPS / "demo.png") as b:
        assert a.size == b.size
    assert load_map(toml).sheets[0].image == "demo.png"
