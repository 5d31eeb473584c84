"""General victory conditions as data (engine/scenario/victory.py): each kind judged on hand-made facts, the file format, a played game."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.errors import BadFile
from engine.maps.mapfile import load_map
from engine.scenario import AreaContext, Selector, Unit, Victory, load_scenario
from engine.scenario.victory import (
    DUE, ELIMINATED, EXITED, ON_MAP, Award, Condition, Facts, Judge, update_control,
)

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "demyansk.toml"


@pytest.fixture(scope="module")
def board():
    return load_map(MAP)


class _Scn:
    """The little a judge asks of a scenario: its units and their deployments."""

    def __init__(self, units):
        self.units = {u.id: u for u in units}

    def deployment_of(self):
        return {}


UNITS = [Unit(f"g{i}", "german", "infantry" if i < 3 else "armored", "regiment", 3, 3, 5) for i in range(5)] + \
        [Unit(f"s{i}", "soviet", "infantry", "division", 4, 4, 5) for i in range(4)]


def facts(board, where: dict[str, str], status: dict[str, str] | None = None, steps=None, original=None,
          exit_hex=None, control=None) -> Facts:
    status = status or {}
    return Facts(
        sides=("german", "soviet"), unit_side={u.id: u.side for u in UNITS},
        where={u.id: board.parse_hex(where[u.id]) if u.id in where else None for u in UNITS},
        status={u.id: status.get(u.id, ON_MAP if u.id in where else DUE) for u in UNITS},
        steps=steps or {u.id: 2 for u in UNITS}, original_steps=original or {u.id: 2 for u in UNITS},
        exit_hex={k: board.parse_hex(v) for k, v in (exit_hex or {}).items()},
        control={board.parse_hex(k): v for k, v in control.items()} if control is not None else None)


def judge(board, *conditions, **kw) -> Judge:
    return Judge(Victory("conditions", conditions=conditions, **kw), _Scn(UNITS), AreaContext(board))


def test_occupy_three_hexes_of_an_area_at_the_end(board):
    j = judge(board, Condition("hold", "occupy", "german", level="major", area="within 1 of 0707", count=3))
    out = j.outcome(facts(board, {"g0": "0707", "g1": "0708", "g2": "0706", "s0": "1210"}))
    assert out.winner == "german" and out.breakdown["level"] == "major"
    assert "hold" in out.reason
    assert out.breakdown["conditions"]["hold"]["detail"].startswith("3 of 7 hexes held")
    out = j.outcome(facts(board, {"g0": "0707", "g1": "0708", "g2": "1010"}))
    assert out.winner is None and out.breakdown["conditions"]["hold"]["met"] is False


def test_every_hex_of_a_named_area_and_the_last_to_pass_through(board):
    j = judge(board, Condition("town", "occupy", "soviet", level="minor", area="staraya_russa", mode="last"))
    control = {}
    update_control(control, "soviet", [board.parse_hex("0807"), board.parse_hex("0706")])
    f = facts(board, {"g0": "1010"}, control={board.hex_id(h): s for h, s in control.items()})
    assert j.outcome(f).winner == "soviet"                    # passed through, nobody there now
    update_control(control, "german", [board.parse_hex("0706")])
    f = facts(board, {"g0": "1010"}, control={board.hex_id(h): s for h, s in control.items()})
    assert j.outcome(f).winner is None


def test_exit_counts_intact_units_through_an_area(board):
    j = judge(board, Condition("out", "exit", "german", level="minor", area="edge west", share=0.5,
                               measure="units", at_least=2))
    st = {"g0": EXITED, "g1": EXITED, "g2": EXITED}
    steps = {u.id: 2 for u in UNITS} | {"g1": 0 + 1, "g2": 0}
    f = facts(board, {}, st, steps=steps, exit_hex={"g0": "0110", "g1": "0105", "g2": "0111"})
    out = j.outcome(f)
    assert out.winner == "german" and "2 units exited intact" in out.breakdown["conditions"]["out"]["detail"]
    f = facts(board, {}, st, steps=steps, exit_hex={"g0": "0110", "g1": "3005", "g2": "0111"})
    assert j.outcome(f).winner is None                        # g1 left by the east edge, g2 was not intact


def test_losses_shift_the_level(board):
    hold = Condition("hold", "occupy", "german", level="major", area="0707")
    bleed = Condition("bleed", "losses", "soviet", shift=1, measure="units", at_least=2,
                      select=Selector(types=("armored",)))
    j = judge(board, hold, bleed)
    f = facts(board, {"g0": "0707"}, {"g3": ELIMINATED, "g4": ELIMINATED})
    out = j.outcome(f)
    assert (out.winner, out.breakdown["level"], out.breakdown["score"]) == ("german", "minor", 1)
    f = facts(board, {"g0": "0707"}, {"g1": ELIMINATED, "g2": ELIMINATED})   # infantry do not count
    assert j.outcome(f).breakdown["level"] == "major"
    steps = judge(board, Condition("steps", "losses", "soviet", level="massive", at_least=3))
    lost = {u.id: 2 for u in UNITS} | {"g0": 1, "g1": 0}
    assert steps.outcome(facts(board, {"g0": "0707", "g1": "0708"}, steps=lost)).breakdown["level"] == "massive"


def test_a_victory_point_schedule_with_a_margin(board):
    pts = Condition("vp", "points", "soviet", level="minor", margin=3, awards=(
        Award("soviet", 2, "eliminated"), Award("german", 1, "hex_held", area="within 1 of 0707")))
    j = judge(board, pts)
    f = facts(board, {"g0": "0707"}, {"g1": ELIMINATED, "g2": ELIMINATED})
    assert j.points(pts.awards, f) == {"german": 1, "soviet": 4}
    assert j.outcome(f).winner == "soviet"
    f = facts(board, {"g0": "0707", "g3": "0708"}, {"g1": ELIMINATED, "g2": ELIMINATED})
    assert j.outcome(f).winner is None                        # 4 against 2: a lead of 2, short of 3


def test_three_or_more_of_these_and_otherwise(board):
    parts = [Condition(f"h{i}", "occupy", "german", area=h) for i, h in enumerate(("0707", "0708", "0709", "0710"))]
    three = Condition("three", "count", "german", level="major", conditions=tuple(p.id for p in parts), at_least=3)
    j = judge(board, *parts, three, otherwise="soviet", otherwise_level="minor")
    out = j.outcome(facts(board, {"g0": "0707", "g1": "0708", "g2": "0710"}))
    assert out.winner == "german" and "3 of 4 met" in out.breakdown["conditions"]["three"]["detail"]
    out = j.outcome(facts(board, {"g0": "0707", "g1": "0708"}))
    assert (out.winner, out.breakdown["level"]) == ("soviet", "minor")


def test_both_sides_winning_cancel_to_a_draw(board):
    j = judge(board, Condition("a", "occupy", "german", level="major", area="0707"),
              Condition("b", "occupy", "soviet", level="major", area="1210"))
    out = j.outcome(facts(board, {"g0": "0707", "s0": "1210"}))
    assert out.winner is None and out.breakdown["level"] == "draw"


HEAD = """
[scenario]
id = "v"
name = "V"
ruleset = "demyansk"
map = "{map}"
first_turn = 1
last_turn = 2
first_side = "german"
[[sides]]
id = "german"
name = "German"
[[sides]]
id = "soviet"
name = "Soviet"
[[deployments]]
id = "g"
side = "german"
area = "within 2 of 0707"
units = ["g1"]
[[units]]
id = "g1"
side = "german"
type = "infantry"
size = "regiment"
attack = 3
defense = 4
movement = 5
hex = "0707"
"""


def write(tmp_path, victory: str) -> Path:
    p = tmp_path / "v.toml"
    p.write_text(HEAD.format(map=MAP.as_posix()) + textwrap.dedent(victory))
    return p


def test_conditions_load_and_save_back_equal(tmp_path):
    from engine.scenario import save_scenario

    p = write(tmp_path, """
        [victory]
        kind = "conditions"
        otherwise = "soviet"
        otherwise_level = "minor"
        [[victory.conditions]]
        id = "hold"
        kind = "occupy"
        side = "german"
        area = "within 1 of 0707"
        count = 3
        level = "major"
        rule = "custom 1"
        [[victory.conditions]]
        id = "vp"
        kind = "points"
        side = "soviet"
        margin = 0
        [[victory.conditions.awards]]
        side = "soviet"
        points = 2
        event = "eliminated"
        select = { type = "infantry" }
        [[victory.conditions]]
        id = "two"
        kind = "count"
        side = "german"
        conditions = ["hold", "vp"]
        at_least = 2
        shift = 1
        """)
    s = load_scenario(p)
    assert [c.kind for c in s.victory.conditions] == ["occupy", "points", "count"]
    assert s.victory.conditions[1].awards[0].select.types == ("infantry",)
    save_scenario(s, tmp_path / "again.toml")
    assert load_scenario(tmp_path / "again.toml").victory == s.victory


def test_bad_conditions_are_named_by_key_path(tmp_path):
    p = write(tmp_path, """
        [victory]
        kind = "conditions"
        [[victory.conditions]]
        id = "a"
        kind = "occupy"
        side = "martian"
        level = "huge"
        [[victory.conditions]]
        id = "b"
        kind = "count"
        side = "german"
        conditions = ["a", "nothing"]
        """)
    with pytest.raises(BadFile) as e:
        load_scenario(p)
    text = str(e.value)
    for bit in ("victory.conditions[0].side: 'martian' is not a side", "victory.conditions[0].level: 'huge'",
                "victory.conditions[0].area: missing", "victory.conditions[1].conditions[1]: no condition 'nothing'"):
        assert bit in text


def test_the_demyansk_rules_refuse_last_to_occupy(tmp_path):
    from engine.game import load_rules

    p = write(tmp_path, """
        [victory]
        kind = "conditions"
        [[victory.conditions]]
        id = "a"
        kind = "occupy"
        side = "german"
        area = "0707"
        mode = "last"
        level = "minor"
        """)
    with pytest.raises(BadFile, match="mode = \"end\""):
        load_rules(str(p))


def test_a_demyansk_game_ends_with_the_winner_by_the_condition(tmp_path):
    p = write(tmp_path, """
        [victory]
        kind = "conditions"
        otherwise = "soviet"
        [[victory.conditions]]
        id = "hold"
        kind = "occupy"
        side = "german"
        area = "within 3 of 0707"
        count = 1
        level = "massive"
        text = "a German unit near Staraya Russa"
        """)
    r = subprocess.run([sys.executable, "-m", "engine", "play", str(p), "--seed", "3", "--bot", "german",
                        "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["over"] and out["winner"] == "german"
    assert out["reason"] == "massive victory by a German unit near Staraya Russa"
    assert out["breakdown"]["conditions"]["hold"]["met"] is True


def test_a_variant_shifts_the_victory_level(tmp_path):
    from engine.scenario import save_scenario

    p = write(tmp_path, """
        [[variants]]
        id = "green"
        name = "Green German troops"
        [variants.victory_shift]
        side = "soviet"
        levels = 1
        [victory]
        kind = "conditions"
        [[victory.conditions]]
        id = "hold"
        kind = "occupy"
        side = "german"
        area = "0707"
        level = "major"
        """)
    s = load_scenario(p)
    assert (s.variants[0].shift_side, s.variants[0].shift) == ("soviet", 1)
    board = load_map(MAP)
    facts_ = Facts(("german", "soviet"), {"g1": "german"}, {"g1": board.parse_hex("0707")}, {"g1": ON_MAP},
                   {"g1": 1}, {"g1": 1})
    plain = Judge(s.victory, s, AreaContext(board)).outcome(facts_)
    green = Judge(s.with_variant("green").victory, s, AreaContext(board)).outcome(facts_)
    assert (plain.winner, plain.breakdown["level"]) == ("german", "major")
    assert (green.winner, green.breakdown["level"]) == ("german", "minor")
    assert green.breakdown["conditions"]["variant-green"]["met"] is True
    save_scenario(s, tmp_path / "again.toml")
    assert load_scenario(tmp_path / "again.toml").variants == s.variants
