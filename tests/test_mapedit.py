"""Map editing operations on a Board: painting, hexsides, links, names, obstacles, contours, checks, undo."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine.maps.board import Board
from engine.errors import BadHexId
from engine.maps.hexes import Hex, hex_distance, hexside
from engine.maps.mapedit import (DEFAULT_MAX_JUMP, Calibration, Contour, MapEdit, SheetSpec, brush, check_map,
                            derive_elevations, jump_limit,
                            flood_fill, guess_transform, hexside_at, new_board, paint_terrain, path_links,
                            place_sheet, suggest_id, trace_hexsides, trace_path)
from engine.maps.mapfile import load_map, map_differences, save_map

ROOT = Path(__file__).resolve().parent.parent


def small(cols=10, rows=8, numbering="tcs") -> Board:
    return new_board("Test", "flat", [SheetSpec("A", "scan.png", cols, rows, numbering=numbering)], terrain=None)


def h(board, text):
    return board.parse_hex(text)


def test_new_board_has_its_sheet_and_numbering():
    b = small()
    assert len(b.hexes()) == 80
    assert b.hex_id(h(b, "A03.04")) == "A03.04"
    with pytest.raises(ValueError, match="used twice"):
        new_board("x", "flat", [SheetSpec("A", "a.png", 3, 3), SheetSpec("A", "b.png", 3, 3)])


def test_guessed_transform_puts_the_grid_inside_the_image():
    b = small()
    t = guess_transform(b, b.sheets[0], (1000, 800))
    for hh in b.hexes():
        u, v = t.apply(*b.center(hh))
        assert 0 < u < 1000 and 0 < v < 800
    b.sheets[0].transform = t
    u, v = t.apply(*b.center(h(b, "A05.05")))
    assert suggest_id(b, b.sheets[0], (u + 3, v - 2)) == "A05.05"
    assert suggest_id(b, b.sheets[0], (-500, -500)) is None


def test_calibration_recovers_a_rotated_stretched_transform():
    b = small()
    ang = math.radians(1.5)
    sx, sy = 40.0, 41.2
    truth = lambda x, y: (sx * (x * math.cos(ang) - y * math.sin(ang)) + 60,
                          sy * (x * math.sin(ang) + y * math.cos(ang)) + 45)
    cal = Calibration("A")
    assert cal.fit_to(b) is None
    for hid in ("A01.01", "A10.01", "A01.08", "A10.08"):
        cal.clicks.append((hid, truth(*b.center(h(b, hid)))))
    fit = cal.fit_to(b)
    assert fit.rms < 1e-6
    worst = max(math.dist(b.sheets[0].transform.apply(*b.center(x)), truth(*b.center(x))) for x in b.hexes())
    assert worst < 1e-6


def test_brush_and_paint_and_flood_fill():
    b = small()
    c = h(b, "A05.04")
    assert len(brush(b, c, 1)) == 7
    assert len(brush(b, h(b, "A01.01"), 1)) == 3       # a corner hex: the rest is off the map
    assert paint_terrain(b, brush(b, c, 1), "woods") == set(brush(b, c, 1))
    assert paint_terrain(b, [c], "woods") == set()       # no change the second time
    filled = flood_fill(b, h(b, "A01.01"), "clear")
    assert len(filled) == 80 - 7
    assert b.terrain[h(b, "A01.01")] == "clear" and b.terrain[c] == "woods"
    # the woods are one region of equal terrain, not the whole board
    assert flood_fill(b, c, "marsh") == set(brush(b, c, 1))


def test_hexside_hit_and_toggle():
    b = small()
    a, n = h(b, "A03.03"), h(b, "A03.04")
    side = hexside(a, n)
    mx, my = b.layout.hexside_midpoint(side)
    assert hexside_at(b, mx + 0.05, my - 0.05) == side
    ax, ay = b.center(a)
    assert hexside_at(b, ax, ay) is None                 # the centre is far from every hexside
    ed = MapEdit(b)
    assert ed.toggle_hexside(side, "river") is True
    assert b.hexside_features(a, n) == {"river"}
    assert ed.toggle_hexside(side, "river") is False
    assert side not in b.hexsides
    ed.undo()
    assert b.hexside_features(a, n) == {"river"}


def test_traced_line_snaps_to_the_hexsides_it_follows():
    b = small()
    # a line drawn just right of the boundary between columns 4 and 5, top to bottom
    c4, c5 = b.center(h(b, "A04.02")), b.center(h(b, "A05.02"))
    x = (c4[0] + c5[0]) / 2 + 0.05
    y0, y1 = b.center(h(b, "A04.02"))[1], b.center(h(b, "A04.06"))[1]
    sides = trace_hexsides(b, [(x, y0), (x + 0.02, (y0 + y1) / 2), (x, y1)])
    assert sides
    for s in sides:
        cols = sorted(int(b.hex_id(hh)[1:3]) for hh in s.hexes())
        assert cols in ([4, 5], [4, 4], [5, 5])
    assert any(sorted(int(b.hex_id(hh)[1:3]) for hh in s.hexes()) == [4, 5] for s in sides)


def test_traced_road_is_a_chain_of_adjacent_hexes():
    b = small()
    start, end = h(b, "A01.02"), h(b, "A09.06")
    path = trace_path(b, [b.center(start), (5.0, 6.0), b.center(end)])
    assert path[0] == start and path[-1] == end
    assert all(hex_distance(p, q) == 1 for p, q in zip(path, path[1:]))
    assert len(set(path)) == len(path)
    ed = MapEdit(b)
    new = ed.accept_links("road", path_links(path))
    assert len(new) == len(path) - 1
    assert b.has_link("road", path[0], path[1])
    assert ed.erase_links("road", path_links(path[:2])) == {hexside(path[0], path[1])}
    assert not b.has_link("road", path[0], path[1])


def test_names_boxes_and_obstacles():
    b = small()
    ed = MapEdit(b)
    town = ed.name_area("Ostrov", "town", [h(b, "A02.02"), h(b, "A02.03"), Hex(50, 50)])
    assert town.hexes == {h(b, "A02.02"), h(b, "A02.03")}     # off-map hexes are left out
    with pytest.raises(ValueError, match="needs a name"):
        ed.name_area("  ", "town", [h(b, "A02.02")])
    ed.name_line("Start line", "start", [hexside(h(b, "A04.04"), h(b, "A05.04"))])
    ed.add_box("dead", "Dead pile", "dead")
    ob = ed.add_obstacle("building", 10, [(1, 1), (2, 1), (2, 2)])
    assert ob.sheet == "A" and ob.height == 10.0
    with pytest.raises(ValueError, match="crosses itself"):
        ed.add_obstacle("woods", 10, [(0, 0), (2, 2), (2, 0), (0, 2)])
    with pytest.raises(ValueError, match="three or more"):
        ed.add_obstacle("woods", 10, [(0, 0), (2, 2)])
    assert len(b.obstacles) == 1 and len(ed.undo_stack) == 4   # failed edits record nothing


def test_closed_contours_give_hex_elevations():
    b = small(12, 10)
    c = b.center(h(b, "A06.05"))
    ring = lambda r: [(c[0] + r * math.cos(t / 12 * 2 * math.pi), c[1] + r * math.sin(t / 12 * 2 * math.pi))
                      for t in range(12)]
    got = derive_elevations(b, [Contour(40, ring(4.0), closed=True), Contour(60, ring(1.2), closed=True)], base=20)
    assert got[h(b, "A06.05")] == 60
    assert got[h(b, "A06.03")] == 40          # two rows up: inside the outer ring only
    assert got[h(b, "A01.01")] == 20          # a corner: below both
    assert b.elevation[h(b, "A06.05")] == 60.0


def test_open_contour_line_has_higher_ground_on_its_uphill_side():
    b = small(10, 8)
    x = b.center(h(b, "A05.01"))[0] + 0.7
    down = [(x, -1.0), (x, 16.0)]             # traced top to bottom: its right is the west on screen
    got = derive_elevations(b, [Contour(20, down, uphill="right")], base=0)
    assert got[h(b, "A02.04")] == 20 and got[h(b, "A09.04")] == 0
    got = derive_elevations(b, [Contour(20, down, uphill="left")], base=0)
    assert got[h(b, "A02.04")] == 0 and got[h(b, "A09.04")] == 20


def test_check_map_lists_each_kind_of_finding():
    b = small(4, 3)
    paint_terrain(b, b.hexes(), "clear")
    del b.terrain[h(b, "A02.02")]
    off = Hex(-1, 0)
    edge = hexside(h(b, "A01.01"), off)
    b.hexsides[edge] = {"river"}
    b.elevation[h(b, "A03.02")] = 100.0
    b.areas["Nowhere"] = __import__("engine.maps.board", fromlist=["Area"]).Area("Nowhere", "town", {Hex(40, 40)})
    found = check_map(b, max_jump=40)
    kinds = [f.kind for f in found]
    assert kinds.count("no terrain") == 1 and found[0].hexes == (h(b, "A02.02"),)
    assert "edge hexside" in kinds
    jumps = [f for f in found if f.kind == "elevation jump"]
    assert len(jumps) == len(b.neighbors(h(b, "A03.02")))
    assert any(f.kind == "empty area" and "Nowhere" in f.message for f in found)
    assert not [f for f in found if f.kind == "id clash"]


def test_an_elevation_jump_is_measured_in_the_maps_own_contours():
    b = small(4, 3)
    paint_terrain(b, b.hexes(), "clear")
    b.elevation[h(b, "A03.02")] = 50.0                   # two 25 m contours above its neighbours at 0
    assert jump_limit(b) == DEFAULT_MAX_JUMP == 40.0
    assert len([f for f in check_map(b) if f.kind == "elevation jump"]) == len(b.neighbors(h(b, "A03.02")))
    b.contour_interval = 25.0
    assert jump_limit(b) == 50.0
    assert not [f for f in check_map(b) if f.kind == "elevation jump"]
    b.elevation[h(b, "A03.02")] = 75.0                   # three contours between two hex centres
    jumps = [f for f in check_map(b) if f.kind == "elevation jump"]
    assert len(jumps) == len(b.neighbors(h(b, "A03.02"))) and "75 m (more than 50)" in jumps[0].message


def test_check_map_finds_clashing_ids():
    b = new_board("Two", "flat", [SheetSpec("A", "a.png", 4, 3), SheetSpec("B", "b.png", 4, 3, origin=(4, -2))])
    b.sheets[1].numbering = __import__("dataclasses").replace(b.sheets[1].numbering, sheet="A")
    b.invalidate()
    clashes = [f for f in check_map(b) if f.kind == "id clash"]
    assert len(clashes) == 12
    assert all(len(f.hexes) == 2 and f.hexes[0] != f.hexes[1] for f in clashes)


def test_place_sheet_aligns_an_overlapping_sheet_on_a_shared_hex():
    b = new_board("Two", "flat", [SheetSpec("A", "a.png", 6, 4), SheetSpec("B", "b.png", 6, 4)])
    place_sheet(b, b.sheets[1], "B01.02", "A06.02")   # B's first column overlaps A's last
    assert b.parse_hex("B01.02") == b.parse_hex("A06.02")
    assert b.hex_ids(b.parse_hex("A06.03")) == ["A06.03", "B01.03"]
    assert len(b.hexes()) == 6 * 4 * 2 - 4
    with pytest.raises(BadHexId):
        place_sheet(b, b.sheets[1], "B01.02", "C01.01")


def test_undo_and_redo_every_kind_of_edit():
    b = small()
    ed = MapEdit(b)
    c = h(b, "A04.04")
    ed.paint(c, "woods", radius=1)
    ed.fill(h(b, "A01.01"), "clear")
    ed.feature([c], "trench")
    ed.elevation([c], 40)
    ed.accept_hexsides([hexside(c, h(b, "A04.05"))], "river")
    ed.name_area("Wood", "area", [c])
    ed.add_contour(Contour(20, [(0, 0), (3, 0), (3, 3)], closed=True))
    after = (dict(b.terrain), {k: set(v) for k, v in b.features.items()}, dict(b.elevation),
             {k: set(v) for k, v in b.hexsides.items()}, set(b.areas), len(ed.contours))
    labels = []
    while ed.can_undo():
        labels.append(ed.undo())
    assert labels[0] == "contour 20" and labels[-1] == "paint woods"
    assert not b.terrain and not b.features and not b.elevation and not b.hexsides and not b.areas
    assert not ed.contours
    while ed.can_redo():
        ed.redo()
    assert (dict(b.terrain), {k: set(v) for k, v in b.features.items()}, dict(b.elevation),
            {k: set(v) for k, v in b.hexsides.items()}, set(b.areas), len(ed.contours)) == after
    ed.undo()
    ed.paint(c, "marsh")
    assert not ed.can_redo()                     # a new edit forgets what was undone


def test_calibration_clicks_undo_to_the_previous_fit():
    b = small()
    ed = MapEdit(b)
    with pytest.raises(BadHexId):
        ed.click_centre("A", "A99.99", (1, 1))
    pts = {"A01.01": (50, 40), "A10.01": (450, 40), "A01.08": (50, 560)}
    for hid, uv in pts.items():
        fit = ed.click_centre("A", hid, uv)
    first = b.sheets[0].transform
    assert fit is not None and fit.rms < 1e-6
    ed.click_centre("A", "A10.08", (470, 600))
    assert b.sheets[0].transform != first
    ed.undo()
    assert b.sheets[0].transform == first
    assert len(ed.calibrations["A"].clicks) == 3


def test_edited_board_saves_and_loads_with_the_same_facts(tmp_path):
    from PIL import Image

    Image.new("RGB", (500, 420), "white").save(tmp_path / "scan.png")
    b = small()
    b.sheets[0].transform = guess_transform(b, b.sheets[0], (500, 420))
    ed = MapEdit(b)
    ed.fill(h(b, "A01.01"), "clear")
    ed.paint(h(b, "A05.05"), "woods", radius=1)
    ed.accept_hexsides(trace_hexsides(b, [b.center(h(b, "A02.02")), b.center(h(b, "A02.06"))]), "river")
    ed.accept_links("road", path_links(trace_path(b, [b.center(h(b, "A01.04")), b.center(h(b, "A10.04"))])))
    ed.name_area("Ostrov", "town", [h(b, "A03.03"), h(b, "A03.04")])
    ed.add_obstacle("building", 8, [(3, 3), (4, 3), (4, 4)])
    ed.add_box("dead", "Dead pile", "dead")
    ed.elevation(brush(b, h(b, "A05.05"), 1), 40)
    path = tmp_path / "edited.toml"
    save_map(b, path)
    again = load_map(path)
    assert map_differences(b, again) == []
    out = subprocess.run([sys.executable, "-m", "engine", "validate", str(path)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_drag_of_the_brush_is_one_step():
    b = small()
    ed = MapEdit(b)
    ed.begin("paint woods", ("terrain",))
    for hid in ("A02.02", "A03.02", "A04.03"):
        paint_terrain(b, [h(b, hid)], "woods")
    ed.commit()
    ed.begin("paint woods", ("terrain",))
    ed.commit(changed=False)
    assert len(ed.undo_stack) == 1
    ed.undo()
    assert not b.terrain
    ed.redo()
    assert len(b.terrain) == 3


def test_one_and_two_clicks_already_move_the_grid_onto_the_scan():
    b = small()
    truth = lambda x, y: (37.0 * x + 0.4 * y + 50, -0.4 * x + 37.0 * y + 45)   # turned a little, regular hexes
    b.sheets[0].transform = guess_transform(b, b.sheets[0], (600, 500))
    cal = Calibration("A")
    cal.clicks.append(("A02.02", truth(*b.center(h(b, "A02.02")))))
    assert cal.fit_to(b) is None
    assert math.dist(b.sheets[0].transform.apply(*b.center(h(b, "A02.02"))), truth(*b.center(h(b, "A02.02")))) < 1e-9
    cal.clicks.append(("A09.07", truth(*b.center(h(b, "A09.07")))))
    assert cal.fit_to(b) is None
    worst = max(math.dist(b.sheets[0].transform.apply(*b.center(x)), truth(*b.center(x))) for x in b.hexes())
    assert worst < 1e-6
    assert suggest_id(b, b.sheets[0], truth(*b.center(h(b, "A05.08")))) == "A05.08"


def test_a_fitted_transform_is_saved_as_plain_numbers(tmp_path):
    from PIL import Image

    Image.new("RGB", (500, 420), "white").save(tmp_path / "scan.png")
    b = small()
    ed = MapEdit(b)
    for hid, uv in {"A01.01": (50.5, 40.25), "A10.01": (450.1, 41.0), "A01.08": (49.0, 560.3)}.items():
        ed.click_centre("A", hid, uv)
    assert all(type(v) is float for v in b.sheets[0].transform.as_list())
    save_map(b, tmp_path / "fitted.toml")
    again = load_map(tmp_path / "fitted.toml")
    assert again.sheets[0].transform == b.sheets[0].transform


# ---------------------------------------------------------------- contours kept with the map; deleting and renaming

def test_contours_belong_to_the_board_and_survive_save_and_load(tmp_path):
    b = small()
    b.sheets[0].transform = guess_transform(b, b.sheets[0], (1000, 800))
    ed = MapEdit(b)
    ed.add_contour(Contour(40, [(1.0, 1.0), (6.0, 1.0), (6.0, 6.0), (1.0, 6.0)], closed=True))
    ed.add_contour(Contour(20, [(0.0, 9.0), (14.0, 1.0)], uphill="left"))
    assert ed.contours is b.contours and [c.elevation for c in b.contours] == [40.0, 20.0]
    (tmp_path / "scan.png").write_bytes(b"png")
    save_map(b, tmp_path / "m.toml")
    again = load_map(tmp_path / "m.toml")
    assert map_differences(b, again) == []
    first = MapEdit(b).derive_elevations(base=0)
    second = MapEdit(again).derive_elevations(base=0)
    assert first == second and set(first.values()) == {0.0, 20.0, 40.0}


@pytest.mark.parametrize("contour, words", [
    (Contour(20, [(0.0, 0.0)]), "two points"),
    (Contour(20, [(0.0, 0.0), (1.0, 0.0)], closed=True), "three for a closed ring"),
    (Contour(math.nan, [(0.0, 0.0), (1.0, 0.0)]), "elevation is a number"),
    (Contour(20, [(0.0, 0.0), (1.0, 0.0)], uphill="up"), "uphill is one of right, left, not 'up'"),
    (Contour(20, [(0.0, 0.0), (1.0, 0.0)], sheet="Q"), "no sheet has id 'Q'"),
])
def test_a_contour_the_file_could_not_hold_is_refused(contour, words):
    ed = MapEdit(small())
    with pytest.raises(ValueError, match=words):
        ed.add_contour(contour)
    assert not ed.contours and not ed.can_undo()


def test_areas_lines_and_boxes_are_renamed_and_deleted_with_undo():
    b = small()
    ed = MapEdit(b)
    c = h(b, "A04.04")
    ed.name_area("Krasni Bor", "town", [c, h(b, "A04.05")])
    ed.name_area("Entry", "entry", [h(b, "A01.01")])
    ed.name_line("start line", "start", [hexside(c, h(b, "A05.04"))])
    ed.add_box("dead", "Dead pile", "dead")
    area = ed.rename_area("Krasni Bor", "  Krasny Bor ")
    assert sorted(b.areas) == ["Entry", "Krasny Bor"] and area.name == "Krasny Bor"
    assert b.areas["Krasny Bor"].hexes == {c, h(b, "A04.05")} and b.areas["Krasny Bor"].kind == "town"
    with pytest.raises(ValueError, match="another area is already called 'Entry'"):
        ed.rename_area("Krasny Bor", "Entry")
    with pytest.raises(ValueError, match="no area is called 'Nowhere'"):
        ed.remove_area("Nowhere")
    ed.rename_line("start line", "German start line")
    assert list(b.lines) == ["German start line"] and b.lines["German start line"].kind == "start"
    box = ed.rename_box("dead", "eliminated", "Eliminated units")
    assert list(b.boxes) == ["eliminated"] and (box.id, box.name, box.kind) == ("eliminated", "Eliminated units", "dead")
    with pytest.raises(ValueError, match="a box needs an id"):
        ed.rename_box("eliminated", " ")
    ed.remove_area("Entry")
    ed.remove_line("German start line")
    ed.remove_box("eliminated")
    assert list(b.areas) == ["Krasny Bor"] and not b.lines and not b.boxes
    labels = [ed.undo() for _ in range(3)]
    assert labels == ["delete box eliminated", "delete line German start line", "delete area Entry"]
    assert sorted(b.areas) == ["Entry", "Krasny Bor"] and list(b.lines) == ["German start line"]
    assert b.boxes["eliminated"].name == "Eliminated units"
    for _ in range(3):
        ed.undo()
    assert sorted(b.areas) == ["Entry", "Krasni Bor"] and list(b.lines) == ["start line"] and list(b.boxes) == ["dead"]


def test_obstacles_and_contours_are_deleted_by_their_place_in_the_list_with_undo():
    b = small()
    ed = MapEdit(b)
    ed.add_obstacle("woods", 20, [(0, 0), (2, 0), (2, 2)])
    ed.add_obstacle("building", 10, [(4, 4), (5, 4), (5, 5)])
    ed.add_contour(Contour(20, [(0.0, 9.0), (14.0, 1.0)]))
    ed.add_contour(Contour(40, [(1.0, 1.0), (6.0, 1.0), (6.0, 6.0)], closed=True))
    gone = ed.remove_obstacle(0)
    assert gone.kind == "woods" and [o.kind for o in b.obstacles] == ["building"]
    assert ed.remove_contour(1).elevation == 40 and [c.elevation for c in b.contours] == [20]
    with pytest.raises(ValueError, match="no contour number 2 \\(the map has 1\\)"):
        ed.remove_contour(1)
    with pytest.raises(ValueError, match="no obstacle number 5"):
        ed.remove_obstacle(4)
    assert ed.undo() == "delete contour" and [c.elevation for c in b.contours] == [20, 40]
    assert ed.undo() == "delete obstacle" and [o.kind for o in b.obstacles] == ["woods", "building"]
    ed.redo()
    assert [o.kind for o in b.obstacles] == ["building"]


def test_a_terrain_gets_another_legend_letter_unless_another_terrain_has_it(tmp_path):
    b = small()
    ed = MapEdit(b)
    ed.paint(h(b, "A01.01"), "woods")
    ed.paint(h(b, "A02.01"), "clear")
    assert b.legend == {"w": "woods", "c": "clear"}
    with pytest.raises(ValueError, match="the letter 'c' already codes 'clear'"):
        ed.recode_terrain("woods", "c")
    with pytest.raises(ValueError, match="one character other than"):
        ed.recode_terrain("woods", ".")
    assert ed.recode_terrain("woods", "f") == "f"
    assert b.legend == {"f": "woods", "c": "clear"}
    (tmp_path / "scan.png").write_bytes(b"png")
    save_map(b, tmp_path / "m.toml")
    text = (tmp_path / "m.toml").read_text()
    assert 'f = "woods"' in text and '  "fc........",' in text
    assert load_map(tmp_path / "m.toml").terrain[h(b, "A01.01")] == "woods"
    assert ed.undo() == "code woods as f" and b.legend == {"w": "woods", "c": "clear"}


def test_a_new_board_starts_with_every_hex_of_the_chosen_terrain():
    b = new_board("x", "flat", [SheetSpec("A", "a.png", 5, 4)])
    assert set(b.terrain.values()) == {"clear"} and len(b.terrain) == 20 and b.legend == {"c": "clear"}
    assert not [f for f in check_map(b) if f.kind == "no terrain"]
    w = new_board("x", "flat", [SheetSpec("A", "a.png", 5, 4)], terrain="woods")
    assert set(w.terrain.values()) == {"woods"}
    assert not new_board("x", "flat", [SheetSpec("A", "a.png", 5, 4)], terrain=None).terrain


def test_an_aligned_sheet_takes_its_hexes_terrain_along():
    b = new_board("Two", "flat", [SheetSpec("A", "a.png", 6, 4), SheetSpec("B", "b.png", 6, 4)])
    ed = MapEdit(b)
    ed.place_sheet("B", "B01.01", "A06.01")
    assert all(b.terrain.get(x) == "clear" for x in b.hexes())
    ed.undo()
    assert len(b.terrain) == 24


def test_removing_calibration_points_refits_down_to_the_starting_grid():
    b = small()
    start = b.sheets[0].transform
    ed = MapEdit(b)
    for hid, uv in (("A01.01", (40, 40)), ("A10.01", (470, 60)), ("A10.08", (470, 600))):
        ed.click_centre("A", hid, uv)
    assert ed.calibrations["A"].fit is not None
    ed.remove_click("A", 2)
    assert ed.calibrations["A"].fit is None             # two points: no least-squares fit, a turned and scaled grid
    t = b.sheets[0].transform
    for hid, uv in ed.calibrations["A"].clicks:
        assert t.apply(*b.center(b.parse_hex(hid))) == pytest.approx(uv)
    ed.remove_click("A", 0)
    ed.remove_click("A", 0)
    assert b.sheets[0].transform == start


def test_the_hexes_painted_on_a_new_map_are_still_its_examples_when_it_is_opened_again(tmp_path):
    """A new map starts every hex clear; the person paints a few hexes, saves and closes. Opened again, those
    hexes are still the examples terrain is suggested from, and the starting "clear" of the rest still is
    not one (it was: nothing was painted any more, and only the starting terrain was left to learn from)."""
    b = new_board("x", "flat", [SheetSpec("A", "scan.png", 5, 4)])
    ed = MapEdit(b)
    ed.paint(h(b, "A01.01"), "woods")
    ed.paint(h(b, "A03.02"), "clear")
    assert ed.examples() == {h(b, "A01.01"): "woods", h(b, "A03.02"): "clear"}
    (tmp_path / "scan.png").write_bytes(b"png")
    save_map(b, tmp_path / "m.toml")
    again = MapEdit(load_map(tmp_path / "m.toml"))
    assert again.examples() == {h(b, "A01.01"): "woods", h(b, "A03.02"): "clear"}
    assert again.confirmed() == {h(b, "A01.01"), h(b, "A03.02")}
    assert len(again.examples(count_unpainted=True)) == 20        # the starting terrain, when asked for
    again.paint(h(b, "A02.02"), "rough")
    assert again.undo() and h(b, "A02.02") not in again.painted     # painting stays one undoable step


def test_suggestions_alone_leave_the_map_as_its_file_has_it(tmp_path):
    """Suggesting terrain or hexsides, turning one down or dismissing them changes nothing a file holds, so
    closing the editor after them need not ask to save; accepting one does. Each stays one undoable step."""
    b = new_board("x", "flat", [SheetSpec("A", "scan.png", 5, 4)])
    (tmp_path / "scan.png").write_bytes(b"png")
    save_map(b, tmp_path / "m.toml")
    ed = MapEdit(load_map(tmp_path / "m.toml"))
    b = ed.board
    ed.suggest_terrain({h(b, "A01.01"): ("woods", 0.95), h(b, "A02.01"): ("rough", 0.5)})
    side = hexside(h(b, "A01.01"), h(b, "A01.02"))
    ed.suggest_hexsides("river", {side: 0.8})
    ed.reject_suggested_side(side)
    ed.dismiss_suggested()
    assert not ed.dirty
    assert ed.undo() == "dismiss suggestions" and not ed.dirty and ed.suggested
    ed.accept_suggested([h(b, "A01.01")])
    assert ed.dirty and b.terrain[h(b, "A01.01")] == "woods"
