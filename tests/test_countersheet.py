"""Cutting a scanned counter sheet: a generated 10 x 7 sheet with gutters cut back into its counters."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.counters.art import counter_image
from engine.counters.sheet import CounterGrid, assign, cut, open_sheet, preview, save_counters
from engine.errors import BadFile
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SIZE = 48
COLS, ROWS = 10, 7
GUTTER = (7, 5)
MARGIN = (23, 31)


@pytest.fixture(scope="module")
def fronts():
    """70 counter fronts drawn from the Demyansk scenario II order of battle."""
    s = load_scenario(ROOT / "scenarios" / "demyansk-2-campaign.toml")
    units = list(s.units.values())
    assert len(units) >= COLS * ROWS
    return [counter_image(u, SIZE, s.sides.get(u.side)) for u in units[:COLS * ROWS]]


def make_sheet(fronts) -> Image.Image:
    """A sheet like a printed one: a margin, counters in a grid, gutters between them."""
    w = MARGIN[0] * 2 + COLS * SIZE + (COLS - 1) * GUTTER[0]
    h = MARGIN[1] * 2 + ROWS * SIZE + (ROWS - 1) * GUTTER[1]
    sheet = Image.new("RGBA", (w, h), (201, 190, 160, 255))
    for i, img in enumerate(fronts):
        c, r = i % COLS, i // COLS
        sheet.paste(img, (MARGIN[0] + c * (SIZE + GUTTER[0]), MARGIN[1] + r * (SIZE + GUTTER[1])))
    return sheet


def grid_for(sheet) -> CounterGrid:
    """The grid a player sets by clicking the first counter's top-left and the last one's bottom-right corner."""
    return CounterGrid(first=MARGIN, last=(sheet.width - MARGIN[0], sheet.height - MARGIN[1]),
                       columns=COLS, rows=ROWS, gutter=GUTTER)


def test_a_generated_10_by_7_sheet_cuts_into_70_counters_equal_to_the_fronts(fronts, tmp_path):
    sheet = make_sheet(fronts)
    sheet.save(tmp_path / "sheet.png")
    scan = open_sheet(tmp_path / "sheet.png")
    images = cut(scan, grid_for(scan))
    assert len(images) == 70
    for i, (got, want) in enumerate(zip(images, fronts)):
        assert got.size == (SIZE, SIZE), i
        assert np.array_equal(np.asarray(got), np.asarray(want)), f"counter {i + 1} differs"


def test_the_grid_gives_each_counter_its_box(fronts):
    grid = grid_for(make_sheet(fronts))
    assert grid.cell == (SIZE, SIZE)
    assert grid.box(0, 0) == (23, 31, 23 + SIZE, 31 + SIZE)
    assert grid.box(9, 6) == (23 + 9 * 55, 31 + 6 * 53, 23 + 9 * 55 + SIZE, 31 + 6 * 53 + SIZE)
    assert len(grid.boxes()) == 70


def test_the_preview_outlines_every_box_and_leaves_the_counters_alone(fronts):
    sheet = make_sheet(fronts)
    grid = grid_for(sheet)
    shown = np.asarray(preview(sheet, grid))
    left, top, right, bottom = grid.box(3, 2)
    assert tuple(shown[top, left + 5][:3]) == (230, 30, 30)
    assert tuple(shown[bottom - 1, right - 6][:3]) == (230, 30, 30)
    inner = np.asarray(sheet)[top + 2:bottom - 2, left + 2:right - 2]
    assert np.array_equal(shown[top + 2:bottom - 2, left + 2:right - 2], inner)


def test_fronts_and_backs_are_saved_under_the_scenario_assets(fronts, tmp_path):
    images = cut(make_sheet(fronts), grid_for(make_sheet(fronts)))
    named = assign(images, {"ger-a": 0, "ger-b": 1}, {"ger-a": 10})
    files = save_counters(named, tmp_path / "assets" / "counters")
    assert sorted(files) == ["ger-a-back", "ger-a-front", "ger-b-front"]
    back = Image.open(files["ger-a-back"]).convert("RGBA")
    assert np.array_equal(np.asarray(back), np.asarray(images[10]))
    assert not list((tmp_path / "assets" / "counters").glob(".*"))   # no temporary files left


def test_bad_grids_and_files_are_clear_errors(fronts, tmp_path):
    sheet = make_sheet(fronts)
    with pytest.raises(ValueError, match="below and to the right"):
        CounterGrid((100, 100), (50, 200), 2, 2)
    with pytest.raises(ValueError, match="no room"):
        CounterGrid((0, 0), (20, 20), 2, 2, gutter=(30, 0))
    with pytest.raises(BadFile, match="runs off"):
        cut(sheet, CounterGrid((10, 10), (sheet.width + 40, 100), 3, 1))
    with pytest.raises(BadFile, match="missing"):
        open_sheet(tmp_path / "nope.png")
    (tmp_path / "bad.png").write_text("not an image")
    with pytest.raises(BadFile, match="bad.png"):
        open_sheet(tmp_path / "bad.png")
    with pytest.raises(BadFile, match="counter 71"):
        assign(cut(sheet, grid_for(sheet)), {"x": 70})


def test_a_sheet_whose_header_claims_billions_of_pixels_is_refused_naming_the_file(tmp_path):
    import struct
    import zlib

    from engine.counters.sheet import open_sheet
    from engine.errors import BadFile

    p = tmp_path / "sheet.png"
    Image.new("RGB", (120, 80)).save(p)
    for w, h in ((65536, 65536), (20_000, 20_000)):
        data = bytearray(p.read_bytes())
        data[16:24] = struct.pack(">II", w, h)
        data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF)
        bad = tmp_path / f"claims-{w}.png"
        bad.write_bytes(bytes(data))
        with pytest.raises(BadFile) as e:
            open_sheet(bad)
        assert e.value.problems[0].file == str(bad) and "too large" in str(e.value)
