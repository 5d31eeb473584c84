"""Area expressions and set-up checks on a small board built in memory."""
from __future__ import annotations

from engine.scenario.setup import validate_setup

import pytest

from engine.maps.board import Area, Board, Line, Sheet
from engine.maps.hexes import FLAT, hexsides_of
from engine.maps.numbering import NumberingScheme
from engine.scenario import AreaContext, AreaError, parse_scenario
from engine.scenario.setup import zone_of_control


@pytest.fixture(scope="module")
def board() -> Board:
    """10 x 8 hexes: a town at 0504 inside a ring (the 'ring' line round 0504, radius 1),
    a line 'front' between columns 3 and 4, woods in column 8, a fortification at 0604."""
    b = Board(name="Small", orientation=FLAT,
              sheets=[Sheet("A", NumberingScheme(style="classic", cols=10, rows=8, shifted="even"))])
    for h in b.hexes():
        b.terrain[h] = "clear"
    num = b.sheets[0].numbering
    for r in range(1, 9):
        b.terrain[num.colrow_to_hex(8, r)] = "woods"
    town = b.parse_hex("0504")
    b.terrain[town] = "town"
    b.features[b.parse_hex("0604")] = {"fortification"}
    b.areas["Little Town"] = Area("Little Town", "town", {town})
    ring = {town} | set(b.neighbors(town))
    b.lines["ring"] = Line("ring", "perimeter",
                           {s for h in ring for s in hexsides_of(h) if s.other(h) in b and s.other(h) not in ring})
    west = {h for h in b.hexes() if num.hex_to_colrow(h)[0] <= 3}
    b.lines["front"] = Line("front", "start",
                            {s for h in west for s in hexsides_of(h) if s.other(h) in b and s.other(h) not in west})
    return b


@pytest.fixture(scope="module")
def ctx(board):
    return AreaContext(board)


def ids(board, hexes):
    return sorted(board.hex_id(h) for h in hexes)


def test_a_hex_and_a_named_area(board, ctx):
    assert ids(board, ctx.hexes("0102")) == ["0102"]
    assert ids(board, ctx.hexes("little_town")) == ids(board, ctx.hexes("'Little Town'")) == ["0504"]


def test_a_comma_list_is_a_union_and_mixes_with_the_other_words(board, ctx):
    assert ids(board, ctx.hexes("0102, 0103,0504")) == ["0102", "0103", "0504"]
    assert ctx.hexes("0102, little_town and not 0102") == ctx.hexes("0102 or (little_town and not 0102)")


def test_a_syntax_error_shows_examples_of_the_syntax(board, ctx):
    from engine.scenario import AreaSyntaxError

    with pytest.raises(AreaSyntaxError) as e:
        ctx.hexes("0102 ; 0103")
    assert str(e.value).startswith("unexpected '; 0103'") and "'0606, 0706, 0607'" in str(e.value)


def test_within_counts_hexes_and_adjacent_leaves_the_centre_out(board, ctx):
    assert len(ctx.hexes("within 1 of little_town")) == 7
    assert len(ctx.hexes("within 2 of 0504")) == 19
    assert len(ctx.hexes("adjacent to 0504")) == 6 and "0504" not in ids(board, ctx.hexes("adjacent to 0504"))


def test_inside_and_outside_a_closed_line(board, ctx):
    assert ctx.hexes("inside ring") == ctx.hexes("within 1 of 0504")
    assert ctx.hexes("outside ring") == ctx.hexes("not inside ring")
    assert len(ctx.hexes("inside ring")) + len(ctx.hexes("outside ring")) == 80


def test_the_sides_of_a_line_from_edge_to_edge(board, ctx):
    west = ctx.hexes("west of front")
    assert len(west) == 24 and {board.sheets[0].numbering.hex_to_colrow(h)[0] for h in west} == {1, 2, 3}
    assert ctx.hexes("east of front") == ctx.hexes("not west of front")


def test_a_hex_along_a_line_is_one_hex_from_it(board, ctx):
    assert ctx.hexes("within 1 of front") == ctx.hexes("along front")
    assert {board.sheets[0].numbering.hex_to_colrow(h)[0] for h in ctx.hexes("along front")} == {3, 4}
    assert {board.sheets[0].numbering.hex_to_colrow(h)[0] for h in ctx.hexes("within 2 of front")} == {2, 3, 4, 5}


def test_rows_columns_edges_terrain_and_features(board, ctx):
    assert len(ctx.hexes("on or north of row of little_town")) == 40
    assert len(ctx.hexes("north of row of little_town")) == 30
    assert len(ctx.hexes("south of row of 0504")) == 40
    assert len(ctx.hexes("row of 0504")) == 10
    assert len(ctx.hexes("columns 2 to 3 and rows 1 to 4")) == 8
    assert len(ctx.hexes("edge west")) == 8 and len(ctx.hexes("edge north")) == 10
    assert ids(board, ctx.hexes("terrain woods and edge south")) == ["0808"]
    assert ids(board, ctx.hexes("feature fortification")) == ["0604"]


def test_precedence_not_and_or_and_parentheses(board, ctx):
    a = ctx.hexes("0101 or 0102 and 0103")          # and binds tighter
    assert ids(board, a) == ["0101"]
    b = ctx.hexes("(0101 or 0102) and not 0102")
    assert ids(board, b) == ["0101"]


@pytest.mark.parametrize("text,message", [
    ("nowhere", "no area or line 'nowhere'"),
    ("inside nowhere", "no line 'nowhere'"),
    ("inside front", "does not enclose"),
    ("north of ring", "does not cut the map"),
    ("9999", "off the"),
    ("row of within 1 of 0504", "one printed row"),
])
def test_what_the_map_does_not_have_is_named(ctx, text, message):
    with pytest.raises(AreaError, match=message):
        ctx.hexes(text)


def test_zone_of_control_is_the_six_neighbours_less_barred_terrain_and_features(board):
    h = board.parse_hex("0505")
    assert len(zone_of_control([h], board)) == 6
    assert board.parse_hex("0604") in zone_of_control([h], board)
    assert board.parse_hex("0604") not in zone_of_control([h], board, {"fortification"})   # a feature
    board.terrain[board.parse_hex("0605")] = "swamp"
    try:
        assert len(zone_of_control([h], board, {"fortification", "swamp"})) == 4            # and a terrain
    finally:
        board.terrain[board.parse_hex("0605")] = "clear"


SCENARIO = {
    "scenario": {"id": "t", "name": "T", "ruleset": "demyansk", "map": "small.toml", "first_turn": 1,
                 "last_turn": 2, "first_side": "german", "stacking": {"limit": 1, "rule": "Demyansk 5.3"}},
    "sides": [{"id": "german", "name": "Red"}, {"id": "soviet", "name": "Blue"}],
    "units": [
        {"id": "r1", "side": "german", "type": "infantry", "size": "division", "attack": 4, "defense": 5,
         "movement": 7, "hex": "0502"},
        {"id": "r2", "side": "german", "type": "armored", "size": "brigade", "attack": 3, "defense": 2,
         "movement": 6, "hex": "0506"},
        {"id": "b1", "side": "soviet", "type": "infantry", "size": "regiment", "attack": 2, "defense": 2,
         "movement": 5, "setup": "within 1 of little_town", "hex": "0504"},
    ],
    "deployments": [
        {"id": "german", "side": "german", "area": "outside ring and east of front", "units": ["r1", "r2"], "rule": "Test 1"},
        {"id": "soviet", "side": "soviet", "area": "inside ring", "units": ["b1"], "rule": "Test 2"},
    ],
    "setup_rules": [
        {"kind": "occupy_each", "area": "little_town", "select": {"side": "soviet"}, "rule": "Test 3",
         "text": "the town held"},
        {"kind": "count", "area": "north of row of little_town", "select": {"side": "german", "size": ["division"]},
         "min": 1, "rule": "Test 4", "text": "a division north"},
        {"kind": "cover", "area": "adjacent to 0502", "select": {"side": "german"},
         "rule": "Test 5", "text": "the town watched"},
    ],
}


def test_a_legal_set_up_has_no_problems(board):
    s = parse_scenario(SCENARIO, "t.toml")
    assert validate_setup(s, board) == []


def test_each_kind_of_set_up_problem_is_named_with_its_rule(board):
    s = parse_scenario(SCENARIO, "t.toml")
    probs = [str(p) for p in validate_setup(s, board, {"r1": "0505", "r2": "0505", "b1": "0302"})]
    assert "t.toml: units.r1.hex: Demyansk 5.3: 2 units in hex 0505 (r1, r2); at most 1 allowed" in probs
    assert "t.toml: units.b1.hex: Test 2: 0302 is not in the set-up area 'inside ring'" in probs
    assert "t.toml: units.b1.hex: Test 2: 0302 is not in the set-up area 'within 1 of little_town'" in probs
    assert "t.toml: units.r1.hex: Test 1: 0505 is not in the set-up area 'outside ring and east of front'" in probs
    assert "t.toml: setup_rules[0]: Test 3: the town held: no unit in 0504" in probs
    assert "t.toml: setup_rules[1]: Test 4: a division north: 0 units, at least 1 needed" in probs


def test_the_cover_rule_wants_every_hex_in_a_unit_or_a_zone_of_control(board):
    doc = {**SCENARIO, "setup_rules": [{"kind": "cover", "area": "row of 0501", "select": {"side": "german"},
                                        "rule": "Test 6", "text": "the top row watched"}]}
    s = parse_scenario(doc, "t.toml")
    probs = [str(p) for p in validate_setup(s, board, {"r1": "0402", "r2": "0802", "b1": "0504"})]
    assert probs == ["t.toml: setup_rules[0]: Test 6: the top row watched: neither a unit nor a zone of control "
                     "in 0101, 0201, 0301, 0501, 0601, 0701, 0901, 1001"]


def test_a_unit_left_off_the_map_or_unknown_is_reported(board):
    s = parse_scenario(SCENARIO, "t.toml")
    probs = [str(p) for p in validate_setup(s, board, {"r1": "0502", "b1": "0504", "x9": "0101"})]
    assert any("units.r2.hex: not placed" in p for p in probs)
    assert any("units.x9: no such unit in the scenario" in p for p in probs)


def test_a_scenario_file_is_checked_with_its_map_and_set_up(tmp_path):
    from pathlib import Path

    from engine.scenario import check_scenario_file

    root = Path(__file__).resolve().parent.parent / "scenarios"
    assert check_scenario_file(root / "demyansk-1-trapped.toml") == []
    text = (root / "demyansk-1-trapped.toml").read_text().replace('hex = "1910"', 'hex = "1911"')
    moved = tmp_path / "moved.toml"
    moved.write_text(text.replace('map = "../maps/demyansk.toml"', f'map = "{(root.parent / "maps" / "demyansk.toml").as_posix()}"'))
    probs = [str(p) for p in check_scenario_file(moved)]
    assert probs == [f"{moved}: units.ger-mp.hex: Demyansk 9.2: 1911 is not in the set-up area 'fedorovka'"]
    lost = tmp_path / "lost.toml"
    lost.write_text(text.replace('map = "../maps/demyansk.toml"', 'map = "nowhere.toml"'))
    probs = [str(p) for p in check_scenario_file(lost)]
    line = text.splitlines().index('map = "../maps/demyansk.toml"') + 1           # the file's own line of the key
    assert len(probs) == 1 and probs[0].startswith(f"{lost}:{line}: scenario.map: the map file 'nowhere.toml' does "
                                                   "not exist")
