"""Line of sight: real situations on boards built in code, answers computed by hand."""
from __future__ import annotations

import math

import pytest
import shapely

from engine.maps.board import Board, Obstacle, Sheet
from engine.errors import IllegalAction
from engine.maps.hexes import FLAT, Hex, hexside
from engine.los.query import line_of_sight, require_direct_fire, sight_map
from engine.los.rules import DEFAULT_LOS_RULES, FeatureElevation, KindRule, SeaCentre
from engine.maps.numbering import NumberingScheme


def open_board(cols: int = 12, rows: int = 10, orientation: str = FLAT) -> Board:
    """One TCS sheet "A" of open ground at elevation 0."""
    ns = NumberingScheme(style="tcs", sheet="A", cols=cols, rows=rows, orientation=orientation)
    return Board(name="test", orientation=orientation, sheets=[Sheet("A", ns)])


def blob(board: Board, hex_id: str, kind: str, height: float, radius: float = 0.45, sides: int = 8) -> Obstacle:
    """A traced obstacle: a regular polygon round a hex centre, added to the board."""
    cx, cy = board.center(board.parse_hex(hex_id))
    pts = [(cx + radius * math.cos(2 * math.pi * (i + 0.5) / sides),
            cy + radius * math.sin(2 * math.pi * (i + 0.5) / sides)) for i in range(sides)]
    ob = Obstacle(kind, height, pts)
    board.obstacles.append(ob)
    return ob


def los(board, a, b, rules=DEFAULT_LOS_RULES, **kw):
    return line_of_sight(sight_map(board, rules), board.parse_hex(a), board.parse_hex(b), **kw)


# A05.02 -> A05.06 runs straight down one column: 4 hexes, crossing each hexside at its midpoint.
# A05.04 is the middle hex; the line is inside it for t in [0.375, 0.625].
OBS, MID, TGT = "A05.02", "A05.04", "A05.06"


def test_flat_open_ground_is_clear():
    board = open_board()
    r = los(board, OBS, TGT)
    assert r.clear and r.can_see and r.direct_fire
    assert r.range == 4
    assert r.obstructions == ()
    assert r.to_dict()["result"] == "clear"


def test_wood_between_two_hexes_at_equal_elevation_blocks():
    board = open_board()
    board.terrain[board.parse_hex(MID)] = "woods"
    r = los(board, OBS, TGT)
    assert r.blocked and not r.can_see
    o = r.blocker
    assert (o.kind, o.hex_id, o.traced) == ("woods", MID, False)
    assert o.top == 20.0 and o.line_height == 0.0
    # a level line: the point reported is the woods' near edge, 1.5 hexes out
    assert o.distance == pytest.approx(1.5)
    x, y = board.center(board.parse_hex(OBS))
    assert o.point == pytest.approx((x, y + 1.5 * math.sqrt(3)))
    d = r.to_dict()
    assert d["blocked_by"]["hex"] == MID and d["blocked_by"]["top"] == 20.0 and d["range"] == 4


def test_the_same_wood_does_not_block_an_observer_on_a_high_enough_hill():
    # Line from E m (observer) down to 0 m (target) over 4 hexes.  It leaves the woods
    # hex at t = 0.625, where it is E * (1 - 0.625) = 0.375 E high; the woods top is 20 m.
    # Clear when 0.375 E >= 20, i.e. E >= 53.33 m.
    board = open_board()
    board.terrain[board.parse_hex(MID)] = "woods"
    board.elevation[board.parse_hex(OBS)] = 60.0
    r = los(board, OBS, TGT)
    assert r.clear and r.observer_elevation == 60.0          # 0.375 * 60 = 22.5 m > 20 m
    board.elevation[board.parse_hex(OBS)] = 50.0
    r = los(board, OBS, TGT)
    assert r.blocked                                         # 0.375 * 50 = 18.75 m < 20 m
    assert r.blocker.line_height == pytest.approx(18.75)
    assert r.blocker.distance == pytest.approx(2.5)
    # the observer's own height counts too: 50 + 4 = 54 m eyes -> 0.375 * 54 = 20.25 m
    assert los(board, OBS, TGT, observer_height=4.0).clear


def test_a_target_in_the_woods_own_hex_is_visible_and_so_is_an_observer_in_it():
    board = open_board()
    board.terrain[board.parse_hex(MID)] = "woods"
    assert los(board, OBS, MID).clear
    assert los(board, MID, OBS).clear
    board.elevation[board.parse_hex(OBS)] = 40.0
    assert los(board, OBS, MID).clear                        # own hexes never block, ground included
    assert los(board, MID, OBS).clear


def test_a_hill_between_blocks_as_ground():
    board = open_board()
    board.elevation[board.parse_hex(MID)] = 10.0
    r = los(board, OBS, TGT)
    assert r.blocked and r.blocker.kind == "ground" and r.blocker.top == 10.0


def _along_hexside(board):
    """A hex, the hex two away along a hexside direction, and the two hexes the line runs between."""
    a = board.parse_hex("A04.05")
    b = a + Hex(2, -1)
    left, right = a + Hex(1, 0), a + Hex(1, -1)
    # the line really does run along the hexside of left and right: both centres are equally far
    seg = shapely.LineString([board.center(a), board.center(b)])
    side = shapely.LineString(board.layout.hexside_segment(hexside(left, right)))
    assert seg.distance(shapely.Point(board.center(left))) == pytest.approx(seg.distance(shapely.Point(board.center(right))))
    assert side.hausdorff_distance(seg.intersection(side.buffer(1e-9))) < 1e-6
    return a, b, left, right


@pytest.mark.parametrize("rule, woods_on, blocked", [
    ("both", "left", False), ("both", "right", False), ("both", "left+right", True),
    ("either", "left", True), ("either", "right", True), ("either", "none", False),
])
def test_a_line_exactly_along_a_hexside_follows_the_edge_rule(rule, woods_on, blocked):
    board = open_board()
    a, b, left, right = _along_hexside(board)
    for name, h in (("left", left), ("right", right)):
        if name in woods_on:
            board.terrain[h] = "woods"
    rules = DEFAULT_LOS_RULES.with_options(edge_rule=rule)
    r = line_of_sight(sight_map(board, rules), a, b)
    assert r.blocked is blocked
    if blocked:
        ids = set(r.blocker.hex_id.split("/"))
        assert ids == {board.hex_id(left), board.hex_id(right)}


def test_a_line_through_a_hex_corner_follows_the_edge_rule():
    board = open_board()
    a = board.parse_hex("A02.06")
    b = a + Hex(5, -1)                       # passes exactly through two hex corners
    seg = shapely.LineString([board.center(a), board.center(b)])
    touched = [h for h in board.hexes() if seg.distance(board.layout.polygon(h)) < 1e-9
               and not seg.intersects(board.layout.polygon(h).buffer(-1e-7))]
    assert len(touched) == 2                 # touched at a corner only, never entered
    for h in touched:
        board.terrain[h] = "woods"
    assert line_of_sight(sight_map(board), a, b).clear
    r = line_of_sight(sight_map(board, DEFAULT_LOS_RULES.with_options(edge_rule="either")), a, b)
    assert r.blocked and r.blocker.hex_id in {board.hex_id(h) for h in touched}


def test_smoke_blocks_until_removed():
    board = open_board()
    sm = sight_map(board)
    a, b, mid = board.parse_hex(OBS), board.parse_hex(TGT), board.parse_hex(MID)
    r = line_of_sight(sm, a, b, markers={mid: ["smoke"]})
    assert r.blocked and r.blocker.kind == "smoke" and math.isinf(r.blocker.top)
    assert r.to_dict()["blocked_by"]["always_blocks"] is True
    board.elevation[a] = 500.0
    assert line_of_sight(sight_map(board), a, b, markers={mid: ["smoke"]}).blocked   # whatever the heights
    assert line_of_sight(sight_map(board), a, b, markers={}).clear                  # removed


def test_the_walled_mill_refuses_direct_fire_but_allows_spotting():
    board = open_board()
    mill = board.parse_hex(MID)
    board.features[mill] = {"mill"}
    sm = sight_map(board)
    for a, b in ((board.parse_hex(OBS), mill), (mill, board.parse_hex(OBS))):
        r = line_of_sight(sm, a, b)
        assert r.clear and r.can_see                  # spotting into and out of the hex
        assert not r.direct_fire and r.direct_fire_rule == "Black Wednesday 1.1f"
        with pytest.raises(IllegalAction) as e:
            require_direct_fire(r)
        assert e.value.rule == "Black Wednesday 1.1f"
    require_direct_fire(line_of_sight(sm, board.parse_hex(OBS), board.parse_hex("A07.06")))


def test_direct_fire_needs_a_clear_line():
    board = open_board()
    board.terrain[board.parse_hex(MID)] = "woods"
    with pytest.raises(IllegalAction) as e:
        require_direct_fire(los(board, OBS, TGT))
    assert "woods" in str(e.value)


def test_the_peat_bog_never_blocks():
    board = open_board()
    board.terrain[board.parse_hex(MID)] = "peat bog"
    blob(board, "A05.03", "peat bog", 3.0)
    assert los(board, OBS, TGT).clear                       # Black Wednesday 1.1g
    blob(board, "A05.05", "woods", 3.0)                     # the same outline as woods does block
    r = los(board, OBS, TGT)
    assert r.blocked and r.blocker.traced and r.blocker.hex_id == "A05.05"


def test_the_embankment_blocks_at_80_metres():
    embankment = FeatureElevation("rr embankment", 80.0, "Black Wednesday 1.2a")
    rules = DEFAULT_LOS_RULES.with_options(fixed_elevation=(embankment,))
    board = open_board()
    for h in board.hexes():
        board.elevation[h] = 60.0
    board.features[board.parse_hex(MID)] = {"rr embankment"}
    assert los(board, OBS, TGT).clear                       # without the rule: a 60 m plain
    r = los(board, OBS, TGT, rules)
    assert r.blocked
    assert (r.blocker.kind, r.blocker.rule, r.blocker.top) == ("rr embankment", "Black Wednesday 1.2a", 80.0)
    # a unit on the embankment stands at 80 m: its line to A05.06 (60 m) falls 20 m over
    # 2 hexes and leaves A05.05 at t = 0.75, 80 - 0.75 * 20 = 65 m high: over a 64 m rise
    board.elevation[board.parse_hex("A05.05")] = 64.0
    r = los(board, MID, TGT, rules)
    assert r.observer_elevation == 80.0 and r.clear
    r = los(board, MID, TGT)                                # on the printed 60 m it cannot
    assert r.observer_elevation == 60.0 and r.blocked and r.blocker.top == 64.0


def test_leros_woods_are_five_metres_whatever_the_map_prints():
    board = open_board()
    blob(board, MID, "woods", 20.0)
    board.elevation[board.parse_hex(OBS)] = 10.0
    board.elevation[board.parse_hex(TGT)] = 10.0
    assert los(board, OBS, TGT).blocked                     # the map's 20 m
    leros = DEFAULT_LOS_RULES.with_options(height_override={"woods": KindRule(5.0, rule="Leros 1.1a")})
    assert los(board, OBS, TGT, leros).clear                # 5 m scrub under a 10 m line
    board.elevation[board.parse_hex(OBS)] = 4.0
    board.elevation[board.parse_hex(TGT)] = 4.0
    r = los(board, OBS, TGT, leros)
    assert r.blocked and r.blocker.rule == "Leros 1.1a" and r.blocker.top == 5.0


def test_leros_coast_hexes_with_their_centre_in_the_sea_are_at_zero_and_piers_at_five():
    board = open_board()
    coast = board.parse_hex(MID)
    board.features[coast] = {"coast"}
    board.elevation[coast] = 30.0
    cx, cy = board.center(coast)
    board.obstacles.append(Obstacle("sea", 0.0, [(cx - 0.4, cy - 0.4), (cx + 3, cy - 0.4), (cx + 3, cy + 0.4),
                                                  (cx - 0.4, cy + 0.4)]))
    for hid in (OBS, TGT):
        board.elevation[board.parse_hex(hid)] = 10.0
    rules = DEFAULT_LOS_RULES.with_options(
        sea_centre=SeaCentre("coast", "sea", 0.0, "Leros 1.1e"),
        unit_elevation=(FeatureElevation("pier", 5.0, "Leros 1.1e"),))
    assert los(board, OBS, TGT).blocked                     # the printed 30 m
    assert los(board, OBS, TGT, rules).clear                # centre in the sea: 0 m
    pier = board.parse_hex("A07.07")
    board.features[pier] = {"pier"}
    r = line_of_sight(sight_map(board, rules), pier, board.parse_hex(TGT))
    assert r.observer_elevation == 5.0


def test_the_visibility_limit_stops_spotting_but_not_the_line():
    board = open_board()
    r = los(board, OBS, TGT, visibility_limit=3)            # Black Wednesday 1.8
    assert r.clear and r.beyond_visibility and not r.can_see and not r.direct_fire
    assert los(board, OBS, TGT, visibility_limit=4).can_see
    limited = DEFAULT_LOS_RULES.with_options(visibility_limit=3)
    assert not los(board, OBS, TGT, limited).can_see


def test_traced_woods_replace_whole_hex_woods_as_printed():
    board = open_board()
    board.terrain[board.parse_hex(MID)] = "woods"
    blob(board, "A08.08", "woods", 20.0)
    assert los(board, OBS, TGT).clear                       # only the traced outline blocks now
    r = los(board, "A08.06", "A08.10")
    assert r.blocked and r.blocker.traced and r.blocker.hex_id == "A08.08"
    assert r.blocker.distance == pytest.approx(2 - 0.45 * math.cos(math.pi / 8) / math.sqrt(3), abs=1e-9)
    assert los(board, "A07.06", "A07.10").clear             # the next column misses it


def test_every_obstruction_is_listed_in_order_when_asked():
    board = open_board()
    for hid in ("A05.03", "A05.04", "A05.05"):
        board.terrain[board.parse_hex(hid)] = "town"
    r = los(board, OBS, TGT, every=True)
    assert [o.hex_id for o in r.obstructions] == ["A05.03", "A05.04", "A05.05"]
    assert len(los(board, OBS, TGT).obstructions) == 1
    assert "blocked by town (A05.03)" in r.explain()


def test_table_points_on_a_gridless_board():
    table = Board(name="table")
    table.obstacles.append(Obstacle("building", 3.0, [(4, -1), (6, -1), (6, 1), (4, 1)]))
    sm = sight_map(table)
    assert line_of_sight(sm, (0.0, 0.0), (10.0, 0.0), observer_height=1.7, target_height=1.7).blocked
    assert line_of_sight(sm, (0.0, 3.0), (10.0, 3.0), observer_height=1.7, target_height=1.7).clear
    r = line_of_sight(sm, (0.0, 0.0), (10.0, 0.0), observer_height=5.0, target_height=5.0)
    assert r.clear and r.range is None


def test_pointy_boards_work_the_same_way():
    board = open_board(orientation="pointy")
    a, b = board.parse_hex("A02.05"), board.parse_hex("A06.05")   # one row, straight across
    mid = board.parse_hex("A04.05")
    board.terrain[mid] = "woods"
    r = line_of_sight(sight_map(board), a, b)
    assert r.blocked and r.blocker.hex_id == "A04.05"
