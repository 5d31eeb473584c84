"""The digitising test set: seeded scans with their truth as a loadable map file."""
from __future__ import annotations

import numpy as np

from engine.maps.mapfile import load_map
from engine.maps.scanset import HEX_PX, MAX_ROTATION, MAX_STRETCH, choose_style, make_scan


def test_same_seed_same_scan_and_truth():
    a = make_scan(3, width=500, height=380)
    b = make_scan(3, width=500, height=380)
    assert a.map_toml == b.map_toml
    assert np.array_equal(np.asarray(a.image), np.asarray(b.image))


def test_truth_is_a_map_file_the_loader_accepts(tmp_path):
    scan = make_scan(11, width=640, height=480)
    path = scan.write(tmp_path)
    board = load_map(path)
    sheet = board.sheets[0]
    assert sheet.transform.as_list() == list(scan.transform)
    assert len(board.hexes()) == len(scan.terrain)
    assert {board.terrain[sheet.numbering.parse(i)] for i in scan.terrain} == set(scan.terrain.values())
    for feature, sides in scan.hexsides.items():
        for s in sides:
            a, b = (sheet.numbering.parse(x) for x in s.split("/"))
            assert feature in board.hexside_features(a, b)


def test_whole_hexes_lie_inside_the_image_and_centres_are_a_lattice():
    scan = make_scan(4, width=700, height=520)
    w, h = scan.image.size
    assert len(scan.whole) > 10
    for hid in scan.whole:
        assert all(0 <= u < w and 0 <= v < h for u, v in scan.polygon(hid))
    # neighbouring centres are hex_px apart, up to the scan's stretch
    ids = scan.whole
    pts = np.array([scan.centre(i) for i in ids])
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    d[d == 0] = np.inf
    nearest = d.min(axis=1)
    assert np.all(np.abs(nearest / scan.style.hex_px - 1) < MAX_STRETCH + 0.01)


def test_the_set_varies_as_asked():
    styles = [choose_style(seed) for seed in range(30)]
    assert {s.orientation for s in styles} == {"flat", "pointy"}
    assert all(HEX_PX[0] <= s.hex_px <= HEX_PX[1] for s in styles)
    assert all(abs(s.rotation) <= MAX_ROTATION and abs(s.stretch) <= MAX_STRETCH for s in styles)
    assert min(s.jpeg_quality for s in styles) < 70
    assert len({s.palette for s in styles}) >= 3 and len({s.line_rgb for s in styles}) >= 4


def test_every_seed_makes_a_scan_whose_sheet_lies_inside_its_frame():
    for seed in range(12):
        scan = make_scan(seed, width=360, height=280, hex_px=36.0)
        assert len(scan.terrain) == len(scan.board.hexes()) > 0
        assert scan.whole
