"""Editing a scenario: organisation tree, copy/paste, "N x", set-up areas, reinforcements, checks, saving."""
from __future__ import annotations

from engine.scenario.setup import validate_setup

from pathlib import Path

import pytest

from engine.scenario import edit as E
from engine.maps.mapfile import load_map
from engine.scenario import (
    Deployment, Reinforcement, Side, Unit, Victory, load_scenario, save_scenario,
)
from engine.scenario.victory import Condition

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "demyansk.toml"


@pytest.fixture(scope="module")
def board():
    return load_map(MAP)


def inf(uid, side, division="", regiment="", **kw) -> Unit:
    return Unit(id=uid, side=side, type="infantry", size="regiment", attack=3, defense=4, movement=5,
                division=division, regiment=regiment, **kw)


def small(board) -> "E.Scenario":
    s = E.new_scenario("small", "Small", "demyansk", str(MAP), [Side("german", "German", "#7d8ea3"),
                                                              Side("soviet", "Soviet", "#9a6a3c")],
                       1, 2, "german")
    s = E.set_deployment(s, Deployment("ger", "german", 1, E.within(2, "0707"), ()))
    s = E.set_deployment(s, Deployment("sov", "soviet", 2, E.within(2, "1210"), ()))
    s = E.add_unit(s, inf("g-12-27", "german", "12", "27"), "ger")
    s = E.add_unit(s, inf("s-1", "soviet"), "sov")
    return s


def test_the_organisation_tree_groups_division_regiment_unit(board):
    s = small(board)
    s = E.add_unit(s, inf("g-12-48", "german", "12", "48"), "ger")
    s = E.add_unit(s, inf("g-lone", "german"), "ger")
    tree = E.org_tree(s, "german")
    assert [c.name for c in tree.children] == ["12", E.INDEPENDENT]
    assert [(c.level, c.name) for c in tree.children[0].children] == [("regiment", "27"), ("regiment", "48")]
    assert tree.children[0].unit_ids() == ["g-12-27", "g-12-48"]
    assert tree.unit_ids() == ["g-12-27", "g-12-48", "g-lone"]


def test_copy_paste_into_another_division_and_n_times(board):
    s = small(board)
    clip = E.copy_units(s, ["g-12-27"])
    s, ids = E.paste_units(s, clip, division="30", regiment="6")
    assert ids == ["g-30-6"]                              # the id follows its new division and regiment
    s, again = E.paste_units(s, clip)
    assert again == ["g-12-27-2"]
    assert (s.units["g-30-6"].division, s.units["g-30-6"].regiment) == ("30", "6")
    assert s.units["g-30-6"].hex == ""
    assert "g-30-6" in s.deployment("ger").units          # joins its original's set-up group
    s, more = E.multiply(s, "s-1", 3)
    assert more == ["s-1-2", "s-1-3"]
    assert s.deployment("sov").units == ("s-1", "s-1-2", "s-1-3")
    assert all(s.units[u].attack == 3 for u in more)
    with pytest.raises(ValueError):
        E.multiply(s, "s-1", 0)


def test_within_and_union_areas_name_the_right_hexes(board):
    hexes = E.area_hexes(board, E.within(2, "0707"))
    assert len(hexes) == 19
    both = E.area_hexes(board, E.union(E.within(1, "0707"), "1210"))
    assert len(both) == 8 and board.parse_hex("1210") in both
    with pytest.raises(ValueError, match="within 2 of"):
        E.area_hexes(board, "within 2 of")


def test_auto_place_puts_every_unit_in_its_area_and_the_check_passes(board):
    s, _ = E.multiply(small(board), "g-12-27", 4)
    problems = E.check(s, board)
    assert any("default hex" in p.message for p in problems)
    s = E.auto_place(s, board)
    area = E.area_hexes(board, E.within(2, "0707"))
    assert all(board.parse_hex(s.units[u].hex) in area for u in s.deployment("ger").units)
    assert len({s.units[u].hex for u in s.units}) == len(s.units)
    assert E.check(s, board) == []


def test_a_unit_dragged_outside_its_area_is_named(board):
    s = E.auto_place(small(board), board)
    s = E.place(s, "g-12-27", "2020")
    problems = E.check(s, board)
    assert [p.key for p in problems] == ["units.g-12-27.hex"]
    assert "within 2 of 0707" in problems[0].message


def test_too_many_units_for_an_area_is_counted(board):
    s = small(board)
    s = E.set_deployment(s, Deployment("ger", "german", 1, "0707", ("g-12-27",)))
    s, _ = E.multiply(s, "g-12-27", 2)
    s = E.auto_place(s, board)
    s = dataclass_stacking(s, 1)
    msgs = [p.message for p in E.check(s, board)]
    assert "2 units cannot set up in 1 hexes" in msgs


def dataclass_stacking(s, limit):
    import dataclasses

    return dataclasses.replace(s, stacking_limit=limit)


def test_a_reinforcement_takes_its_units_off_the_set_up(board):
    s = E.auto_place(small(board), board)
    s, (s2,) = E.multiply(s, "s-1", 2)
    s = E.add_reinforcement(s, Reinforcement(2, "soviet", (s2,), "edge east"))
    assert s2 not in s.deployment("sov").units and s.units[s2].hex == ""
    assert E.check(s, board) == []
    bad = E.add_reinforcement(s, Reinforcement(2, "soviet", ("s-1",), "edge nowhere"))
    assert any("edge nowhere" in p.message for p in E.check(bad, board))


def test_the_scenario_saves_and_loads_with_the_same_facts(board, tmp_path):
    s = E.auto_place(small(board), board)
    s = E.set_turns(s, 1, 2, ["0600 Feb 10", "1800 Feb 10"])
    s = E.set_victory(s, Victory("conditions", conditions=(
        Condition("hold", "occupy", "german", level="major", area=E.within(2, "0707"), count=3),)))
    save_scenario(s, tmp_path / "small.toml")
    again = load_scenario(tmp_path / "small.toml")
    for f in ("id", "name", "ruleset", "first_turn", "last_turn", "turn_names", "first_side", "sides", "units",
              "deployments", "reinforcements", "victory"):
        assert getattr(again, f) == getattr(s, f), f
    assert again.map_path == str(MAP.resolve())


def test_bad_edits_say_what_is_wrong(board):
    s = small(board)
    with pytest.raises(ValueError, match="already a unit"):
        E.add_unit(s, inf("s-1", "soviet"))
    with pytest.raises(ValueError, match="not a side"):
        E.add_unit(s, inf("x", "martian"))
    with pytest.raises(ValueError, match="3 turn names"):
        E.set_turns(s, 1, 3, ["a"])
    with pytest.raises(ValueError, match="no deployment"):
        E.assign_deployment(s, ["s-1"], "nowhere")


def test_removing_units_clears_them_from_every_group(board):
    s, ids = E.multiply(small(board), "s-1", 2)
    s = E.add_reinforcement(s, Reinforcement(2, "soviet", (ids[0],), "edge east"))
    s = E.remove_units(s, ["s-1", ids[0]])
    assert "s-1" not in s.units and s.deployment("sov").units == () and s.reinforcements == ()


def test_units_may_start_with_step_losses_and_a_morale(board, tmp_path):
    s = E.auto_place(small(board), board)
    s = E.update_unit(s, "g-12-27", steps=2, losses=1, morale=3)
    assert E.check(s, board) == []
    save_scenario(s, tmp_path / "x.toml")
    u = load_scenario(tmp_path / "x.toml").units["g-12-27"]
    assert (u.steps, u.losses, u.morale) == (2, 1, 3)
    bad = E.update_unit(s, "g-12-27", steps=2, losses=2)
    assert [p.key for p in E.check(bad, board)] == ["units[0] (g-12-27).losses"]


def player_set_up(board, tmp_path):
    """``small`` with the Soviet side set up by the player: s-1 and s-2 wait off the map, within 2 of 1210,
    and at least one of them must be next to 1210 (a set-up rule)."""
    from engine.scenario import Selector, SetupRule

    s = E.auto_place(small(board), board, side="german")
    s = E.add_unit(s, inf("s-2", "soviet"), "sov")
    s = E.set_player_setup(s, "soviet", True)
    s = E.set_deployment(s, Deployment("sov", "soviet", 2, E.within(2, "1210"), ("s-1", "s-2"), rule="Set-up 1"))
    s = E.set_turns(s, 1, 1)
    return dataclasses_replace(s, setup_rules=(SetupRule("count", E.within(1, "1210"), Selector(side="soviet"),
                                                         rule="Set-up 2", min=1),))


def dataclasses_replace(s, **kw):
    import dataclasses

    return dataclasses.replace(s, **kw)


def test_a_side_set_up_by_the_player_needs_no_default_hexes_and_is_checked_when_placed(board, tmp_path):
    from engine.game import load_rules
    from engine.errors import IllegalAction
    from engine.rulesets.demyansk.actions import EndPhase, Place

    s = player_set_up(board, tmp_path)
    assert s.player_sides() == ["soviet"] and not s.units["s-1"].hex
    assert E.check(s, board) == []
    assert [p.message for p in E.check(E.set_player_setup(s, "soviet", False), board)] == [
        "missing: a unit that starts on the map needs a default hex"] * 2
    save_scenario(s, tmp_path / "p.toml")
    again = load_scenario(tmp_path / "p.toml")
    assert again.sides["soviet"].player_setup and validate_setup(again, board) == []

    rules = load_rules(str(tmp_path / "p.toml"))
    st = rules.initial_state(1)
    assert st.phase == "soviet-setup" and st.units["s-1"].status == "to-place"
    places = [a for a in rules.legal_actions(st) if isinstance(a, Place)]
    assert {a.unit for a in places} == {"s-1", "s-2"} and len(places) == 2 * 19
    with pytest.raises(IllegalAction) as e:
        rules.apply(st, Place("s-1", "0707"))
    assert e.value.rule == "Set-up 1" and e.value.message == "0707 is not in s-1's set-up area 'within 2 of 1210'"
    with pytest.raises(IllegalAction) as e:
        rules.apply(st, EndPhase())
    assert "s-1, s-2 still wait(s) to be set up" in e.value.message
    st, _ = rules.apply(st, Place("s-1", "1410"))
    with pytest.raises(IllegalAction) as e:
        rules.apply(st, Place("s-2", "1410"))
    assert e.value.rule == "Demyansk 5.3"
    far, _ = rules.apply(st, Place("s-2", "1011"))
    with pytest.raises(IllegalAction) as e:
        rules.apply(far, EndPhase())
    assert e.value.rule == "Set-up 2" and "0 units, at least 1 needed" in e.value.message
    st, events = rules.apply(st, Place("s-2", "1211"))
    st, events = rules.apply(st, EndPhase())
    assert (st.turn, st.phase) == (1, "german-reinforcement")
    assert rules.map.hex_id(st.units["s-2"].hex) == "1211"


def test_headless_play_sets_up_the_players_side_and_plays_to_the_end(board, tmp_path):
    import json
    import subprocess
    import sys

    s = player_set_up(board, tmp_path)
    s = E.set_victory(s, Victory("conditions", conditions=(
        Condition("hold", "occupy", "german", level="minor", area="0707"),), otherwise="soviet"))
    save_scenario(s, tmp_path / "p.toml")
    out = subprocess.run([sys.executable, "-m", "engine", "play", str(tmp_path / "p.toml"), "--bot", "german,soviet",
                          "--json", "--save", str(tmp_path / "g.toml")], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["over"] is True and report["winner"] in ("german", "soviet")
    from engine.game import load_game

    game = load_game(tmp_path / "g.toml")
    texts = game.actions_text()
    assert texts[0].startswith("place s-1 ") and texts[1].startswith("place s-2 ") and texts[2] == "end"


def test_a_variable_reinforcement_is_checked_on_the_map(board):
    s = E.auto_place(small(board), board)
    s = E.add_unit(s, inf("g-res", "german"))
    table = E.parse_roll("2d6", "11+: g-res")
    r = Reinforcement(1, "german", ("g-res",), "edge west", id="reserve", roll=table,
                      release=E.parse_release("soviet enters nowhere_town"))
    problems = E.check(E.add_reinforcement(s, r), board)
    assert [p.key for p in problems] == ["reinforcements[0].release.area"] and "nowhere_town" in problems[0].message
    ok = E.add_reinforcement(s, Reinforcement(1, "german", ("g-res",), "edge west", id="reserve", roll=table,
                                              release=E.parse_release("soviet enters within 1 of 0707")))
    assert E.check(ok, board) == []
    with pytest.raises(ValueError, match="expected 'turn N'"):
        E.parse_release("when it rains")
    with pytest.raises(ValueError, match="'3d6' is not one of"):
        E.parse_roll("3d6", "6: g-res")


# ---------------------------------------------------------------- the ruleset's sides

def blue_red(board):
    """A scenario for the Demyansk rules whose sides are not the ruleset's (every phase would be another's)."""
    s = E.new_scenario("br", "Blue and red", "demyansk", str(MAP), [Side("blue", "Blue", "#3050c0"),
                                                                  Side("red", "Red", "#c03030")], 1, 2, "blue")
    s = E.set_deployment(s, Deployment("b", "blue", 1, E.within(2, "0707"), ()))
    s = E.set_deployment(s, Deployment("r", "red", 2, E.within(2, "1210"), ()))
    s = E.add_unit(s, inf("b-1", "blue", hex="0707"), "b")
    s = E.add_unit(s, inf("r-1", "red", hex="1210"), "r")
    return s


def test_the_ruleset_names_the_sides_it_plays():
    assert E.expected_sides("demyansk") == ("german", "soviet")
    assert "demyansk" in [r.name for r in E.installed_rulesets()]
    assert "scw" not in [r.name for r in E.installed_rulesets()]        # reads its own scenario files
    assert E.expected_sides("no_such_rules") is None


def test_sides_that_are_not_the_rulesets_fail_check_and_validate(board, tmp_path, capsys):
    from engine.cli import main

    s = blue_red(board)
    problems = [p for p in E.check(s, board) if p.key == "sides"]
    assert len(problems) == 1 and "plays the sides german and soviet" in problems[0].message
    assert E.side_problem(s) == problems[0].message
    path = tmp_path / "br.toml"
    save_scenario(s, path)
    assert main(["validate", str(path)]) == 1
    assert "sides: the demyansk ruleset plays the sides german and soviet" in capsys.readouterr().out


def test_the_scenarios_sides_are_mapped_onto_the_rulesets_or_refused(board):
    s = blue_red(board)
    assert E.suggest_side_map(s, "demyansk") == {"blue": "german", "red": "soviet"}
    with pytest.raises(ValueError, match="two sides would both become 'german'"):
        E.set_ruleset(s, "demyansk", {"blue": "german", "red": "german"})
    with pytest.raises(ValueError, match="missing soviet"):
        E.set_ruleset(s, "demyansk", {"blue": "german"})
    m = E.set_ruleset(s, "demyansk", {"blue": "german", "red": "soviet"})
    assert list(m.sides) == ["german", "soviet"] and m.sides["german"].colour == "#3050c0"
    assert (m.units["b-1"].side, m.units["r-1"].side, m.first_side) == ("german", "soviet", "german")
    assert [d.side for d in m.deployments] == ["german", "soviet"]
    assert E.check(m, board) == [] and E.side_problem(m) is None


def test_sides_are_mapped_on_a_scenario_not_finished_yet():
    s = E.new_scenario("n", "New", "demyansk", str(MAP), [Side("blue", "Blue", "#3050c0"), Side("red", "Red", "")])
    m = E.set_ruleset(s, "demyansk", {"blue": "german", "red": "soviet"})   # no units yet: still renamed
    assert list(m.sides) == ["german", "soviet"] and m.first_side == "german" and m.sides["german"].name == "Blue"


def test_a_new_ruleset_starts_from_its_own_rules_not_the_old_rulesets_table():
    import dataclasses

    s = E.new_scenario("n", "New", "free", str(MAP), [Side("blue", "Blue", "#3050c0"), Side("red", "Red", "")])
    s = dataclasses.replace(s, rules={"phases": ["Play"]})          # the free table's phases: names
    c = E.set_ruleset(s, "classic")
    assert c.ruleset == "classic" and c.rules == {}
    assert E.set_ruleset(c, "classic") is c                         # the same ruleset: its rules kept
    shared = dataclasses.replace(s, rules="rules/demyansk-classic.toml")
    assert E.set_ruleset(shared, "classic").rules == "rules/demyansk-classic.toml"   # a shared file stays named
