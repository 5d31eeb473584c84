"""The gridless table: loading, geometry in inches, footprints, and clear errors for bad files."""
import math

import numpy as np
import pytest
import shapely

from engine.errors import BadFile
from engine.maps.table import (Table, bearing_to, bearing_vector, distance, footprint, footprints, load_table,
                          table_from_dict)

TABLE = "maps/scw-table.toml"


def test_the_skirmish_table_loads_with_its_pieces_points_and_base_line():
    t = load_table(TABLE)
    assert (t.width, t.height) == (72.0, 48.0)
    assert {p.name for p in t.pieces} >= {"farmhouse", "copse", "crest", "chapel"}
    assert len(t.locations_of_kind("defensive")) >= 6
    assert t.location("farmhouse-door").at == (12.0, 17.5)
    assert [p.name for p in t.pieces_at((12.0, 12.0))] == ["farmhouse"]
    assert t.pieces_at((40.0, 40.0)) == []
    spots = t.line_points("baseline", 5)
    assert spots[0] == (12.0, 46.0) and spots[-1] == (60.0, 46.0)


def test_default_table_is_six_by_four_feet_and_pixels_scale_with_inches():
    t = Table()
    assert (t.width, t.height) == (72.0, 48.0)
    t.pixels_per_inch = 20.0
    assert t.to_pixels((3.0, 4.5)) == (60.0, 90.0)
    assert t.to_inches((60.0, 90.0)) == (3.0, 4.5)
    assert t.contains((72.0, 48.0)) and not t.contains((72.1, 10.0))


def test_distances_bearings_and_footprints_are_in_inches():
    assert distance((0, 0), (3, 4)) == 5.0
    assert bearing_to((0, 0), (0, 10)) == 90.0
    assert bearing_to((0, 0), (-1, 0)) == 180.0
    vx, vy = bearing_vector(270.0)
    assert math.isclose(vx, 0.0, abs_tol=1e-12) and math.isclose(vy, -1.0)
    f = footprint((10.0, 10.0), 1.0)
    assert f.contains(shapely.Point(10.9, 10.0)) and not f.intersects(shapely.Point(11.1, 10.0))
    many = footprints(np.array([[0.0, 0.0], [5.0, 5.0], [9.0, 1.0]]), 0.5)
    assert len(many) == 3 and all(math.isclose(g.area, footprint((0, 0), 0.5).area) for g in many)


def test_bad_table_files_name_the_key_and_what_was_expected(tmp_path):
    with pytest.raises(BadFile) as e:
        table_from_dict({}, "t.toml")
    assert "t.toml: table: expected a [table] section" in str(e.value)
    doc = {"table": {"width": 72, "height": -4},  # a bad height falls back to 48
           "pieces": [{"name": "wood", "kind": "forest", "polygon": [[0, 0], [100, 0], [100, 5]]},
                      {"name": "hut", "kind": "building", "polygon": [[1, 1], [2, "x"], [3, 3]]}],
           "points": [{"name": "p", "at": [80, 10]}, {"name": "q", "at": [1, 2, 3]}],
           "lines": [{"name": "base", "points": [[0, 0]]}]}
    with pytest.raises(BadFile) as e:
        table_from_dict(doc, "t.toml")
    text = str(e.value)
    for part in ("table.height: expected a positive number", "pieces[0].kind: expected one of",
                 "pieces[0].polygon: the outline goes off the 72 x 48 inch table",
                 "pieces[1].polygon[1]: expected a point [x, y]", "points[0].at: (80.0, 10.0) is off",
                 "points[1].at: expected a point", "lines[0].points: expected two or more points"):
        assert part in text, part


def test_a_missing_or_malformed_table_file_is_a_clear_error(tmp_path):
    with pytest.raises(BadFile) as e:
        load_table(tmp_path / "none.toml")
    assert "none.toml: file not found" in str(e.value)
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nwidth = \n", encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_table(bad)
    assert "bad.toml:2: not valid TOML" in str(e.value)


def test_a_table_naming_a_missing_image_is_refused_clearly(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('[table]\nwidth = 24\nheight = 24\nimage = "gone.png"\n', encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_table(f)
    assert "t.toml: table.image: the image file gone.png is missing" in str(e.value)


def test_the_table_image_is_drawn_at_its_scale_and_shows_its_pieces():
    from PIL import Image

    from engine.rulesets.scw.tableart import COLOURS, GROUND, render_table

    t = load_table(TABLE)
    img = render_table(t)
    assert img.size == (1440, 960)
    with Image.open(t.image_path) as shipped:
        assert shipped.size == img.size
    roof = img.getpixel(t.to_pixels((9.0, 11.0)))
    assert roof == COLOURS["building"][0]
    open_ground = img.getpixel(t.to_pixels((40.0, 34.0)))
    assert max(abs(a - b) for a, b in zip(open_ground, GROUND)) < 30
    assert render_table(t).tobytes() == img.tobytes()  # the same table, the same pixels
