"""The free-play table: anything a player does at a table, refused only where the file forbids it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.errors import BadFile, IllegalAction
from engine.game import Game, load_game, load_rules, replay

ROOT = Path(__file__).resolve().parent.parent
SCEN = str(ROOT / "scenarios" / "free-demo.toml")


@pytest.fixture(scope="module")
def rules():
    return load_rules(SCEN)


def test_a_counter_goes_to_any_hex_and_any_box_and_back(rules):
    g = Game(rules, 1, SCEN)
    g.play("move b-1 A02.08-A30.20")              # across the whole map in one move: no movement rules
    assert rules.hex_id(g.state.units["b-1"].hex) == "A30.20"
    g.play("move b-1 box:dead")
    assert g.state.units["b-1"].status == "box" and g.state.units["b-1"].box == "dead"
    assert not g.state.on_map("b-1")
    g.play("move b-1 A11.09")                     # onto the hex of a Red counter: a table refuses nothing
    assert g.state.units["b-1"].hex == g.state.units["r-1"].hex
    assert g.state.units["b-1"].z > g.state.units["r-1"].z      # the last put down is on top of the stack


def test_only_what_the_file_forbids_is_refused_with_a_clear_message(rules):
    g = Game(rules, 1, SCEN)
    with pytest.raises(IllegalAction, match="no counter 'x-9'"):
        g.play("move x-9 A01.01")
    with pytest.raises(IllegalAction, match="off the sheet"):
        g.play("move b-1 A31.01")
    with pytest.raises(IllegalAction, match=r"no off-map box 'attic' \(boxes: box:dead, box:reserve\)"):
        g.play("move b-1 box:attic")
    with pytest.raises(IllegalAction, match="r-4 arrives on turn 3 \\(now turn 1\\)"):
        g.play("enter r-4 A30.13")
    with pytest.raises(IllegalAction, match="malformed"):
        g.play("roll many")
    assert g.log == []


def test_reinforcements_are_released_on_their_turn(rules):
    g = Game(rules, 1, SCEN)
    assert g.state.units["b-4"].status == "due"
    for _ in range(4):
        events = g.play("end")
    assert "b-4 arrives (A01.08)" in [e.text for e in events]
    assert g.state.turn == 2 and g.state.phase == "Blue movement"
    g.play("enter b-4 A01.08")
    assert g.state.on_map("b-4")


def test_the_turn_and_phase_track_uses_the_scenarios_names_and_ends_after_the_last_turn(rules):
    g = Game(rules, 1, SCEN)
    assert g.state.phase == "Blue movement"
    texts = [e.text for _ in range(4) for e in g.play("end")]
    assert texts[-1] == "Morning, Blue movement"
    while not g.is_over():
        g.play("end")
    assert g.state.turn == 6 and g.outcome().reason == "free play: the players judge the result"
    with pytest.raises(IllegalAction, match="over"):
        g.play("roll 1d6")


def test_dice_of_any_kind_are_chance_events_of_the_games_generator_and_undo_never_rerolls(rules):
    g = Game(rules, 7, SCEN)
    first = g.play("roll 3d10 for artillery")[0]
    assert first.kind == "roll" and len(first.data["dice"]) == 3
    assert all(1 <= d <= 10 for d in first.data["dice"]) and first.data["total"] == sum(first.data["dice"])
    assert first.text.startswith("rolled 3d10 for artillery: ")
    g.undo()
    again = g.play("roll 3d10 for artillery")[0]
    assert again.data == first.data                      # the generator is in the state: the same roll
    other = Game(rules, 8, SCEN).play("roll 3d10 for artillery")[0]
    rolls = [Game(rules, s, SCEN).play("roll 1d20")[0].data["total"] for s in range(200)]
    assert other.data != first.data or rolls.count(rolls[0]) < 200
    assert set(rolls) <= set(range(1, 21)) and len(set(rolls)) > 15


def test_flip_step_markers_text_markers_and_notes_are_logged_and_undone(rules):
    g = Game(rules, 1, SCEN)
    g.play("flip b-1")
    g.play("steps b-1 1")
    g.play("mark b-1 Out of supply")
    g.play("note A10.09 Bridge blown")
    look = rules.looks(g.state)["b-1"]
    assert look.back and look.steps_lost == 1 and look.markers == ("Out of supply",)
    assert g.state.notes == {"A10.09": "Bridge blown"}
    with pytest.raises(IllegalAction, match=r"b-1 has no marker 'Dug in' \(its markers: 'Out of supply'\)"):
        g.play("unmark b-1 Dug in")
    g.play("unmark b-1 Out of supply")
    g.play("note A10.09")
    assert g.state.notes == {} and rules.looks(g.state)["b-1"].markers == ()
    for _ in range(6):
        g.undo()
    assert "b-1" not in rules.looks(g.state) and g.state.notes == {}


def test_a_hidden_side_shows_blanks_until_revealed(rules):
    g = Game(rules, 1, SCEN)
    assert rules.hidden_units(g.state) == {"r-1", "r-2", "r-3", "r-4"}
    assert rules.looks(g.state)["r-2"].hidden
    g.play("reveal r-2")
    assert "r-2" not in rules.hidden_units(g.state)
    g.play("hide r-2")
    assert "r-2" in rules.hidden_units(g.state)


def test_save_load_and_replay_give_the_same_state(rules, tmp_path):
    g = Game(rules, 5, SCEN)
    for a in ("move b-1 A05.09", "roll 2d6", "flip b-2", "mark b-3 Fired", "note A11.09 ambush", "move r-1 box:dead",
              "end", "reveal r-2"):
        g.play(a)
    path = tmp_path / "game.toml"
    g.save(path)
    loaded = load_game(path)
    assert loaded.hash() == g.hash() and loaded.actions_text() == g.actions_text()


def test_random_table_play_replays_to_the_same_hash(rules):
    rng = random.Random(3)
    for seed in range(3):
        g = Game(rules, seed, SCEN)
        for _ in range(60):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
        assert replay(rules, seed, g.actions_text(), SCEN).hash() == g.hash()


def test_unknown_rules_keys_and_bad_dice_name_the_file_line_and_the_allowed_values(tmp_path):
    text = Path(SCEN).read_text().replace('dice = ["1d6", "2d6", "1d10"]', 'dice = ["1d6", "d6"]\nphaces = ["x"]')
    text = text.replace("../maps/demo.toml", str(ROOT / "maps" / "demo.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(BadFile) as e:
        load_rules(str(bad))
    msgs = [str(p) for p in e.value.problems]
    line = text.splitlines().index('phaces = ["x"]') + 1
    assert any(f"bad.toml:{line}: rules.phaces: unknown key for the free-play table (expected one of: phases, "
               "hidden_sides, markers, dice)" in m for m in msgs), msgs
    assert any("rules.dice[1]: 'd6' is not dice like 2d6" in m for m in msgs), msgs


def test_headless_play_at_the_table_moves_the_track_to_the_end():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "engine", "play", SCEN, "--bot", "blue,red", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["over"] and report["turns"] == 6 and report["actions"] == 24    # 6 turns of 4 phases


def test_the_guidance_line_names_the_turn_and_phase(rules):
    g = Game(rules, 1, SCEN)
    assert rules.guidance(g.state).startswith("Dawn, Blue movement: move any counter anywhere")


def test_the_computer_waits_for_no_side_at_a_table(rules):
    from engine.computer import bot_for, side_to_act

    g = Game(rules, 1, SCEN)
    assert side_to_act(rules, g.state) is None
    assert bot_for(rules, "red")(g.state).text() == "end"
    with pytest.raises(ValueError, match="no side 'green'"):
        bot_for(rules, "green")
