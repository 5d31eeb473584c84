"""The stand-in Black Wednesday and Leros maps: every hex and feature the rulebooks name, at its hexes,
on the stand-ins and on a second digitisation with the same ids and other geometry and art."""
from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
import shapely
from PIL import Image

from engine.los.query import line_of_sight, sight_map
from engine.los.rules import los_rules_from_dict
from engine.maps.art import sheet_frame
from engine.maps.hexes import hex_distance, hex_neighbors
from engine.maps.mapedit import check_map
from engine.maps.mapfile import dumps_map, load_map
from engine.scenario.areas import AreaContext

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
TWINS = ROOT / "tests" / "data" / "redigitised"

# Every hex id the Black Wednesday rulebook prints (set-ups, the Prep Log, the terrain notes).
BW_NAMED = """
A10.27 A10.28 A12.29 A12.30 A15.32 A17.25 A17.33 A18.24 A20.31 A21.30 A21.31 A22.30 A22.35 A23.30 A25.23 A25.24
A25.29 A25.34 A26.23 A26.35 A27.14 A27.24 A27.30 A27.31 A28.27 A28.30 A28.31 A28.34 A29.27 A29.31 A29.33 A30.17
A30.32 A30.33 A30.34 A33.25 A35.23 A36.31 A37.24 A38.17 A38.21 A39.24 A46.20 A47.32 A47.35 A48.15 A49.13 A51.24
A51.31 A53.14 A54.14 A54.19 A62.30 B02.13 B05.07 B07.17 B10.06 B12.07 B12.32 B14.09 B15.06 B15.23 B15.30 B15.31
B15.32 B15.33 B15.34 B16.28 B16.29 B16.30 B16.33 B16.34 B17.07 B17.28 B18.30 B18.34 B19.26 B19.29 B19.32 B20.04
B21.20 B21.26 B21.29 B21.32 B22.01 B24.25 B25.02 B26.22 B29.01 B29.02 B29.03 B29.05 B29.12 B29.15 B29.19 B29.23
B29.25 B29.30 B30.05 B30.09 B31.09 B31.10 B32.06 B32.11 B32.22 B33.07 B33.11 B33.12 B33.13 B33.21 B33.23 B34.12
B34.14 B34.15 B34.16 B34.17 B34.19 B34.21 B36.13 B36.30 B37.05 B37.06 B37.24 B38.11 B38.13 B38.14 B38.16 B40.10
B40.15 B40.19 B41.19 B41.21 B43.12 B43.14 B44.05 B44.26 B45.17 B45.18 B45.30 B46.07 B46.12 B47.10 B48.14 B48.18
B49.14 B49.19 B50.06 B50.07 B50.11 B51.02 B52.07 B52.10 B53.12 B57.02 B58.02 B59.08 B59.09 B59.12 B59.13 B60.16
B60.17 B61.21 B62.26 B62.30
""".split()
# Spanish company set-up centres on the front line (scenarios 1-3 and 5), each a trench hex.
BW_FRONT_COMPANIES = """B16.29 B16.33 B19.26 B24.25 B29.25 B33.23 B34.15 B34.19 B33.12 B31.09 B29.03 B30.05
A30.33 A27.30 A21.31 A22.30 A15.32 A17.33 A12.29 A10.27 A12.30 A10.28""".split()
BW_VILLAGES = ("Krasni Bor", "Staraia Myza", "Potrolovo", "Mondolovo", "Samsonovka", "Raikolovo", "Iam Izhora")

LEROS_NAMED = """
A27.10 A28.07 A29.14 A31.05 A34.03 A34.07 A36.13 A40.15 A40.17 A45.05 A47.04 A49.11 A52.06 A54.06 B22.34 B26.35
B27.29 B27.34 B31.27 B33.26 B34.10 B34.21 B34.22 B34.25 B34.30 B35.03 B35.04 B35.13 B35.24 B36.21 B36.23 B37.20
B38.12 B38.25 B38.28 B39.15 B39.30 B40.10 B40.13 B40.19 B40.25 B41.22 B41.23 B42.06 B42.12 B42.13 B42.14 B42.30
B42.34 B43.15 B45.08 B45.17 B45.21 B46.11 B47.16 B48.18 B50.11 B51.17 B53.13 B54.13 B54.34 B55.12 B58.11 B59.12
B59.13 C36.14 C39.30
""".split()
LEROS_OBJECTIVES = {"Castle Leros": "B51.17", "Mt. Meraviglia": "B43.15", "Mt. Appetici": "B55.12",
                    "Rachi Ridge": "B36.21", "Quaranta": "B39.30", "Germano": "B31.27", "Mt. Vedetta": "A54.06",
                    "Point 320 Clidi Ridge": "A45.05", "S. Quirico": "A34.03"}
LEROS_BAYS = ("Gurna Bay", "Palma Bay", "Pandeli Bay", "Alinda Bay", "Grifo Bay", "Parteni Bay", "Blefuti Bay",
              "Portolago Bay", "Serocampo Bay")

BW_LOS = {"edge_rule": "both",
          "kinds": {"peat bog": {"protective": True, "rule": "Black Wednesday 1.1g"}},
          "fixed_elevation": [{"feature": "rr embankment", "elevation": 80.0, "rule": "Black Wednesday 1.2a"}],
          "no_direct_fire": [{"feature": "mill", "rule": "Black Wednesday 1.1f"}]}
LEROS_LOS = {"height_override": {"woods": {"height": 5.0, "rule": "Leros 1.1a"}},
             "sea_centre": {"feature": "coast", "sea_kind": "sea", "elevation": 0.0, "rule": "Leros 1.1e"},
             "unit_elevation": [{"feature": "pier", "elevation": 5.0, "rule": "Leros 1.1e"}]}


@pytest.fixture(scope="module")
def bw():
    return load_map(MAPS / "black-wednesday.toml")


@pytest.fixture(scope="module")
def bw_twin():
    return load_map(TWINS / "black-wednesday.toml")


@pytest.fixture(scope="module")
def leros():
    return load_map(MAPS / "leros.toml")


@pytest.fixture(scope="module")
def leros_twin():
    return load_map(TWINS / "leros.toml")


def connected(hexes) -> bool:
    hexes = set(hexes)
    start = next(iter(hexes))
    seen, todo = {start}, deque([start])
    while todo:
        for n in hex_neighbors(todo.popleft()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


def ids(board, hexes) -> set[str]:
    return {board.hex_id(h) for h in hexes}


# ---------------------------------------------------------------- Black Wednesday

@pytest.mark.parametrize("which", ["bw", "bw_twin"])
def test_every_hex_the_black_wednesday_rulebook_names_is_on_the_map(which, request):
    board = request.getfixturevalue(which)
    assert len(BW_NAMED) == 164
    for hid in BW_NAMED:
        assert board.hex_id(board.parse_hex(hid)) in (hid, _other_id(board, hid))


def _other_id(board, hid):
    ids_ = board.hex_ids(board.parse_hex(hid))
    return next(i for i in ids_ if i != hid) if len(ids_) > 1 else hid


def test_black_wednesday_sheets_run_north_to_south_by_first_number_and_share_a_row(bw):
    a, b = bw.sheet("A").numbering, bw.sheet("B").numbering
    assert (a.cols, a.rows, b.cols, b.rows) == (63, 36, 63, 36)
    assert a.row_direction == b.row_direction == "up"
    # sheet A lies west of B; A's row 36 is B's row 01 (1-133 at B25.02 beside 2-133 at A25.34)
    assert bw.parse_hex("A25.36") == bw.parse_hex("B25.01")
    assert hex_distance(bw.parse_hex("A25.34"), bw.parse_hex("B25.02")) == 3
    assert hex_distance(bw.parse_hex("A30.33"), bw.parse_hex("B29.03")) <= 6
    # north is the left edge (column 01): the Soviets enter there, east of the highway (1.10g)
    north = AreaContext(bw).hexes("edge north")
    assert north == frozenset(bw.areas["north edge"].hexes)
    assert {bw.sheets_of(h)[0].numbering.hex_to_colrow(h)[0] for h in north} == {1}
    assert "xx.37" in bw.notes and "53.12" in bw.notes


def test_the_hospital_stands_apart_from_krasni_bor(bw):
    h = bw.parse_hex("B53.12")
    assert "hospital" in bw.features_of(h) and bw.terrain_of(h) == "city"
    town = bw.areas["Krasni Bor"].hexes
    assert h not in town and not any(n in town for n in hex_neighbors(h))
    # scenario 2's 'w/i 6 B53.12' and scenario 4's 'w/i 4 53.12' both resolve
    assert len(AreaContext(bw).hexes("within 4 of B53.12")) == 61


def test_krasni_bor_is_one_town_of_city_and_building_hexes(bw):
    town = bw.areas["Krasni Bor"].hexes
    assert connected(town)
    terrain = {bw.terrain_of(h) for h in town}
    assert terrain == {"city", "building"}
    # scenario 4: the Axis must hold 50 City & Building hexes of it; 5.1 counts 20 and 40
    assert len(town) >= 80
    assert all(i.startswith("B") for i in ids(bw, town))
    # 5.0: the small woods inside are not part of it
    assert bw.terrain_of(bw.parse_hex("B44.21")) == "forest" and bw.parse_hex("B44.21") not in town


def test_el_bastion_is_two_trench_hexes_on_the_front_line(bw):
    for hid in ("B32.06", "B33.07"):
        h = bw.parse_hex(hid)
        assert {"trench", "el bastion"} <= bw.features_of(h)
        assert h in bw.areas["first trench line"].hexes
    assert ids(bw, bw.areas["El Bastion"].hexes) == {"B32.06", "B33.07"}


def test_the_mill_is_a_walled_city_hex_entered_by_road_from_a26_23(bw):
    mill, gate = bw.parse_hex("A25.23"), bw.parse_hex("A26.23")
    assert "mill" in bw.features_of(mill) and bw.terrain_of(mill) == "city"
    for n in hex_neighbors(mill):
        assert "wall" in bw.hexside_features(mill, n)
    assert "gate" in bw.hexside_features(mill, gate)
    roads = [n for n in hex_neighbors(mill) if bw.has_link("road", mill, n)]
    assert roads == [gate]


def test_the_crash_station_bog_and_villages_are_where_the_text_puts_them(bw):
    assert "fw-190 crash" in bw.features_of(bw.parse_hex("A46.20"))
    station = next(iter(bw.areas["Train Station"].hexes))
    assert "train station" in bw.features_of(station) and station in bw.areas["October Railroad"].hexes
    bog = bw.areas["Peat Bog"].hexes
    assert len(bog) > 100 and {bw.terrain_of(h) for h in bog} == {"peat bog"}
    assert all(bw.hex_id(h).startswith("B") for h in bog)
    for name in BW_VILLAGES:
        area = bw.areas[name]
        assert area.kind == "town" and area.hexes and connected(area.hexes)
        assert {bw.terrain_of(h) for h in area.hexes} <= {"city", "building"}
    # 5.1 Axis Minor: there are City hexes west of the Izhora, south of the trench line
    assert {bw.terrain_of(h) for h in bw.areas["Raikolovo"].hexes} == {"city", "building"}


def test_every_spanish_front_company_area_is_centred_on_a_trench_with_wire_in_front(bw):
    first, wire = bw.areas["first trench line"].hexes, bw.areas["wire line"].hexes
    for hid in BW_FRONT_COMPANIES:
        h = bw.parse_hex(hid)
        assert "trench" in bw.features_of(h) and h in first, hid
        assert any(x in wire for x in AreaContext(bw).hexes(f"within 2 of {hid}")), hid
    assert all("wire" in bw.features_of(h) and "trench" not in bw.features_of(h) for h in wire)
    second = bw.areas["second trench line"].hexes
    assert len(second) > 60 and not (second & first)
    assert connected(first) and connected(second)
    # scenario 3 asks for 25 trench hexes west of the railroad: there are many more
    assert sum("trench" in f for f in bw.features.values()) > 150


def test_the_at_ditch_runs_along_hexsides_north_of_the_eastern_line(bw):
    ditch = [s for s, f in bw.hexsides.items() if "at ditch" in f]
    assert len(ditch) > 40
    cols = {bw.sheets_of(h)[0].numbering.hex_to_colrow(h)[0] for s in ditch for h in s.hexes()}
    assert cols <= set(range(11, 17))
    # scenario 6: the Ind Tank Bn sets up 'w/i 4 B12.32 north of AT ditch'
    start = bw.parse_hex("B12.32")
    assert all(bw.sheets_of(h)[0].numbering.hex_to_colrow(h)[0] < 16 for s in ditch for h in s.hexes()
               if hex_distance(h, start) <= 4)


def test_highway_railroad_and_izhora_cross_the_map_north_to_south(bw):
    for kind, area in (("highway", "Leningrad-Moscow Highway"), ("railroad", "October Railroad")):
        hexes = bw.areas[area].hexes
        assert hexes & bw.areas["north edge"].hexes and hexes & bw.areas["south edge"].hexes, kind
        assert all(any(bw.has_link(kind, h, n) for n in hex_neighbors(h)) for h in hexes)
    assert bw.areas["Leningrad-Moscow Highway"].hexes & bw.areas["Krasni Bor"].hexes
    river = [s for s, f in bw.hexsides.items() if "river" in f]
    banks = {h for s in river for h in s.hexes()}
    assert banks & bw.areas["north edge"].hexes and banks & bw.areas["south edge"].hexes
    # 1.10g: the Soviets enter from the north edge east of the highway
    entry = bw.areas["Soviet entry"].hexes
    road_at_edge = bw.areas["Leningrad-Moscow Highway"].hexes & bw.areas["north edge"].hexes
    assert entry and entry <= bw.areas["north edge"].hexes and not (entry & road_at_edge)


def test_entry_areas_a_to_h_lie_on_the_map_edges(bw):
    edges = set().union(*(bw.areas[f"{d} edge"].hexes for d in ("north", "south", "east", "west")))
    seen = set()
    for letter in "ABCDEFGH":
        area = bw.areas[f"Entry Area {letter}"]
        assert area.kind == "entry" and area.hexes and area.hexes <= edges
        assert not (area.hexes & seen)
        seen |= area.hexes
    # the German areas E-H are on the south edge (Sablino is south); H reaches the east edge
    assert bw.areas["Entry Area H"].hexes & bw.areas["east edge"].hexes


def test_the_embankment_blocks_sight_at_80_metres(bw):
    rules = los_rules_from_dict(BW_LOS)
    sm = sight_map(bw, rules)
    a, b = bw.parse_hex("B10.24"), bw.parse_hex("B10.31")
    bank = bw.parse_hex("B10.27")
    assert "rr embankment" in bw.features_of(bank) and bw.elevation_of(bank) == 80.0
    assert bw.elevation_of(a) == bw.elevation_of(b) == 60.0
    r = line_of_sight(sm, a, b)
    assert not r.clear and r.blocker.kind == "rr embankment" and r.blocker.hex_id == "B10.27"
    # the same line where the railroad runs at ground level through the station yard is clear
    yard = line_of_sight(sm, bw.parse_hex("B46.24"), bw.parse_hex("B46.32"))
    assert "rr embankment" not in bw.features_of(bw.parse_hex("B46.28")) and yard.clear


def test_the_peat_bog_is_no_obstacle_and_the_mill_refuses_direct_fire(bw):
    sm = sight_map(bw, los_rules_from_dict(BW_LOS))
    across = line_of_sight(sm, bw.parse_hex("B20.10"), bw.parse_hex("B20.20"))
    assert all(bw.terrain_of(bw.parse_hex(f"B20.{r:02d}")) == "peat bog" for r in range(11, 20))
    assert across.clear
    into = line_of_sight(sm, bw.parse_hex("A27.23"), bw.parse_hex("A25.23"))
    assert into.can_see and not into.direct_fire and "1.1f" in into.direct_fire_rule


# ---------------------------------------------------------------- Leros

@pytest.mark.parametrize("which", ["leros", "leros_twin"])
def test_every_hex_the_leros_rulebook_names_is_on_land(which, request):
    board = request.getfixturevalue(which)
    assert len(LEROS_NAMED) == 67
    for hid in LEROS_NAMED:
        h = board.parse_hex(hid)
        assert board.terrain_of(h) != "sea" and "coast" not in board.features_of(h), hid


def test_leros_sheets_stack_north_to_south(leros):
    assert [s.id for s in leros.sheets] == ["A", "B", "C"]
    assert leros.parse_hex("A40.01") == leros.parse_hex("B40.36")
    assert leros.parse_hex("B40.01") == leros.parse_hex("C40.36")
    # north at the top: Portolago lies south-west of Leros town, Rachi Ridge north-west of it
    x, y = leros.center(leros.parse_hex("B47.16"))
    px, py = leros.center(leros.parse_hex("B35.04"))
    rx, ry = leros.center(leros.parse_hex("B36.21"))
    assert px < x and py > y and rx < x and ry < y


def test_leros_named_places_are_at_their_hexes(leros):
    for name, hid in LEROS_OBJECTIVES.items():
        assert ids(leros, leros.areas[name].hexes) == {hid}
    assert "castle" in leros.features_of(leros.parse_hex("B51.17"))
    assert leros.elevation_of(leros.parse_hex("A45.05")) == 320.0
    for name, hid in (("Leros", "B47.16"), ("Portolago", "B35.04")):
        town = leros.areas[name].hexes
        assert leros.parse_hex(hid) in town and connected(town)
    assert {leros.terrain_of(h) for h in leros.areas["Leros"].hexes} == {"village"}
    assert {leros.terrain_of(h) for h in leros.areas["Portolago"].hexes} == {"building"}
    assert ids(leros, leros.areas["historical drop zone"].hexes) == {"B34.25"}


def test_leros_is_an_island_with_its_bays_at_sea(leros):
    sea = {h for h, t in leros.terrain.items() if t == "sea"}
    land = {h for h, t in leros.terrain.items() if t != "sea"}
    assert len(sea) > len(land) / 2 and connected(land) and connected(sea)
    edges = [h for h in leros.hexes() if any(n not in leros for n in hex_neighbors(h))]
    assert all(leros.terrain_of(h) == "sea" for h in edges)
    coast = {h for h, f in leros.features.items() if "coast" in f}
    water = shapely.union_all([shapely.Polygon(o.points) for o in leros.obstacles if o.kind == "sea"])
    assert coast and all(leros.layout.polygon(h).buffer(1e-3).intersects(water) for h in coast)
    assert not any(leros.layout.polygon(h).buffer(-1e-3).intersects(water) for h in land - coast)
    for name in LEROS_BAYS:
        bay = leros.areas[name].hexes
        assert bay and all(leros.terrain_of(h) == "sea" or h in coast for h in bay), name


def test_a_coast_hex_whose_centre_is_at_sea_is_at_elevation_0(leros):
    seas = [shapely.Polygon(o.points) for o in leros.obstacles if o.kind == "sea"]
    coast = sorted(h for h, f in leros.features.items() if "coast" in f)
    wet = [h for h in coast if any(p.contains(shapely.Point(leros.center(h))) for p in seas)]
    dry = [h for h in coast if h not in wet]
    assert len(wet) > 50 and len(dry) > 50
    sm = sight_map(leros, los_rules_from_dict(LEROS_LOS))
    for h in [h for h in wet if "pier" not in leros.features_of(h)][::7]:   # in a pier units stand at 5 m
        assert leros.elevation_of(h) == 0.0
        n = next(x for x in hex_neighbors(h) if x in leros)
        assert line_of_sight(sm, h, n).observer_elevation == 0.0
    assert all(leros.terrain_of(h) != "sea" for h in wet + dry)      # coast hexes are land to move and fight on


def test_piers_stand_at_5_metres_and_contours_are_25_metres_apart(leros):
    sm = sight_map(leros, los_rules_from_dict(LEROS_LOS))
    piers = [h for h, f in leros.features.items() if "pier" in f]
    assert len(piers) >= 3
    for h in piers:
        assert "coast" in leros.features_of(h)
        n = next(x for x in hex_neighbors(h) if x in leros)
        assert line_of_sight(sm, h, n).observer_elevation == 5.0
    spot = leros.parse_hex("A45.05")
    assert all(v % 25.0 == 0.0 for h, v in leros.elevation.items() if h != spot)
    assert len({v for v in leros.elevation.values()}) >= 8


@pytest.mark.parametrize("which", ["leros", "leros_twin"])
def test_leros_passes_check_map_measured_in_its_25_metre_contours(which, request):
    board = request.getfixturevalue(which)
    assert board.contour_interval == 25.0                                   # Leros 1.1f
    assert check_map(board) == []
    steps = {abs(board.elevation_of(a) - board.elevation_of(b)) for a in board.hexes() for b in board.neighbors(a)}
    assert 50.0 in steps and max(steps) == 50.0                             # cliffs of two contours, no more


def test_sixteen_landing_zones_divide_the_coast(leros):
    coast = {h for h, f in leros.features.items() if "coast" in f}
    zones = {n: leros.areas[f"Landing Zone {n}"].hexes for n in range(1, 17)}
    assert set().union(*zones.values()) == coast
    assert sum(len(z) for z in zones.values()) == len(coast)
    for n, z in zones.items():
        assert z and connected(z), n

    def touches(zone, bay):
        return any(n in leros.areas[bay].hexes or h in leros.areas[bay].hexes
                   for h in zone for n in hex_neighbors(h))
    assert touches(zones[3], "Palma Bay") and touches(zones[4], "Grifo Bay") and touches(zones[13], "Gurna Bay")
    assert touches(zones[6], "Pandeli Bay") and any("pier" in leros.features_of(h) for h in zones[6])
    appetici = leros.parse_hex("B55.12")
    assert min(hex_distance(appetici, h) for h in zones[5]) <= 6


def test_coastal_batteries_and_off_map_boxes(leros):
    for letter in "ABCDEFGHIJKLM":
        (h,) = leros.areas[f"Coastal Battery {letter}"].hexes
        assert "coastal battery" in leros.features_of(h) and leros.terrain_of(h) != "sea"
    for box in ("kos", "samos", "athens", "german-sea-A", "british-sea-A", "german-approach", "air-A",
                "air-execution", "air-return-1"):
        assert box in leros.boxes


# ---------------------------------------------------------------- the re-digitised twins

@pytest.mark.parametrize("pair", [("bw", "bw_twin"), ("leros", "leros_twin")])
def test_the_twin_agrees_on_every_fact_by_hex_id(pair, request):
    one, two = (request.getfixturevalue(p) for p in pair)
    by_id = {one.hex_id(h): h for h in one.hexes()}
    assert len(by_id) == len(two.hexes())
    for hid, h in by_id.items():
        k = two.parse_hex(hid)
        assert (one.terrain_of(h), one.features_of(h), one.elevation_of(h)) == \
               (two.terrain_of(k), two.features_of(k), two.elevation_of(k)), hid
    for field in ("hexsides", "links"):
        def side_ids(board, sides):
            return {tuple(sorted((board.hex_id(s.a), board.hex_id(s.b)))) for s in sides}
        if field == "hexsides":
            names = {n for v in one.hexsides.values() for n in v}
            for name in names:
                assert side_ids(one, [s for s, f in one.hexsides.items() if name in f]) == \
                       side_ids(two, [s for s, f in two.hexsides.items() if name in f]), name
        else:
            assert one.links.keys() == two.links.keys()
            for kind in one.links:
                assert side_ids(one, one.links[kind]) == side_ids(two, two.links[kind]), kind
    assert one.areas.keys() == two.areas.keys()
    for name in one.areas:
        assert ids(one, one.areas[name].hexes) == ids(two, two.areas[name].hexes), name
    assert one.boxes == two.boxes


@pytest.mark.parametrize("pair", [("bw", "bw_twin"), ("leros", "leros_twin")])
def test_the_twin_has_other_geometry_and_art(pair, request):
    one, two = (request.getfixturevalue(p) for p in pair)
    h = one.parse_hex(one.hex_id(one.hexes()[0]))
    assert one.center(h) != two.center(two.parse_hex(one.hex_id(h)))
    for a, b in zip(one.sheets, two.sheets):
        assert a.transform.b == 0.0 and abs(b.transform.b) > 0.01        # the twin's scan lies askew
        assert abs(a.transform.scale - b.transform.scale) > 3.0
        with Image.open(one.image_path(a)) as ia, Image.open(two.image_path(b)) as ib:
            assert ia.size != ib.size


def test_a_coast_hex_is_sea_centred_on_both_digitisations(leros, leros_twin):
    def wet(board):
        seas = [shapely.Polygon(o.points) for o in board.obstacles if o.kind == "sea"]
        return {board.hex_id(h) for h, f in board.features.items()
                if "coast" in f and any(p.contains(shapely.Point(board.center(h))) for p in seas)}
    assert wet(leros) == wet(leros_twin)


def test_the_area_expressions_of_the_scenarios_resolve_on_both(bw, bw_twin, leros, leros_twin):
    for one, two, exprs in ((bw, bw_twin, ("within 2 of B16.29", "edge north", "'Entry Area H'", "krasni_bor",
                                           "within 5 of 'Leningrad-Moscow Highway'", "columns 1 to 36 and feature trench")),
                            (leros, leros_twin, ("within 3 of B40.25", "'Landing Zone 13'", "'Gurna Bay'",
                                                 "within 4 of A52.06 or within 4 of B42.34", "terrain village"))):
        for e in exprs:
            a, b = AreaContext(one).hexes(e), AreaContext(two).hexes(e)
            assert a and ids(one, a) == ids(two, b), e


# ---------------------------------------------------------------- the generator

@pytest.mark.parametrize("game,stem", [("blackwednesday", "black-wednesday"), ("leros", "leros")])
def test_the_committed_map_file_is_what_the_generator_writes(game, stem):
    import importlib

    mod = importlib.import_module(f"engine.maps.standins.{game}")
    board = mod.build_board()
    drawn = mod.printed(board)
    for sheet, art_sheet in zip(board.sheets, drawn.sheets):
        sheet.transform, _size = sheet_frame(drawn, art_sheet, mod.PX_PER_HEX)
        sheet.image = f"{stem}-{sheet.id}.png"
    assert dumps_map(board) == (MAPS / f"{stem}.toml").read_text(encoding="utf-8")
    for sheet in board.sheets:
        with Image.open(MAPS / sheet.image) as im:
            assert im.size == sheet_frame(drawn, sheet, mod.PX_PER_HEX)[1]
