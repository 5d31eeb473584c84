"""The hex lattice: neighbours, distance, rings, ranges, lines, hexsides, layouts."""
import math

from hypothesis import given, strategies as st

from engine.maps.hexes import (
    FLAT, POINTY, Hex, Layout, hex_distance, hex_linedraw, hex_neighbor, hex_neighbors,
    hex_range, hex_ring, hexside, hexsides_of,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)


def test_neighbours_are_the_six_adjacent_hexes():
    assert hex_neighbors(Hex(0, 0)) == [Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)]
    assert all(hex_distance(Hex(2, 3), n) == 1 for n in hex_neighbors(Hex(2, 3)))


def test_distance_known_values():
    assert hex_distance(Hex(0, 0), Hex(3, -1)) == 3
    assert hex_distance(Hex(0, 0), Hex(2, 2)) == 4
    assert hex_distance(Hex(-2, 5), Hex(-2, 5)) == 0


@given(hexes, st.integers(0, 5))
def test_neighbours_are_symmetric(h, d):
    n = hex_neighbor(h, d)
    assert h in hex_neighbors(n)
    assert hex_neighbor(n, d + 3) == h


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert hex_distance(a, b) == hex_distance(b, a)
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)
    assert (hex_distance(a, b) == 0) == (a == b)


def test_ring_and_range_sizes():
    assert hex_ring(Hex(0, 0), 0) == [Hex(0, 0)]
    assert len(hex_ring(Hex(4, -2), 3)) == 18
    assert all(hex_distance(Hex(4, -2), h) == 3 for h in hex_ring(Hex(4, -2), 3))
    within2 = hex_range(Hex(1, 1), 2)
    assert len(within2) == 19
    assert set(within2) == {h for h in hex_range(Hex(1, 1), 3) if hex_distance(h, Hex(1, 1)) <= 2}


@given(hexes, hexes)
def test_line_is_connected_and_as_long_as_the_distance(a, b):
    line = hex_linedraw(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(p, q) == 1 for p, q in zip(line, line[1:]))


def test_line_along_hexsides_is_decided_by_the_nudge():
    # Hex(0,0) to Hex(2,-1) runs exactly between Hex(1,0) and Hex(1,-1).
    plus = hex_linedraw(Hex(0, 0), Hex(2, -1))
    minus = hex_linedraw(Hex(0, 0), Hex(2, -1), nudge=-1e-6)
    assert {plus[1], minus[1]} == {Hex(1, 0), Hex(1, -1)}
    assert plus[1] != minus[1]


def test_hexside_is_canonical_and_shared():
    a, b = Hex(3, 4), Hex(4, 4)
    assert hexside(a, b) == hexside(b, a)
    assert hexside(a, b).other(a) == b
    assert hexside(a, b) in hexsides_of(a) and hexside(a, b) in hexsides_of(b)
    assert len(set(hexsides_of(a))) == 6


def test_hexside_of_non_adjacent_hexes_is_refused():
    try:
        hexside(Hex(0, 0), Hex(2, 0))
    except ValueError as e:
        assert "not adjacent" in str(e)
    else:
        raise AssertionError("hexside accepted two hexes two apart")


@given(hexes, st.sampled_from([FLAT, POINTY]))
def test_pixel_round_trip(h, orientation):
    lay = Layout(orientation, 37.5, (11.0, -4.0))
    assert lay.pixel_to_hex(*lay.hex_to_pixel(h)) == h


def test_flat_geometry_known_values():
    lay = Layout(FLAT, 1.0)
    assert lay.hex_to_pixel(Hex(1, 0)) == (1.5, math.sqrt(3) / 2)
    poly = lay.polygon(Hex(0, 0))
    assert math.isclose(poly.area, 3 * math.sqrt(3) / 2)
    (x0, y0), (x1, y1) = lay.hexside_segment(hexside(Hex(0, 0), Hex(0, 1)))
    assert math.isclose(abs(x1 - x0), 1.0) and math.isclose(y0, math.sqrt(3) / 2) and math.isclose(y1, y0)


def test_pointy_neighbours_are_one_hex_width_apart():
    lay = Layout(POINTY, 1.0)
    for n in hex_neighbors(Hex(0, 0)):
        assert math.isclose(math.dist(lay.hex_to_pixel(n), (0, 0)), math.sqrt(3))
