"""The HMG cone, its range bands, its traverse and the revealing of cards (shapely, vectorized)."""
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from engine.rulesets.scw import cone as C
from engine.rulesets.scw.data import load_tables

BANDS = load_tables().hmg_bands


def test_the_cone_is_18_inches_long_and_4_wide_at_18_from_a_point_on_the_gun():
    cone = C.hmg_cone((10.0, 10.0), 90.0)  # laid straight down the table
    xs, ys = cone.exterior.coords.xy
    assert (xs[0], ys[0]) == (10.0, 10.0)  # the narrow end is a point on the gun
    minx, miny, maxx, maxy = cone.bounds
    assert math.isclose(maxy - miny, 18.0) and math.isclose(maxx - minx, 4.0)
    assert math.isclose(cone.area, 0.5 * 4.0 * 18.0)
    far_edge = LineString([(8.0, 28.0), (12.0, 28.0)])
    assert math.isclose(cone.intersection(far_edge).length, 4.0)
    assert math.isclose(cone.intersection(LineString([(0, 19), (20, 19)])).length, 2.0)  # 2 wide at 9


def test_the_base_width_reading_is_an_option():
    cone = C.hmg_cone((10.0, 10.0), 0.0, apex_width=1.0)
    assert math.isclose(cone.intersection(LineString([(10.0, 0.0), (10.0, 20.0)])).length, 1.0)
    assert math.isclose(cone.area, 0.5 * (1.0 + 4.0) * 18.0)


@pytest.mark.parametrize("down, band", [(0.5, "close"), (6.0, "close"), (6.1, "effective"),
                                        (12.0, "effective"), (12.1, "long"), (18.0, "long"), (18.1, None)])
def test_range_bands_down_the_axis(down, band):
    gun = (30.0, 5.0)
    cone = C.hmg_cone(gun, 90.0)
    at = (30.0, 5.0 + down)
    assert C.range_band(gun, at, BANDS) == band
    assert cone.covers(Point(at)) == (down <= 18.0)


def test_a_point_12_inches_down_the_cone_axis_is_in_the_effective_band_on_any_bearing():
    for bearing in (0.0, 37.0, 145.0, 270.0):
        gun = (36.0, 24.0)
        vx, vy = math.cos(math.radians(bearing)), math.sin(math.radians(bearing))
        at = (gun[0] + 12 * vx, gun[1] + 12 * vy)
        assert C.hmg_cone(gun, bearing).covers(Point(at))
        assert C.range_band(gun, at, BANDS) == "effective"


def test_cone_membership_of_many_teams_is_one_vectorized_shapely_call(monkeypatch):
    rng = np.random.default_rng(7)
    pts = rng.uniform(0, 40, size=(2000, 2))
    cone = C.hmg_cone((20.0, 0.0), 90.0)
    calls = []
    real = shapely.dwithin

    def counting(a, b, *args, **kw):
        calls.append((np.shape(a), np.shape(b)))
        return real(a, b, *args, **kw)

    monkeypatch.setattr(C.shapely, "dwithin", counting)
    inside = C.in_cone(cone, pts, 1.0)
    assert len(calls) == 1 and calls[0][1] == (2000,)
    one_by_one = np.array([cone.distance(Point(p)) <= 1.0 for p in pts])
    assert inside.dtype == bool and (inside == one_by_one).all()
    assert 0 < inside.sum() < 2000


def test_the_gun_lays_on_its_target_holding_as_many_teams_as_it_can():
    gun = (36.0, 10.0)
    target = (36.0, 24.0)
    teams = np.array([target, (38.5, 25.0), (39.5, 26.0), (30.0, 25.0)])
    bearing, held = C.aim(gun, target, teams, 1.0)
    cone = C.hmg_cone(gun, bearing)
    inside = C.in_cone(cone, teams, 1.0)
    assert inside[0] and held == inside.sum() == 3  # the target and the two teams to its right
    straight = C.in_cone(C.hmg_cone(gun, 90.0), teams, 1.0).sum()
    assert held > straight


def test_a_target_out_of_reach_cannot_be_laid_on():
    bearing, held = C.aim((0.0, 0.0), (0.0, 30.0), np.array([[0.0, 30.0]]), 1.0)
    assert held == -1


@pytest.mark.parametrize("away, revealed", [(17.9, True), (18.0, True), (18.1, False)])
def test_a_team_within_18_inches_of_the_front_edge_centre_reveals_the_card(away, revealed):
    depth = load_tables()["cards"]["card_depth"]
    card_at, facing = (30.0, 10.0), 90.0  # the card faces down the table
    front = C.card_front_centre(card_at, facing, depth)
    assert front == (30.0, 10.0 + depth / 2)
    team = Point(30.0, front[1] + away)
    assert bool(C.cards_revealed(np.array([front]), team, 18.0)[0]) is revealed
    # measured from the front edge's centre, not the card's centre
    assert team.distance(Point(card_at)) > 18.0


def test_a_move_reveals_every_card_its_path_comes_within_18_of():
    fronts = np.array([[10.0, 10.0], [40.0, 10.0], [70.0, 10.0]])
    path = LineString([(40.0, 40.0), (40.0, 28.1)])
    assert C.cards_revealed(fronts, path, 18.0).tolist() == [False, False, False]
    path = LineString([(40.0, 40.0), (40.0, 27.9)])
    assert C.cards_revealed(fronts, path, 18.0).tolist() == [False, True, False]
    sweep = LineString([(5.0, 27.0), (70.0, 27.0)])
    assert C.cards_revealed(fronts, sweep, 18.0).tolist() == [True, True, True]


def test_no_more_than_two_cards_within_4_inches():
    assert not C.crowded(np.array([[0, 0], [3.9, 0], [20, 20]]), 4.0, 2)
    assert C.crowded(np.array([[0, 0], [3.9, 0], [2, 3]]), 4.0, 2)
    assert C.crowded(np.array([[0, 0], [4.0, 0], [8.0, 0]]), 4.0, 2)  # the middle card has two within 4


def test_a_move_into_the_cone_reaches_its_closest_band():
    gun = (20.0, 0.0)
    cone = C.hmg_cone(gun, 90.0)
    across = LineString([(0.0, 10.0), (40.0, 10.0)])
    assert C.closest_band_on_path(gun, across, cone, BANDS, 0.0) == "effective"
    beside = LineString([(30.0, 10.0), (30.0, 2.0)])
    assert C.closest_band_on_path(gun, beside, cone, BANDS, 0.0) is None
    assert C.band_rank("close", BANDS) < C.band_rank("long", BANDS) < C.band_rank(None, BANDS)


def test_the_cone_cut_into_its_range_bands_for_drawing():
    gun = (36.0, 6.0)
    cone = C.hmg_cone(gun, 90.0)
    parts = C.band_polygons(gun, cone, BANDS)
    assert list(parts) == ["close", "effective", "long"]
    assert math.isclose(sum(p.area for p in parts.values()), cone.area, rel_tol=1e-3)
    assert parts["close"].covers(Point(36.0, 11.9)) and parts["effective"].covers(Point(36.0, 17.9))
    assert parts["long"].covers(Point(36.0, 19.0)) and not parts["long"].covers(Point(36.0, 17.0))


coord = st.floats(min_value=0.0, max_value=72.0, allow_nan=False)
bearing_st = st.floats(min_value=0.0, max_value=359.9, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(gx=coord, gy=coord, bearing=bearing_st, dist=st.floats(min_value=0.5, max_value=17.5),
       side=st.floats(min_value=-40.0, max_value=40.0),
       others=st.lists(st.tuples(coord, coord), min_size=0, max_size=12))
def test_a_gun_laid_on_a_reachable_target_always_holds_it(gx, gy, bearing, dist, side, others):
    r = math.radians(bearing + side)
    target = (gx + dist * math.cos(r), gy + dist * math.sin(r))
    teams = np.array([target] + others, dtype=float)
    laid, held = C.aim((gx, gy), target, teams, 1.0)
    inside = C.in_cone(C.hmg_cone((gx, gy), laid), teams, 1.0)
    assert inside[0] and held == int(inside.sum())
    straight, _ = C.aim((gx, gy), target, teams[:1], 1.0)
    assert held >= int(C.in_cone(C.hmg_cone((gx, gy), straight), teams, 1.0).sum())


@settings(max_examples=60, deadline=None)
@given(gx=coord, gy=coord, bearing=bearing_st, pts=st.lists(st.tuples(coord, coord), min_size=1, max_size=30))
def test_cone_membership_is_the_footprint_touching_the_cone(gx, gy, bearing, pts):
    cone = C.hmg_cone((gx, gy), bearing)
    got = C.in_cone(cone, np.array(pts), 1.0)
    assert got.tolist() == [cone.distance(Point(p)) <= 1.0 for p in pts]
