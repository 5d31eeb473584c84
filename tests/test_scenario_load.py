"""Loading scenario files: the data model, and every bad input named by file and key path."""
from __future__ import annotations

import textwrap

import pytest

from engine.errors import BadFile
from engine.scenario import load_scenario, parse_area, AreaSyntaxError

GOOD = """
[scenario]
id = "tiny"
name = "Tiny"
ruleset = "demyansk"
map = "tiny-map.toml"
first_turn = 1
last_turn = 3
first_side = "german"
stacking = { limit = 1, rule = "Demyansk 5.3" }

[[sides]]
id = "german"
name = "Red"
colour = "#aa2222"
[sides.branches.army]
fill = "#aa2222"
text = "#000000"

[[sides]]
id = "soviet"
name = "Blue"
colour = "#2222aa"

[[units]]
id = "german-1"
side = "german"
type = "infantry"
size = "division"
attack = 4
defense = 5
movement = 7
hex = "0202"

[[units]]
id = "german-hq"
side = "german"
type = "headquarters"
size = "army"
attack = 0
defense = 1
movement = 4
command_radius = 5
setup = "within 1 of 0303"
hex = "0303"

[[units]]
id = "soviet-1"
side = "soviet"
type = "mechanized"
size = "regiment"
division = "18mot"
attack = 10
defense = 9
movement = 8
flags = ["mechanized"]

[[deployments]]
id = "german-start"
side = "german"
order = 1
area = "all"
units = ["german-1", "german-hq"]

[[reinforcements]]
turn = 2
side = "soviet"
units = ["soviet-1"]
entry = "edge west"

[victory]
kind = "points"
[[victory.awards]]
side = "german"
points = 3
event = "destroyed_in_combat"
select = { side = "soviet", not_type = ["infantry"] }
"""


def write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_a_good_scenario_loads_into_plain_data(tmp_path):
    s = load_scenario(write(tmp_path, GOOD))
    assert s.id == "tiny" and s.ruleset == "demyansk" and (s.first_turn, s.last_turn) == (1, 3)
    assert s.map_path == str((tmp_path / "tiny-map.toml").resolve())
    assert s.units["soviet-1"].strengths == "10-9-8"
    assert s.units["soviet-1"].has_flag("mechanized")
    assert s.units["german-hq"].command_radius == 5
    assert s.default_placement() == {"german-1": "0202", "german-hq": "0303"}
    assert s.setup_area("german-hq") == ["all", "within 1 of 0303"]
    assert [u.id for u in s.reinforcement_units()] == ["soviet-1"]
    assert s.stacking_limit == 1 and s.stacking_rule == "Demyansk 5.3"
    award = s.victory.awards[0]
    assert award.select.matches(s.units["soviet-1"]) and not award.select.matches(s.units["german-1"])


def problems_of(tmp_path, text):
    with pytest.raises(BadFile) as e:
        load_scenario(write(tmp_path, text))
    return [str(p) for p in e.value.problems]


def test_unknown_keys_are_errors_with_their_key_path(tmp_path):
    probs = problems_of(tmp_path, GOOD.replace('movement = 7\n', 'movement = 7\nspeed = 3\n'))
    assert any("units[0] (german-1).speed: unknown key" in p for p in probs)
    assert all(p.startswith(str(tmp_path / "s.toml")) for p in probs)


def test_wrong_types_and_choices_are_named(tmp_path):
    text = GOOD.replace('type = "mechanized"', 'type = "cavalry"').replace("attack = 4", 'attack = "four"')
    probs = problems_of(tmp_path, text)
    assert any("units[2] (soviet-1).type: 'cavalry' is not one of" in p for p in probs)
    assert any("units[0] (german-1).attack: expected an integer, found a string 'four'" in p for p in probs)


def test_references_to_missing_units_and_sides_are_errors(tmp_path):
    text = GOOD.replace('units = ["soviet-1"]', 'units = ["soviet-9"]').replace('first_side = "german"',
                                                                          'first_side = "green"')
    probs = problems_of(tmp_path, text)
    assert any("reinforcements[0].units[0]: no unit 'soviet-9'" in p for p in probs)
    assert any("scenario.first_side: 'green' is not a side" in p for p in probs)
    assert any("units[2] (soviet-1): is neither in a [[deployments]] group nor in [[reinforcements]]" in p
               for p in probs)


def test_a_unit_on_the_map_needs_a_default_hex(tmp_path):
    probs = problems_of(tmp_path, GOOD.replace('hex = "0202"\n', ""))
    assert any("units[0] (german-1).hex: missing" in p for p in probs)


def test_bad_area_expressions_are_caught_when_loading(tmp_path):
    probs = problems_of(tmp_path, GOOD.replace('setup = "within 1 of 0303"', 'setup = "within of 0303"'))
    assert any("units[1] (german-hq).setup: bad area expression" in p for p in probs)


def test_a_turn_outside_the_game_is_an_error(tmp_path):
    probs = problems_of(tmp_path, GOOD.replace("turn = 2", "turn = 9"))
    assert any("reinforcements[0].turn: turn 9 is outside the game (turns 1-3)" in p for p in probs)


def test_malformed_toml_names_the_line(tmp_path):
    probs = problems_of(tmp_path, GOOD.replace('name = "Tiny"', 'name = Tiny'))
    assert len(probs) == 1 and "s.toml:4:" in probs[0] and "not valid TOML" in probs[0]


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(BadFile) as e:
        load_scenario(tmp_path / "nope.toml")
    assert "file not found" in str(e.value)


@pytest.mark.parametrize("text", [
    "inside pocket_perimeter and east of start_line",
    "within 2 of 'Staraya Russa' and not along start_line",
    "on or north of row of demyansk",
    "(terrain woods or terrain rough) and adjacent to fedorovka",
    "edge west",
])
def test_area_expressions_parse(text):
    parse_area(text)


@pytest.mark.parametrize("text", ["", "within 2 staraya", "inside", "edge up", "(a or b", "a b"])
def test_bad_area_expressions_say_what_is_wrong(text):
    with pytest.raises(AreaSyntaxError):
        parse_area(text)


def test_a_scenario_saved_and_loaded_again_is_the_same(tmp_path):
    from pathlib import Path

    from engine.scenario import save_scenario

    root = Path(__file__).resolve().parent.parent / "scenarios"
    for name in ("demyansk-1-trapped.toml", "demyansk-2-campaign.toml"):
        s = load_scenario(root / name)
        out = tmp_path / name
        save_scenario(s, out)
        again = load_scenario(out)
        assert again.map_path == s.map_path
        for field in ("id", "name", "ruleset", "first_turn", "last_turn", "first_side", "sides", "units",
                      "deployments", "setup_rules", "reinforcements", "withdrawals", "options", "special_rules",
                      "variants", "victory", "stacking_limit", "stacking_rule", "rule", "text", "game"):
            assert getattr(again, field) == getattr(s, field), field


def test_a_hand_made_set_up_is_written_back(tmp_path):
    from pathlib import Path

    from engine.scenario import save_scenario, with_placement

    s = load_scenario(Path(__file__).resolve().parent.parent / "scenarios" / "demyansk-1-trapped.toml")
    moved = with_placement(s, {"ger-mp": "1911"})
    assert moved.units["ger-mp"].hex == "1911" and s.units["ger-mp"].hex == "1910"
    save_scenario(moved, tmp_path / "x.toml")
    assert load_scenario(tmp_path / "x.toml").default_placement()["ger-mp"] == "1911"


def _paths(doc, prefix=()):
    """Every key path of a parsed document (tables and arrays of tables walked)."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            if isinstance(v, dict):
                yield from _paths(v, prefix + (i,))


def _mutated(doc, path, value):
    import copy

    out = copy.deepcopy(doc)
    node = out
    for k in path[:-1]:
        node = node[k]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


_DELETE = object()


def test_any_wrong_value_anywhere_is_a_bad_file_never_a_traceback():
    import tomli

    from engine.scenario import parse_scenario

    doc = tomli.loads(GOOD)
    paths = list(_paths(doc))
    assert len(paths) > 60
    for path in paths:
        for value in ("x", 3, -1, True, [], [3], {}, {"a": 1}, _DELETE):
            try:
                parse_scenario(_mutated(doc, path, value), "s.toml")
            except BadFile as e:
                assert e.problems and all(p.file == "s.toml" and p.message for p in e.problems)
