"""Variable reinforcements: held back until an event, then a die roll on the scenario's table releases them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import BadFile, IllegalAction
from engine.game import load_game, load_rules
from engine.rulesets.demyansk.actions import EndPhase, Enter, Move
from engine.scenario import load_scenario, save_scenario

ROOT = Path(__file__).resolve().parent.parent
MAP = (ROOT / "maps" / "demyansk.toml").as_posix()

# Black Wednesday 3.5 and 2.7 in miniature on the Demyansk map: a German reserve released after the first
# Soviet unit comes near 0707, one roll a turn on a table; a Soviet regiment rolled for once g-r2 has entered.
SCENARIO = '''
[scenario]
id = "variable-test"
name = "Reserves on call"
ruleset = "demyansk"
map = "{map}"
first_turn = 1
last_turn = 4
first_side = "german"

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
area = "within 2 of 0707"
units = ["g-1"]

[[deployments]]
id = "sov"
side = "soviet"
area = "within 2 of 1010"
units = ["s-1"]

[[reinforcements]]
id = "reserve"
side = "german"
units = ["g-r1", "g-r2", "g-r3"]
entry = "edge west"
rule = "Black Wednesday 3.5"
release = {{ event = "enters", side = "soviet", area = "within 4 of 0707", text = "the first Soviet unit near 0707" }}
[reinforcements.roll]
dice = "1d6"
modifiers = [{{ add = 1, from_turn = 3, text = "later turns" }}]
results = [{{ min = 3, max = 4, count = 1, text = "type A" }}, {{ min = 5, units = ["g-r2", "g-r3"], text = "type B" }}]

[[reinforcements]]
id = "14-rifle"
side = "soviet"
units = ["s-14"]
entry = "edge east"
rule = "Black Wednesday 2.7"
release = {{ event = "entered", units = ["g-r2"] }}
roll = {{ dice = "2d6", results = [{{ min = 11, units = ["s-14"] }}] }}

[special_rules]
garrison_duty_last_turn = 0

[victory]
kind = "conditions"
otherwise = "soviet"
otherwise_level = "minor"
[[victory.conditions]]
id = "hold"
kind = "occupy"
side = "german"
area = "0707"
level = "minor"

[[units]]
id = "g-1"
side = "german"
type = "infantry"
size = "regiment"
attack = 3
defense = 4
movement = 5
hex = "0707"

[[units]]
id = "g-r1"
side = "german"
type = "infantry"
size = "regiment"
attack = 3
defense = 4
movement = 5

[[units]]
id = "g-r2"
side = "german"
type = "infantry"
size = "regiment"
attack = 3
defense = 4
movement = 5

[[units]]
id = "g-r3"
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
hex = "1010"

[[units]]
id = "s-14"
side = "soviet"
type = "infantry"
size = "regiment"
attack = 4
defense = 4
movement = 5
'''


def write(tmp_path, text=SCENARIO, name="variable.toml") -> Path:
    p = tmp_path / name
    p.write_text(text.format(map=MAP), encoding="utf-8")
    return p


def play(rules, st, action):
    st, events = rules.apply(st, action)
    return st, events


def until(rules, st, phase, turn=None):
    events = []
    while st.phase != phase or (turn is not None and st.turn != turn):
        st, ev = rules.apply(st, EndPhase())
        events += ev
    return st, events


def test_the_format_reads_the_release_and_the_table_and_saves_back_the_same(tmp_path):
    s = load_scenario(write(tmp_path))
    reserve, rifle = s.reinforcements
    assert reserve.variable and reserve.id == "reserve" and reserve.turn == 1
    assert (reserve.release.event, reserve.release.side, reserve.release.area) == ("enters", "soviet", "within 4 of 0707")
    assert reserve.roll.dice == "1d6" and reserve.roll.result_for(4).count == 1
    assert reserve.roll.result_for(6).units == ("g-r2", "g-r3") and reserve.roll.result_for(2) is None
    assert rifle.release.units == ("g-r2",) and rifle.roll.dice == "2d6"
    save_scenario(s, tmp_path / "again.toml")
    again = load_scenario(tmp_path / "again.toml")
    assert again.reinforcements == s.reinforcements


def test_held_units_wait_for_the_event_then_the_roll_is_a_logged_chance_event(tmp_path):
    rules = load_rules(str(write(tmp_path)))
    st = rules.initial_state(1, dice=[5, 6, 6, 5])     # the reserve, the pocket's air supply (7.2), the 14th
    assert {st.units[u].status for u in ("g-r1", "g-r2", "g-r3", "s-14")} == {"held"}
    # turn 1: nothing has happened near 0707, so the German reinforcement phase rolls nothing
    st, events = until(rules, st, "soviet-movement")
    assert not [e for e in events if e.kind == "roll"] and st.preset_dice == [5, 6, 6, 5]
    with pytest.raises(IllegalAction) as e:
        rules.apply(until(rules, rules.initial_state(1), "german-reinforcement", turn=1)[0], Enter("g-r1", "0107"))
    assert e.value.rule == "Black Wednesday 3.5" and "not released yet" in e.value.message
    # the release is checked the moment a Soviet unit comes within 4 of 0707
    st, events = play(rules, st, Move("s-1", "0910", "1010"))
    assert [e.text for e in events if e.kind == "release-event"] == [
        "Black Wednesday 3.5: reserve: the first Soviet unit near 0707"]
    assert st.released == {"reserve": 1} and st.units["g-r1"].status == "held"
    # turn 2's German reinforcement phase: one roll (5, "type B") releases g-r2 and g-r3
    st, events = until(rules, st, "german-reinforcement", turn=2)
    rolls = [e for e in events if e.kind == "roll"]
    assert [r.data["die"] for r in rolls] == [5, 6] and "reserve reinforcements" in rolls[0].text
    assert "air supply" in rolls[1].text
    released = [e for e in events if e.kind == "release"]
    assert released[0].data == {"group": "reserve", "units": ["g-r2", "g-r3"], "roll": 5}
    assert [st.units[u].status for u in ("g-r1", "g-r2", "g-r3")] == ["held", "due", "due"]
    entries = {a.unit for a in rules.legal_actions(st) if isinstance(a, Enter)}
    assert entries == {"g-r2", "g-r3"}
    edge = next(a for a in rules.legal_actions(st) if isinstance(a, Enter) and a.unit == "g-r2")
    st, events = play(rules, st, edge)
    # g-r2 has entered play: the Soviet 14th Rifle now rolls two dice each Soviet reinforcement phase (2.7)
    assert st.released == {"reserve": 1, "14-rifle": 2}
    st, events = until(rules, st, "soviet-hq-movement", turn=2)
    rolls = [e.data["die"] for e in events if e.kind == "roll" and "14-rifle" in e.text]
    assert rolls == [6, 5] and st.units["s-14"].status == "due"
    assert any(e.kind == "release" and e.data["units"] == ["s-14"] and e.data["roll"] == 11 for e in events)


def test_a_modifier_from_a_later_turn_is_added_and_shown(tmp_path):
    rules = load_rules(str(write(tmp_path)))
    st = rules.initial_state(1, dice=[1, 6, 2, 6])     # the reserve and the air supply (7.2), each turn
    st, _ = until(rules, st, "soviet-movement")
    st, _ = play(rules, st, Move("s-1", "0910", "1010"))
    st, events = until(rules, st, "german-reinforcement", turn=2)
    assert [e.text for e in events if e.kind == "release"] == ["Black Wednesday 3.5: reserve: 1, nothing released"]
    st, events = until(rules, st, "german-reinforcement", turn=3)
    # the Soviet 14th does not roll (g-r2 has not entered); turn 3's German roll is 2 +1 = 3: type A, one unit
    release = [e for e in events if e.kind == "release"]
    assert release[-1].text == "Black Wednesday 3.5: reserve: g-r1 released (2 +1 = 3 (type A))"
    assert st.units["g-r1"].status == "due" and st.units["g-r2"].status == "held"


def test_undo_and_replay_give_the_same_rolls(tmp_path):
    from engine.game import Game, replay

    path = str(write(tmp_path))
    rules = load_rules(path)
    game = Game(rules, 7, path)
    while game.state.phase != "soviet-movement":
        game.play("end")
    game.play("move s-1 1010-0910")
    for _ in range(4):
        game.play("end")
    assert game.state.released == {"reserve": 1}
    rolled = [e.text for entry in game.log for e in entry.events if e.kind in ("roll", "release")]
    assert rolled, "turn 2 begins with the reserve's roll"
    before = game.hash()
    game.undo()
    game.play("end")
    assert game.hash() == before
    again = replay(rules, 7, game.actions_text(), path)
    assert again.hash() == before


def test_bad_tables_are_named_with_their_key_path(tmp_path):
    bad = SCENARIO.replace('count = 1, text = "type A"', 'text = "type A"').replace(
        'units = ["g-r2", "g-r3"], text = "type B"', 'units = ["s-1"], text = "type B"').replace(
        'dice = "1d6"', 'dice = "3d6"')
    with pytest.raises(BadFile) as e:
        load_scenario(write(tmp_path, bad))
    text = str(e.value)
    assert "reinforcements[0].roll.dice: '3d6' is not one of: 1d6, 2d6, d66" in text
    assert "reinforcements[0].roll.results[0]: expected either units" in text
    assert "reinforcements[0].roll.results[1].units[0]: 's-1' is not one of this reinforcement's units" in text
    no_id = SCENARIO.replace('id = "14-rifle"\n', "")
    with pytest.raises(BadFile) as e:
        load_scenario(write(tmp_path, no_id))
    assert "reinforcements[1].id: missing (a variable reinforcement needs an id for the log)" in str(e.value)


def test_headless_play_rolls_for_a_group_released_by_turn_and_the_saved_log_replays(tmp_path):
    # every turn from turn 2 on, the German rolls: 4-6 brings the next unit of the reserve
    text = SCENARIO.replace(
        'release = {{ event = "enters", side = "soviet", area = "within 4 of 0707", '
        'text = "the first Soviet unit near 0707" }}', 'release = {{ event = "turn", turn = 2 }}')
    assert text != SCENARIO
    path = write(tmp_path, text)
    save = tmp_path / "game.toml"
    out = subprocess.run([sys.executable, "-m", "engine", "play", str(path), "--bot", "german,soviet", "--seed", "3",
                          "--json", "--save", str(save)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["over"] is True and report["turns"] == 4
    game = load_game(save)
    events = [e for entry in game.log for e in entry.events]
    rolls = [e for e in events if e.kind == "roll" and "reserve reinforcements" in e.text]
    assert len(rolls) >= 1 and all(1 <= e.data["die"] <= 6 for e in rolls)
    assert [e.text for e in events if e.kind == "release-event"][0] == "Black Wednesday 3.5: reserve: from turn 2"


def test_a_modifier_tied_to_an_option_applies_only_when_the_option_is_set(tmp_path):
    # Black Wednesday 4.1b: German cooperation adds 2 to the German roll
    text = SCENARIO.replace('modifiers = [{{ add = 1, from_turn = 3, text = "later turns" }}]',
                            'modifiers = [{{ add = 2, option = "german_cooperation", rule = "Black Wednesday 4.1b" }}]')
    assert text != SCENARIO

    def second_turn(options: str):
        rules = load_rules(str(write(tmp_path, text + options, name="option.toml")))
        st = rules.initial_state(1, dice=[2, 6])
        st, _ = until(rules, st, "soviet-movement")
        st, _ = play(rules, st, Move("s-1", "0910", "1010"))
        return until(rules, st, "german-reinforcement", turn=2)

    st, events = second_turn("")
    assert [e.text for e in events if e.kind == "release"] == ["Black Wednesday 3.5: reserve: 2, nothing released"]
    st, events = second_turn("\n[options]\ngerman_cooperation = true\n")
    assert [e.text for e in events if e.kind == "release"] == [
        "Black Wednesday 3.5: reserve: g-r1 released (2 +2 = 4 (type A))"]


def test_the_opening_phase_makes_no_unlogged_roll(tmp_path):
    # released from turn 1: the German side, which moves first, first rolls on turn 2; the Soviet side on turn 1
    text = SCENARIO.replace(
        'release = {{ event = "enters", side = "soviet", area = "within 4 of 0707", '
        'text = "the first Soviet unit near 0707" }}', 'release = {{ event = "turn", turn = 1 }}').replace(
        'release = {{ event = "entered", units = ["g-r2"] }}', 'release = {{ event = "turn", turn = 1 }}')
    rules = load_rules(str(write(tmp_path, text)))
    st = rules.initial_state(1, dice=[6, 5, 5])
    assert st.released == {"reserve": 1, "14-rifle": 1} and st.preset_dice == [6, 5, 5]
    st, events = until(rules, st, "soviet-hq-movement")
    assert [e.data["die"] for e in events if e.kind == "roll"] == [6, 5]
    assert st.units["s-14"].status == "due"
    st, events = until(rules, st, "german-mechanized-movement", turn=2)
    assert [e.data["die"] for e in events if e.kind == "roll" and "reserve" in e.text] == [5]
