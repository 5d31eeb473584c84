"""The board: sheets on one lattice, overlaps, the least-squares fit and hexside snapping."""
import math

import numpy as np
import pytest

from engine.maps.board import Board, Sheet, fit_affine
from engine.errors import BadHexId
from engine.maps.hexes import FLAT, hexside
from engine.maps.numbering import NumberingScheme


def two_sheet_board():
    # Sheet B lies east of sheet A and overlaps it by one column: B01.rr is A10.rr.
    a = NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=10, rows=8, shifted="even")
    b0 = NumberingScheme(style="tcs", sheet="B", orientation=FLAT, cols=10, rows=8, shifted="even")
    # place B so that its first hex is A's column 10, row 1
    col10 = a.colrow_to_hex(10, 1)
    first_b = b0.colrow_to_hex(1, 1)
    b = NumberingScheme(style="tcs", sheet="B", orientation=FLAT, cols=10, rows=8, shifted="odd",
                        origin=(col10.q - first_b.q, col10.r - first_b.r))
    return Board(name="two", orientation=FLAT, sheets=[Sheet("A", a), Sheet("B", b)])


def test_overlapping_sheets_share_hexes():
    board = two_sheet_board()
    assert board.parse_hex("A10.03") == board.parse_hex("B01.03")
    assert board.hex_ids(board.parse_hex("A10.03")) == ["A10.03", "B01.03"]
    assert len(board.hexes()) == 10 * 8 + 10 * 8 - 8
    # neighbours across the join are one hex away
    h = board.parse_hex("A09.03")
    assert board.parse_hex("B02.03") in [n for n in board.neighbors(board.parse_hex("B01.03"))]
    assert h in board.neighbors(board.parse_hex("B01.03"))


def test_off_map_and_malformed_ids_are_refused_with_the_expected_form():
    board = two_sheet_board()
    with pytest.raises(BadHexId, match="off the map"):
        board.parse_hex("A11.01")
    with pytest.raises(BadHexId, match="ids look like A01.01, B01.01"):
        board.parse_hex("0512")


def test_least_squares_fit_recovers_a_rotated_stretched_scan():
    angle = math.radians(1.5)
    sx, sy = 71.0, 73.13
    true = np.array([[sx * math.cos(angle), -sy * math.sin(angle), 120.0],
                     [sx * math.sin(angle), sy * math.cos(angle), 85.0]])
    board = two_sheet_board()
    sheet = board.sheet("A")
    ids = ["A01.01", "A10.01", "A01.08", "A07.05", "A04.02"]
    rng = np.random.default_rng(3)
    clicks = []
    for hid in ids:
        x, y = board.center(board.parse_hex(hid))
        u, v = true @ np.array([x, y, 1.0])
        noise = rng.normal(0, 0.5, 2)
        clicks.append((hid, (u + noise[0], v + noise[1])))
    fit = board.fit_sheet(sheet, clicks)
    assert len(fit.residuals) == 5
    assert fit.rms < 2.0
    assert fit.residuals[fit.worst] == max(fit.residuals)
    # every hex centre of the sheet lands within 2 px of the truth
    for h in sheet.hexes():
        x, y = board.center(h)
        u, v = fit.transform.apply(x, y)
        tu, tv = true @ np.array([x, y, 1.0])
        assert math.hypot(u - tu, v - tv) < 2.0


def test_exact_fit_has_zero_residual_and_collinear_points_are_refused():
    fit = fit_affine([(0, 0), (1, 0), (0, 1)], [(10, 20), (60, 20), (10, 70)])
    assert fit.rms == pytest.approx(0, abs=1e-9)
    assert fit.transform.apply(2, 3) == pytest.approx((110, 170))
    with pytest.raises(ValueError, match="in a line"):
        fit_affine([(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 1), (2, 2)])


def test_inverse_transform_round_trips():
    fit = fit_affine([(0, 0), (1, 0), (0, 1), (3, 2)], [(10, 20), (61, 22), (8, 71), (158, 128)])
    inv = fit.transform.inverse()
    assert inv.apply(*fit.transform.apply(4.5, -2.0)) == pytest.approx((4.5, -2.0))


def board_a():
    s = NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=12, rows=12, shifted="even")
    return Board(sheets=[Sheet("A", s)])


def ids(board, sides):
    return sorted(tuple(sorted((board.hex_id(s.a), board.hex_id(s.b)))) for s in sides)


def test_a_line_traced_along_hexsides_snaps_to_exactly_them():
    board = board_a()
    lay = board.layout
    # Trace along the bottom of A05.05 and A05.06's shared side, then on down
    # the zig-zag between columns 5 and 6 with a wobbling hand.
    want = [("A05.05", "A05.06"), ("A05.06", "A06.05"), ("A05.06", "A06.06"), ("A05.07", "A06.06"),
            ("A05.07", "A06.07")]
    pts = []
    for a, b in want:
        p0, p1 = lay.hexside_segment(hexside(board.parse_hex(a), board.parse_hex(b)))
        if pts and math.dist(p1, pts[-1]) < 1e-9:
            p0, p1 = p1, p0
        if not pts:
            pts.append(p0 if p0[0] < p1[0] else p1)
            p1 = p1 if p0[0] < p1[0] else p0
        pts.append(p1)
    wobble = [(x + 0.06 * math.sin(i), y - 0.05 * math.cos(i)) for i, (x, y) in enumerate(pts)]
    assert ids(board, board.snap_polyline(wobble)) == sorted(tuple(sorted(w)) for w in want)


def test_a_ditch_drawn_beside_the_centre_dots_takes_the_sides_on_its_side():
    # Black Wednesday 1.5: the ditch runs along the hexsides of the hex it is
    # closest to, on the same side of the centre dot as the symbol.
    board = board_a()
    top = board.center(board.parse_hex("A03.05"))
    bottom = board.center(board.parse_hex("A03.08"))
    east = board.snap_polyline([(top[0] + 0.35, top[1]), (bottom[0] + 0.35, bottom[1])])
    assert all({board.hex_id(s.a)[:3], board.hex_id(s.b)[:3]} == {"A03", "A04"} for s in east)
    assert len(east) == 6
    west = board.snap_polyline([(top[0] - 0.35, top[1]), (bottom[0] - 0.35, bottom[1])])
    assert all({board.hex_id(s.a)[:3], board.hex_id(s.b)[:3]} == {"A02", "A03"} for s in west)


def test_snapping_drops_sides_off_the_board():
    board = board_a()
    corner = board.center(board.parse_hex("A01.01"))
    sides = board.snap_polyline([(corner[0] - 0.9, corner[1] - 3), (corner[0] - 0.9, corner[1] + 3)])
    assert all(s.a in board and s.b in board for s in sides)


def test_a_fitted_transform_is_plain_floats_and_saves_as_toml(tmp_path):
    from engine.maps.mapfile import load_map, save_map

    board = board_a()
    fit = board.fit_sheet(board.sheet("A"), [("A01.01", (40.0, 50.0)), ("A12.01", (900.0, 52.0)),
                                             ("A01.12", (38.0, 960.0)), ("A06.06", (470.5, 503.0))])
    assert all(type(v) is float for v in fit.transform.as_list())
    path = tmp_path / "fitted.toml"
    save_map(board, path)
    assert "np." not in path.read_text()
    assert load_map(path).sheet("A").transform.as_list() == pytest.approx(fit.transform.as_list())
