"""A scenario built from scratch with the editor's functions, on a map of our own, with sides of its own naming:
under free or classic it is played at once (the blue/red case moves and fights); Check explains a table it cannot
use."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game, load_rules
from engine.maps.mapfile import load_map
from engine.scenario import Deployment, Side, Unit, save_scenario
from engine.scenario import edit as E

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "crossing.toml"


def blue_red(ruleset: str):
    s = E.new_scenario("skirmish", "Skirmish", ruleset, str(MAP), [Side("blue", "Blue", "#4a6fa5"),
                                                                     Side("red", "Red", "#a54a4a")], 1, 4)
    s = E.set_deployment(s, Deployment("blue-start", "blue", 1, "all", ()))
    s = E.set_deployment(s, Deployment("red-start", "red", 2, "all", ()))
    for uid, side, kind, a, d, m, hid in (("bl-1", "blue", "rifles", 4, 3, 4, "A06.06"),
                                          ("bl-2", "blue", "tanks", 6, 4, 6, "A06.07"),
                                          ("rd-1", "red", "rifles", 3, 3, 4, "A11.06")):
        s = E.add_unit(s, Unit(uid, side, kind, "battalion", a, d, m), f"{side}-start")
        s = E.place(s, uid, hid)
    return s


@pytest.mark.parametrize("ruleset", ["free", "classic"])
def test_a_blue_red_scenario_from_scratch_is_checked_clean_and_plays_at_once(ruleset, tmp_path):
    s = blue_red(ruleset)
    board = load_map(MAP)
    assert E.check(s, board) == []
    path = tmp_path / "skirmish.toml"
    s = type(s)(**{**s.__dict__, "map": str(MAP)})
    save_scenario(s, path)
    g = Game(load_rules(str(path)), 1, str(path))
    if ruleset == "free":
        assert g.state.phase == "Blue"                       # one phase per side, named after it
        g.play("move bl-1 A10.06")
        g.play("roll 2d6 for the assault")
        g.play("move rd-1 box:dead")
        assert not g.state.on_map("rd-1")
        return
    assert g.state.phase == "Blue movement"                  # a movement and a combat phase per side
    g.play("move bl-1 A06.06-A10.06")                        # clear: 1 MP a hex (no chart given)
    g.play("move bl-2 A06.07-A10.05")
    g.play("end")
    assert g.state.phase == "Blue combat"
    events = g.play("attack rd-1 by bl-1+bl-2")              # 10 against 3: 3-1 on the default CRT
    assert events[0].text == "battle announced: attack rd-1 by bl-1+bl-2 at 3-1"
    events = g.play("resolve rd-1")
    assert events[0].kind == "roll" and events[1].kind == "result"


def test_check_explains_a_table_the_classic_rules_cannot_use():
    s = blue_red("classic")
    s = type(s)(**{**s.__dict__, "rules": {"terrain": {"clear": {"mp": 1}},
                                           "combat": {"columns": ["1-1", "2-1"]},
                                           "crt": {"rows": [["NE", "DE"]] * 5 + [["NE"]]},
                                           "results": {"NE": {}, "DE": {"defender_eliminated": True}}}})
    msgs = [str(p) for p in E.check(s, load_map(MAP))]
    assert any("rules.terrain: the map's terrain 'rough' is missing from the terrain effects chart (rows: clear; "
               "the map's terrains: clear, rough, town, woods)" in m for m in msgs), msgs
    assert any("rules.crt.rows[5]: the row for a roll of 6 has 1 cells; expected 2, one per column (1-1, 2-1)" in m
               for m in msgs), msgs
