"""The Demyansk content: the map, both scenarios' order of battle (9.2) and their default set-up.

The set-up checks here are written out directly from the rulebook, not
through the scenario's own set-up rules, so the two check each other.
"""
from __future__ import annotations

from engine.scenario.setup import validate_setup

from collections import Counter, deque
from pathlib import Path

import pytest

from engine.maps.hexes import hex_distance, hex_neighbors
from engine.maps.mapfile import load_map, map_differences
from engine.scenario import AreaContext, load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = [ROOT / "scenarios" / "demyansk-1-trapped.toml", ROOT / "scenarios" / "demyansk-2-campaign.toml"]


@pytest.fixture(scope="module")
def board():
    return load_map(ROOT / "maps" / "demyansk.toml")


@pytest.fixture(scope="module", params=SCENARIOS, ids=["scenario-1", "scenario-2"])
def scenario(request):
    return load_scenario(request.param)


@pytest.fixture(scope="module")
def ctx(board):
    return AreaContext(board)


def strengths(units) -> Counter:
    return Counter(u.strengths for u in units)


def expand(spec: str) -> Counter:
    """``"3 x 4-4-8 / 4-5-8"`` -> Counter({"4-4-8": 3, "4-5-8": 1}), as 9.2 writes its lists."""
    out: Counter = Counter()
    for part in spec.split("/"):
        part = part.strip()
        n, _, v = part.partition(" x ")
        out[v if v else n] += int(n) if v else 1
    return out


def placed(scenario, board):
    return {uid: board.parse_hex(h) for uid, h in scenario.default_placement().items()}


# ---------------------------------------------------------------- the map (Demyansk 2.2)

def test_the_map_file_is_what_the_map_data_builds(board):
    from engine.rulesets.demyansk.mapdata import build_board

    built = build_board()
    assert [d for d in map_differences(built, board) if d != "sheets"] == []


def test_the_map_has_every_place_the_scenarios_name(board):
    for name in ("Staraya Russa", "Demyansk", "Ramushevo", "Fedorovka", "Rosino", "Vatulino", "Kalitkina"):
        assert len(board.areas[name].hexes) == 1, name
    quarter = board.areas["northeast_quarter"].hexes
    num = board.sheets[0].numbering
    assert len(quarter) == 15 * 11 and all(num.hex_to_colrow(h)[0] > 15 and num.hex_to_colrow(h)[1] <= 11
                                           for h in quarter)
    kinds = {name: board.terrain_of(next(iter(board.areas[name].hexes))) for name in board.areas
             if board.areas[name].kind == "town"}
    assert kinds["Staraya Russa"] == "city" and kinds["Demyansk"] == "city"
    assert kinds["Ramushevo"] == "town" and kinds["Fedorovka"] == "town"


def test_lake_ilmen_lies_north_west_and_staraya_russa_south_of_it(board):
    assert board.terrain_of(board.parse_hex("0101")) == "lake"
    sr = next(iter(board.areas["Staraya Russa"].hexes))
    lake = [h for h, t in board.terrain.items() if t == "lake"]
    assert min(hex_distance(sr, h) for h in lake) <= 4
    assert board.center(sr)[1] > max(board.center(h)[1] for h in lake if board.hex_id(h)[:2] == board.hex_id(sr)[:2])


def test_three_rivers_run_along_hexsides_from_the_south_edge_northwards(board):
    """The Redya, Lovat and Pola: three chains of river hexsides, each from the south edge to the lake or north edge."""
    rivers = [s for s, f in board.hexsides.items() if "river" in f]
    ends = {s: tuple(tuple(round(c, 6) for c in p) for p in board.layout.hexside_segment(s)) for s in rivers}
    parent = {p: p for e in ends.values() for p in e}

    def root(p):
        while parent[p] != p:
            p = parent[p]
        return p

    for a, b in ends.values():
        parent[root(a)] = root(b)
    chains: dict = {}
    for s, (a, _) in ends.items():
        chains.setdefault(root(a), []).append(s)
    assert len(chains) == 3
    num = board.sheets[0].numbering
    for sides in chains.values():
        rows = [num.hex_to_colrow(h)[1] for s in sides for h in s.hexes()]
        assert max(rows) == 22 and min(rows) <= 5


def test_demyansk_airfield_is_next_to_the_city_and_inside_the_pocket(board, ctx):
    airfield = [h for h, f in board.features.items() if "airfield" in f]
    demyansk = next(iter(board.areas["Demyansk"].hexes))
    assert len(airfield) == 1 and hex_distance(airfield[0], demyansk) == 1
    assert airfield[0] in ctx.hexes("inside pocket_perimeter")


def test_the_perimeter_encloses_demyansk_and_the_fortifications_stand_on_it(board, ctx):
    inside = ctx.hexes("inside pocket_perimeter")
    assert inside == frozenset(board.areas["pocket"].hexes)
    assert next(iter(board.areas["Demyansk"].hexes)) in inside
    assert next(iter(board.areas["Fedorovka"].hexes)) in inside
    forts = ctx.hexes("feature fortification")
    assert len(forts) == 10 and forts <= inside & ctx.hexes("along pocket_perimeter")
    edges = ctx.hexes("edge north or edge south or edge east or edge west")
    assert not inside & edges


def test_the_start_line_runs_from_the_north_edge_to_the_south_edge_west_of_the_pocket(board, ctx):
    west, east = ctx.hexes("west of start_line"), ctx.hexes("east of start_line")
    assert west | east == frozenset(board.hexes()) and not west & east
    along = ctx.hexes("along start_line")
    assert along & ctx.hexes("edge north") and along & ctx.hexes("edge south")
    assert ctx.hexes("inside pocket_perimeter") <= east
    assert board.areas["Ramushevo"].hexes <= west and board.areas["Staraya Russa"].hexes <= west
    assert board.areas["Kalitkina"].hexes <= east and board.areas["Rosino"].hexes <= east


def test_it_is_forest_and_swamp_country(board):
    kinds = Counter(board.terrain.values())
    land = sum(kinds.values()) - kinds["lake"]
    assert kinds["woods"] / land > 0.4 and kinds["rough"] / land > 0.15


# ---------------------------------------------------------------- order of battle (Demyansk 9.2)

POCKET = "3 x 4-4-8 / 4-5-8 / 3-4-6 / 3-3-6 / 3 x 2-3-6 / 3 x 3-5-7 / 4 x 3-4-7 / 2 x 4-3-6 / 2-4-6 / 2-2-5 / 1-2-6 / 1-3-8"
WEST = "3 x 5-5-7 / 3 x 4-5-8 / 2 x 4-4-7 / 4-4-8 / 2 x 7-6-8 / 2 x 10-9-8"
SOVIET = ("8-10-8 / 5-6-7 / 2 x 6-6-8 / 5-6-8 / 4 x 5-5-8 / 6 x 5-5-7 / 3 x 4-5-7 / "
          "4 x 5-2-7 / 5 x 6-3-6 / 6-3-7 / 4 x 7-3-6 / 3 x 3-2-6")
SOVIET_HQ = "0-1-3 / 3 x 0-1-4 / 0-1-5"
ARRIVALS = {("german", 3): "3 x 2-3-6 / 2 x 3-5-6 / 4 x 3-4-7",
            ("german", 4): "3 x 5-5-8 / 2 x 5-5-6 / 5-6-6",
            ("german", 6): "5 x 1-2-5",
            ("soviet", 2): "2 x 3-2-5",
            ("soviet", 3): "5-5-8 / 2 x 5-5-7 / 0-1-5"}


def test_the_order_of_battle_is_that_of_9_2(scenario):
    dep = {d.id: [scenario.units[u] for u in d.units] for d in scenario.deployments}
    assert strengths(dep["german-pocket"]) == expand(POCKET)
    assert strengths(dep["german-west"]) == expand(WEST)
    soviet = dep["soviet-initial"]
    assert strengths(u for u in soviet if u.type != "headquarters") == expand(SOVIET)
    assert strengths(u for u in soviet if u.type == "headquarters") == expand(SOVIET_HQ)
    arrivals = {(r.side, r.turn): strengths(scenario.units[u] for u in r.units) for r in scenario.reinforcements}
    assert arrivals == {k: expand(v) for k, v in ARRIVALS.items()}
    assert Counter(u.side for u in scenario.units.values()) == {"german": 55, "soviet": 46}


def test_the_divisions_of_6_5_and_the_units_of_8_3_and_8_4(scenario):
    divisions: dict[str, list] = {}
    for u in scenario.units.values():
        if u.division:
            divisions.setdefault(u.division, []).append(u)
    assert strengths(divisions["18mot"]) == {"10-9-8": 2}
    assert strengths(divisions["SS-T"]) == {"4-3-6": 2}
    assert strengths(divisions["5J"]) == {"7-6-8": 2}
    assert all(u.branch == "ss" for u in divisions["SS-T"])
    assert all(len(units) >= 2 and {u.side for u in units} == {"german"} for units in divisions.values())
    light = [u for u in scenario.units.values() if u.type == "light_infantry"]
    assert sorted(u.id for u in light) == sorted(u.id for u in divisions["5J"])
    mech = sorted(u.strengths for u in scenario.units.values() if u.has_flag("mechanized"))
    assert mech == ["10-9-8", "10-9-8", "2-4-6", "4-3-6", "4-3-6"]
    ag = [u for u in scenario.units.values() if u.type == "assault_gun"]
    assert [u.strengths for u in ag] == ["2-4-6"]


def test_soviet_headquarters_have_a_command_radius_and_the_paratroops_are_airborne(scenario):
    hqs = [u for u in scenario.units.values() if u.type == "headquarters"]
    assert len(hqs) == 6 and all(u.attack == 0 and u.defense == 1 for u in hqs)
    assert all(u.command_radius == 7 for u in hqs)
    para = [u for u in scenario.units.values() if u.type == "airborne"]
    assert [u.strengths for u in para] == ["3-2-5", "3-2-5"]
    drop = next(r for r in scenario.reinforcements if r.method == "airdrop")
    assert drop.turn == 2 and drop.may_delay and set(drop.units) == {u.id for u in para}
    assert [(a.from_turn, a.entry, a.method) for a in drop.alternatives] == [(3, "edge east", "march")]


# ---------------------------------------------------------------- the default set-up (9.2)

def test_the_default_set_up_passes_the_scenarios_own_checks(scenario, board):
    assert validate_setup(scenario, board) == []


def test_one_unit_per_hex_and_every_unit_on_the_map(scenario, board):
    where = placed(scenario, board)
    assert len(where) == 22 + 13 + 40
    assert len(set(where.values())) == len(where)          # Demyansk 5.3
    assert all(h in board for h in where.values())


def test_germans_in_the_pocket_hold_every_fortification_the_mp_and_the_flak(scenario, board, ctx):
    where = placed(scenario, board)
    pocket = scenario.deployment("german-pocket").units
    inside = ctx.hexes("inside pocket_perimeter")
    assert all(where[u] in inside for u in pocket)
    held = {where[u] for u in pocket}
    assert {h for h, f in board.features.items() if "fortification" in f} <= held
    assert where["ger-mp"] in board.areas["Fedorovka"].hexes
    airfield = next(h for h, f in board.features.items() if "airfield" in f)
    assert hex_distance(where["ger-flak"], airfield) == 1


def test_germans_west_of_the_start_line_hold_staraya_russa_and_ramushevo(scenario, board, ctx):
    where = placed(scenario, board)
    west = scenario.deployment("german-west").units
    assert all(where[u] in ctx.hexes("west of start_line") for u in west)
    held = {where[u] for u in west}
    assert board.areas["Staraya Russa"].hexes <= held and board.areas["Ramushevo"].hexes <= held


def test_the_german_front_is_continuous_from_north_to_south_at_the_start(scenario, board, ctx):
    """Demyansk 7.3: German units or their zone of control, north edge to south edge, Soviet units breaking it."""
    where = placed(scenario, board)
    german = {h for u, h in where.items() if scenario.units[u].side == "german"}
    soviet = {h for u, h in where.items() if scenario.units[u].side == "soviet"}
    front = (german | {n for h in german for n in hex_neighbors(h) if n in board}) - soviet
    start = front & ctx.hexes("edge north")
    seen, todo = set(start), deque(start)
    while todo:
        h = todo.popleft()
        for n in hex_neighbors(h):
            if n in front and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen & ctx.hexes("edge south")


def test_soviets_outside_the_perimeter_east_of_the_start_line_covering_the_perimeter(scenario, board, ctx):
    where = placed(scenario, board)
    soviet = {u: h for u, h in where.items() if scenario.units[u].side == "soviet"}
    allowed = ctx.hexes("outside pocket_perimeter") & ctx.hexes("east of start_line")
    assert all(h in allowed for h in soviet.values())
    forts = {h for h, f in board.features.items() if "fortification" in f}
    zoc = {n for h in soviet.values() for n in hex_neighbors(h) if n in board and n not in forts}   # 4, 6.2
    soviet_side = ctx.hexes("along pocket_perimeter") - ctx.hexes("inside pocket_perimeter")
    assert len(soviet_side) == 36
    assert soviet_side <= set(soviet.values()) | zoc


def test_soviet_zones_of_control_stop_at_the_fortifications(scenario, board):
    """Demyansk 6.2, as the set-up's cover rule counts it: a Soviet unit next to a fortification
    does not cover it, so a perimeter hex is covered only by units and ZOC outside the forts."""
    from engine.scenario.setup import zone_of_control

    where = placed(scenario, board)
    soviet = [h for u, h in where.items() if scenario.units[u].side == "soviet"]
    forts = {h for h, f in board.features.items() if "fortification" in f}
    watched = {n for h in soviet for n in hex_neighbors(h)} & forts
    assert len(watched) >= 5
    assert not zone_of_control(soviet, board, {"fortification"}) & forts
    assert watched <= zone_of_control(soviet, board)


def test_the_soviet_north_south_split(scenario, board, ctx):
    where = placed(scenario, board)
    row = ctx.row_of(next(iter(board.areas["Demyansk"].hexes)))
    units = [(scenario.units[u], ctx.row_of(h)) for u, h in where.items()
             if scenario.units[u].side == "soviet" and scenario.units[u].type != "headquarters"]
    north = Counter(u.strengths for u, r in units if r <= row)
    south = Counter(u.strengths for u, r in units if r >= row)
    divs = ("4-5-7", "5-5-7", "5-5-8", "5-6-7")
    brigades = ("5-2-7", "6-3-6", "6-3-7", "7-3-6")
    assert sum(north[s] for s in divs) == 11 and north["3-2-6"] == 2 and sum(north[s] for s in brigades) == 7
    assert sum(north[s] for s in ("8-10-8", "6-6-8", "5-6-8")) == 0
    south_divs = sum(n for s, n in south.items() if s not in brigades and s != "3-2-6")
    assert south_divs == 7 and south["3-2-6"] == 1 and sum(south[s] for s in brigades) == 7


def test_the_special_placement_rule(scenario, board, ctx):
    where = placed(scenario, board)
    soviet = [h for u, h in where.items() if scenario.units[u].side == "soviet"
              and scenario.units[u].type != "headquarters"]
    num = board.sheets[0].numbering
    r0 = num.hex_to_colrow(next(iter(board.areas["Ramushevo"].hexes)))[1]
    r1 = num.hex_to_colrow(next(iter(board.areas["Kalitkina"].hexes)))[1]
    along_east = ctx.hexes("along start_line") & ctx.hexes("east of start_line")
    woods = [h for h in soviet if h in along_east and board.terrain_of(h) == "woods"
             and r0 <= num.hex_to_colrow(h)[1] <= r1]
    assert len(woods) >= 3
    rosino = next(iter(board.areas["Rosino"].hexes))
    assert sum(1 for h in soviet if hex_distance(h, rosino) <= 1) >= 3


def test_soviet_headquarters_where_9_2_puts_them(scenario, board, ctx):
    where = placed(scenario, board)
    near_lines = ctx.hexes("along start_line or along pocket_perimeter")
    place = {name: next(iter(board.areas[name].hexes)) for name in board.areas if board.areas[name].kind == "town"}
    hq = {scenario.units[u].strengths + ":" + u: h for u, h in where.items() if scenario.units[u].type == "headquarters"}
    assert not set(hq.values()) & near_lines
    by_value = Counter(k.split(":")[0] for k in hq)
    assert by_value == {"0-1-3": 1, "0-1-4": 3, "0-1-5": 1}
    assert hex_distance(where["sov-hq-11a"], place["Staraya Russa"]) <= 2
    assert hex_distance(where["sov-hq-1sha"], place["Rosino"]) <= 3
    assert hex_distance(where["sov-hq-53a"], place["Vatulino"]) <= 3
    assert hex_distance(where["sov-hq-27a"], place["Kalitkina"]) <= 5
    ne = where["sov-hq-34a"]
    col, row = board.sheets[0].numbering.hex_to_colrow(ne)
    assert col > 15 and row <= 11 and ne in board.areas["northeast_quarter"].hexes
    perimeter = ctx.hexes("along pocket_perimeter")
    assert min(hex_distance(ne, h) for h in perimeter) + 1 >= 3


def test_every_soviet_unit_starts_within_a_command_radius(scenario, board):
    """Our choice of radius (8.1 gives none) keeps the whole default set-up in command."""
    where = placed(scenario, board)
    hqs = [(where[u.id], u.command_radius) for u in scenario.units.values() if u.type == "headquarters" and u.id in where]
    for uid, h in where.items():
        if scenario.units[uid].side == "soviet":
            assert any(hex_distance(h, q) <= r for q, r in hqs), uid


# ---------------------------------------------------------------- what breaks a set-up

def test_a_moved_garrison_leaves_a_fortification_empty(board):
    s = load_scenario(SCENARIOS[0])
    placement = s.default_placement()
    placement["ger-12-27"] = "2012"
    probs = [str(p) for p in validate_setup(s, board, placement)]
    assert any("Demyansk 9.2: one German unit in each fortification hex: no unit in 1715" in p for p in probs)


def test_two_units_in_a_hex_break_5_3(board):
    s = load_scenario(SCENARIOS[0])
    placement = s.default_placement()
    placement["ger-12-27"] = placement["ger-12-48"]
    probs = [str(p) for p in validate_setup(s, board, placement)]
    assert any("Demyansk 5.3: 2 units in hex 2016" in p for p in probs)


def test_a_soviet_unit_inside_the_pocket_is_outside_its_set_up_area(board):
    s = load_scenario(SCENARIOS[0])
    placement = s.default_placement()
    placement["sov-26"] = "2012"
    probs = [str(p) for p in validate_setup(s, board, placement)]
    assert any("units.sov-26.hex: Demyansk 9.2: 2012 is not in the set-up area" in p for p in probs)
    assert any("neither a unit nor a zone of control in" in p for p in probs)


def test_a_hex_off_the_map_is_named(board):
    s = load_scenario(SCENARIOS[0])
    placement = s.default_placement()
    placement["ger-mp"] = "4040"
    probs = [str(p) for p in validate_setup(s, board, placement)]
    assert any("units.ger-mp.hex" in p and "off the map" in p for p in probs)


# ---------------------------------------------------------------- scenario II (9.3)

def test_scenario_two_withdrawals_special_rules_and_victory_points():
    s = load_scenario(SCENARIOS[1])
    assert (s.first_turn, s.last_turn) == (1, 18)
    w = {x.by_turn: sorted(x.units) for x in s.withdrawals}
    assert w == {10: ["ger-18mot-30", "ger-18mot-51"], 14: ["ger-sst-1", "ger-sst-3"]}
    assert all(x.no_attack_from_turn == x.by_turn for x in s.withdrawals)
    assert s.special_rules == {"pocket_units_stay_east_until_turn": 10, "garrison_duty_last_turn": 10}
    awards = {(a.side, a.event, a.points) for a in s.victory.awards}
    assert awards == {("soviet", "destroyed_in_combat", 3), ("soviet", "destroyed_in_combat", 1),
                      ("soviet", "east_of_front_at_end", 3), ("soviet", "east_of_front_at_end", 1),
                      ("soviet", "no_continuous_front", 1), ("soviet", "withdrawal_overdue", 1),
                      ("german", "in_or_west_of_front_at_end", 2)}
    three = next(a for a in s.victory.awards if a.points == 3 and a.event == "destroyed_in_combat")
    assert three.select.matches(s.units["ger-ag-600"]) and not three.select.matches(s.units["ger-12-27"])


def test_scenario_one_is_won_by_an_open_path_to_the_west_edge():
    s = load_scenario(SCENARIOS[0])
    assert (s.first_turn, s.last_turn) == (1, 10) and not s.withdrawals
    v = s.victory
    assert (v.kind, v.side, v.otherwise, v.target) == ("open_path", "german", "soviet", "edge west")
    assert v.source.deployment == "german-pocket" and set(v.free_of) == {"enemy_units", "enemy_zoc"}


def test_both_scenarios_share_forces_set_up_and_arrivals():
    a, b = (load_scenario(p) for p in SCENARIOS)
    assert a.units == b.units and a.deployments == b.deployments and a.reinforcements == b.reinforcements
    assert a.setup_rules == b.setup_rules


def test_the_odd_faces_air_supply_variant():
    s = load_scenario(SCENARIOS[0]).with_variant("air-supply-odd-faces")
    assert s.options["air_supply_faces"] == [1, 3, 5]
