"""The map area in play: a scenario limits play to part of the map; set-up, moves and entries outside it are refused."""
from __future__ import annotations

from engine.scenario.setup import validate_setup

from pathlib import Path

import pytest

from engine.scenario import edit as E
from engine.errors import BadFile, IllegalAction
from engine.game import load_rules
from engine.maps.mapfile import load_map
from engine.rulesets.demyansk.actions import EndPhase, Enter, Move
from engine.scenario import load_scenario, save_scenario

ROOT = Path(__file__).resolve().parent.parent
MAP = (ROOT / "maps" / "demyansk.toml").as_posix()

SCENARIO = '''
[scenario]
id = "north-half"
name = "The northern half"
ruleset = "demyansk"
map = "{map}"
first_turn = 1
last_turn = 2
first_side = "german"
play_area = "{area}"
play_area_rule = "Scenario map area"

[[sides]]
id = "german"
name = "German"
colour = "#7d8ea3"

[[sides]]
id = "soviet"
name = "Soviet"
colour = "#9a6a3c"

[[deployments]]
id = "ger"
side = "german"
units = ["g-1"]

[[deployments]]
id = "sov"
side = "soviet"
units = ["s-1"]

[[reinforcements]]
turn = 1
side = "german"
units = ["g-2"]
entry = "edge west"

[special_rules]
garrison_duty_last_turn = 0

[[units]]
id = "g-1"
side = "german"
type = "infantry"
size = "regiment"
attack = 3
defense = 4
movement = 5
hex = "{g1}"

[[units]]
id = "g-2"
side = "german"
type = "infantry"
size = "regiment"
attack = 3
defense = 4
movement = 5

[[units]]
id = "s-1"
side = "soviet"
type = "infantry"
size = "regiment"
attack = 4
defense = 4
movement = 5
hex = "2005"
'''


def write(tmp_path, area="rows 1 to 11", g1="0710") -> Path:
    p = tmp_path / "north.toml"
    p.write_text(SCENARIO.format(map=MAP, area=area, g1=g1), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def board():
    return load_map(MAP)


def test_the_area_is_read_saved_back_and_a_bad_expression_is_named(tmp_path):
    s = load_scenario(write(tmp_path))
    assert (s.play_area, s.play_area_rule) == ("rows 1 to 11", "Scenario map area")
    save_scenario(s, tmp_path / "again.toml")
    assert load_scenario(tmp_path / "again.toml").play_area == "rows 1 to 11"
    with pytest.raises(BadFile) as e:
        load_scenario(write(tmp_path, area="rows 1 to"))
    assert "north.toml: scenario.play_area: bad area expression 'rows 1 to'" in str(e.value)


def test_set_up_hexes_outside_the_area_are_named(tmp_path, board):
    assert validate_setup(load_scenario(write(tmp_path)), board) == []
    problems = validate_setup(load_scenario(write(tmp_path, g1="0712")), board)
    assert [(p.key, p.message) for p in problems] == [
        ("units.g-1.hex", "Scenario map area: 0712 is outside the map area in play 'rows 1 to 11'")]


def test_moves_outside_the_area_are_refused_with_the_reason(tmp_path):
    rules = load_rules(str(write(tmp_path)))
    st = rules.initial_state(1, dice=[6] * 10)
    while st.phase != "german-movement":
        st, _ = rules.apply(st, EndPhase())
    reach = rules.destinations(st, "g-1")
    rows = {int(rules.map.hex_id(h)[2:]) for h in reach.destinations}
    assert rows and max(rows) == 11
    assert all(int(a.to[2:]) <= 11 for a in rules.legal_actions(st) if isinstance(a, Move))
    with pytest.raises(IllegalAction) as e:
        rules.apply(st, Move("g-1", "0712", "0710"))
    assert e.value.rule == "Scenario map area"
    assert e.value.message == "0712 is outside the map area in play (rows 1 to 11)"
    assert rules.hex("0711") in reach.destinations                         # woods, row 11: inside
    st2, _ = rules.apply(st, Move("g-1", "0711", "0710"))
    assert rules.map.hex_id(st2.units["g-1"].hex) == "0711"
    # from row 11 the neighbour in row 12 is blocked with the same reason
    st2.phase, st2.units["g-1"].moved = "german-movement", False
    assert rules.destinations(st2, "g-1").blocked[rules.hex("0712")] == (
        "Scenario map area: 0712 is outside the map area in play (rows 1 to 11)")


def test_entries_outside_the_area_are_refused_and_inside_allowed(tmp_path):
    rules = load_rules(str(write(tmp_path)))
    st = rules.initial_state(1, dice=[6] * 10)
    assert st.phase == "german-reinforcement"
    with pytest.raises(IllegalAction) as e:
        rules.apply(st, Enter("g-2", "0115"))
    assert "outside the map area in play" in e.value.message
    entries = [a.to for a in rules.legal_actions(st) if isinstance(a, Enter)]
    assert entries and all(int(h[2:]) <= 11 for h in entries)
    st, _ = rules.apply(st, Enter("g-2", "0105"))
    assert st.units["g-2"].status == "map"


def test_a_retreat_that_can_only_leave_the_area_leaves_the_map(tmp_path):
    from engine.rulesets.demyansk.results import retreat_options

    rules = load_rules(str(write(tmp_path, g1="0111")))
    st = rules.initial_state(1, dice=[6] * 10)
    whole = load_rules(str(write(tmp_path, area="all", g1="0111")))
    assert "0112" in retreat_options(whole, whole.initial_state(1), "g-1", 1)
    options = retreat_options(rules, st, "g-1", 1)
    assert options and "0112" not in options and all(int(h[2:]) <= 11 for h in options)


def test_the_editor_operation_checks_the_expression_and_auto_place_keeps_inside(board):
    s = E.new_scenario("t", "T", "demyansk", MAP, [E.Side("german", "German", "#7d8ea3"),
                                                   E.Side("soviet", "Soviet", "#9a6a3c")], 1, 2)
    with pytest.raises(ValueError, match="bad area expression"):
        E.set_play_area(s, "within of")
    s = E.set_play_area(s, "rows 1 to 11", "Scenario map area")
    s = E.set_deployment(s, E.Deployment("ger", "german", 1, "within 2 of 0712", ()))
    s = E.add_unit(s, E.Unit("g-1", "german", "infantry", "regiment", 3, 4, 5), "ger")
    s = E.auto_place(s, board)
    assert int(s.units["g-1"].hex[2:]) <= 11
    assert E.check(s, board) == []
    s = E.place(s, "g-1", "0713")
    assert [p.message for p in E.check(s, board)] == [
        "Scenario map area: 0713 is outside the map area in play 'rows 1 to 11'"]
    assert E.set_play_area(s, "").play_area == ""


def test_the_scenario_page_sets_the_area_and_shows_it(qtbot, tmp_path_factory):
    from PySide6.QtWidgets import QPushButton

    from scenarioeditorwindow import scenario_editor

    ed = scenario_editor(qtbot, tmp_path_factory.mktemp("tiles"), (1000, 700))
    ed.new_scenario(MAP, [E.Side("german", "German", "#7d8ea3"), E.Side("soviet", "Soviet", "#9a6a3c")],
                    id="north", name="North", last_turn=2)
    page = ed.page
    page.play_area.setText("rows 1 to 11")
    page.play_rule.setText("Scenario map area")
    next(b for b in page.findChildren(QPushButton) if b.text() == "Show play area").click()
    assert len(ed.areas.hexes["play"]) == 30 * 11
    next(b for b in page.findChildren(QPushButton) if b.text() == "Apply").click()
    assert (ed.scenario.play_area, ed.scenario.play_area_rule) == ("rows 1 to 11", "Scenario map area")
    page.play_area.setText("rows 1 to")
    next(b for b in page.findChildren(QPushButton) if b.text() == "Apply").click()
    assert ed.scenario.play_area == "rows 1 to 11"                      # refused: the old area stays
