"""The lattice walk decides which hexes a line enters, runs beside and touches exactly as the geometry does."""
from __future__ import annotations

import numpy as np
import pytest
import shapely

from engine.maps.hexes import FLAT, POINTY, Hex, Layout, hex_range
from engine.los.grid import Rays, axial_to_f, crossings, point_f, triangle_hex


def walk(lay: Layout, P, Q):
    """(entered, beside, touched) hex sets of the segment P-Q according to the lattice walk."""
    rays = Rays.make(point_f(lay, *P)[None], point_f(lay, *Q)[None], [False])
    tc = crossings(rays, np.array([0]), np.array([0.0]), np.array([1.0]), lay.orientation, corners=True)
    entered, beside, touched = set(), set(), set()
    for q, r, q2, r2, corner in zip(tc.qa, tc.ra, tc.qb, tc.rb, tc.corner):
        a, b = Hex(int(q), int(r)), Hex(int(q2), int(r2))
        if corner:
            touched.add(a)
        elif a == b:
            entered.add(a)
        else:
            beside |= {a, b}
    entered |= {lay.pixel_to_hex(*P), lay.pixel_to_hex(*Q)}
    return entered, beside - entered, touched


class Reference:
    """The same sets by shapely with a tolerance: interior crossed, boundary run along, point touched."""

    def __init__(self, lay: Layout, hexes):
        self.hexes = np.array(hexes, dtype=object)
        polys = np.array([lay.polygon(h) for h in hexes], dtype=object)
        self.polys = polys
        self.shrunk = shapely.buffer(polys, -1e-7)
        self.grown = shapely.buffer(polys, 1e-7)

    def __call__(self, P, Q):
        seg = shapely.LineString([P, Q])
        near = shapely.distance(seg, self.polys) <= 1e-9
        inside = near & shapely.intersects(seg, self.shrunk)
        along = near & ~inside & (shapely.length(shapely.intersection(seg, self.grown)) > 1e-3)
        touch = near & ~inside & ~along
        return set(self.hexes[inside]), set(self.hexes[along]), set(self.hexes[touch])


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_lines_between_hex_centres_match_the_geometry(orientation):
    lay = Layout(orientation)
    hexes = hex_range(Hex(0, 0), 9)
    reference = Reference(lay, hexes)
    along = corners = 0
    for a in (Hex(0, 0), Hex(1, -2)):
        for b in hexes:
            if b == a:
                continue
            P, Q = lay.hex_to_pixel(a), lay.hex_to_pixel(b)
            got = walk(lay, P, Q)
            assert got == reference(P, Q), (a, b)
            along += bool(got[1])
            corners += bool(got[2])
    assert along >= 40 and corners >= 40        # the special cases really were exercised


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_lines_between_arbitrary_points_match_the_geometry(orientation):
    lay = Layout(orientation)
    reference = Reference(lay, hex_range(Hex(0, 0), 14))
    rng = np.random.default_rng(5)
    for _ in range(120):
        P, Q = tuple(rng.uniform(-10, 10, 2)), tuple(rng.uniform(-10, 10, 2))
        assert walk(lay, P, Q) == reference(P, Q)


def test_triangle_coordinates_put_centres_and_corners_on_whole_numbers():
    lay = Layout(FLAT)
    for h in hex_range(Hex(2, -1), 3):
        f = axial_to_f(FLAT, h.q, h.r)
        assert f.sum() == 0 and np.all(f == np.round(f))
        for x, y in lay.polygon_corners(h):
            fc = point_f(lay, x, y)
            assert np.allclose(fc, np.round(fc), atol=1e-9)
        # the six triangles round a centre belong to its hex
        for d in ((0.2, 0.1, -0.3), (-0.2, -0.1, 0.3), (0.1, -0.3, 0.2), (-0.1, 0.3, -0.2), (0.3, -0.2, -0.1),
                  (-0.3, 0.2, 0.1)):
            g = np.floor(f + np.array(d)).astype(np.int64)
            q, r = triangle_hex(FLAT, g[0], g[1], g[2])
            assert Hex(int(q), int(r)) == h


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
@pytest.mark.parametrize("descending", [False, True])
def test_the_single_line_walk_meets_the_same_hexes_as_the_vectorized_walk(orientation, descending):
    from engine.los.walk import Line

    lay = Layout(orientation)
    rng = np.random.default_rng(9)
    lines = [(lay.hex_to_pixel(Hex(0, 0)), lay.hex_to_pixel(h)) for h in hex_range(Hex(0, 0), 8) if h != Hex(0, 0)]
    lines += [(tuple(rng.uniform(-9, 9, 2)), tuple(rng.uniform(-9, 9, 2))) for _ in range(100)]
    for P, Q in lines:
        FP, FQ = point_f(lay, *P), point_f(lay, *Q)
        FP, FQ = np.where(np.abs(FP - np.round(FP)) < 1e-12, np.round(FP), FP), np.where(
            np.abs(FQ - np.round(FQ)) < 1e-12, np.round(FQ), FQ)
        rays = Rays.make(FP[None], FQ[None], [descending])
        tc = crossings(rays, np.array([0]), np.array([0.0]), np.array([1.0]), orientation, sides="low", corners=True)
        vec = sorted((round(float(t), 12), (int(a), int(b)), (int(c), int(d)), bool(e))
                     for t, a, b, c, d, e in zip(tc.t, tc.qa, tc.ra, tc.qb, tc.rb, tc.corner))
        one = sorted((round(t, 12), a, b, c) for t, a, b, c in Line(FP, FQ, descending, orientation).touches(True))
        assert one == vec
