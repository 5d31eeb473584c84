"""The rules framework: dice in the state, undo/redo that never re-rolls, replay by hash, saved games."""
from __future__ import annotations

import pytest

from engine.errors import BadFile, IllegalAction
from engine.game import Game, load_game, next_die, replay, seed_rng, state_hash
from test_demyansk_fixtures import rules, unit

HQ = unit("hq", "soviet", "0-1-4", "1001", type="headquarters", command_radius=20)


def combat_game(seed=7):
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504")])
    g = Game(r, seed)
    for _ in range(6):                     # to the Soviet combat phase of turn 1
        g.play("end")
    assert g.state.phase == "soviet-combat"
    return g


def test_dice_come_from_the_generator_in_the_state_and_are_uniform_enough():
    rng = seed_rng(1)
    faces = []
    for _ in range(6000):
        d, rng = next_die(rng)
        faces.append(d)
    counts = [faces.count(f) for f in range(1, 7)]
    assert min(counts) > 850 and max(counts) < 1150
    assert next_die(seed_rng(1)) == next_die(seed_rng(1))


def test_undo_steps_back_one_action_and_declaring_again_gives_the_same_roll():
    g = combat_game()
    g.play("attack d by a")
    ev1 = g.play("resolve d")
    roll1 = [e.data["die"] for e in ev1 if e.kind == "roll"]
    h_after = g.hash()
    g.undo()
    assert g.state.battles and not g.state.battles[0].resolved       # only the resolve was undone
    ev2 = g.play("resolve d")
    assert [e.data["die"] for e in ev2 if e.kind == "roll"] == roll1 and g.hash() == h_after
    g.undo()
    g.undo()
    assert g.state.battles == []
    g.redo()
    g.redo()
    assert g.hash() == h_after
    with pytest.raises(IllegalAction):
        g.redo()


def test_a_refused_action_changes_nothing():
    g = combat_game()
    h, n = g.hash(), len(g.log)
    with pytest.raises(IllegalAction) as e:
        g.play("move a 0504-0503")
    assert e.value.rule == "Demyansk 3" and g.hash() == h and len(g.log) == n


def test_replaying_the_log_reaches_the_same_state_hash():
    g = combat_game(seed=11)
    g.play("attack d by a")
    g.play("resolve d")
    while g.legal_actions() and g.state.pending:
        g.play(g.legal_actions()[0])
    g2 = replay(g.rules, 11, g.actions_text())
    assert state_hash(g2.rules, g2.state) == g.hash()


def test_saved_game_is_toml_and_loads_to_the_same_state(tmp_path):
    scen = tmp_path / "s.toml"
    scen.write_text("# stands for the scenario file\n")
    g = combat_game(seed=5)
    g.scenario_path = str(scen)
    g.play("attack d by a")
    g.play("resolve d")
    save = tmp_path / "game.toml"
    g.save(save)
    text = save.read_text()
    assert "seed = 5" in text and "scenario_sha256" in text and '"resolve d"' in text
    g2 = load_game(save, rules_for_scenario=lambda path: g.rules)
    assert g2.hash() == g.hash() and g2.actions_text() == g.actions_text()


def test_loading_a_save_whose_scenario_changed_says_so(tmp_path):
    scen = tmp_path / "s.toml"
    scen.write_text("# version 1\n")
    g = combat_game()
    g.scenario_path = str(scen)
    g.save(tmp_path / "game.toml")
    scen.write_text("# version 2\n")
    with pytest.raises(BadFile) as e:
        load_game(tmp_path / "game.toml", rules_for_scenario=lambda path: g.rules)
    assert "has changed" in str(e.value) and "scenario_sha256" in str(e.value)


def test_a_malformed_save_names_the_key(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('ruleset = "demyansk"\nseed = "x"\nactions = []\n')
    with pytest.raises(BadFile) as e:
        load_game(p, rules_for_scenario=lambda path: None)
    assert "bad.toml:2: seed: expected int" in str(e.value)


def test_actions_round_trip_through_text_and_dict():
    from engine.rulesets.demyansk.actions import action_from_dict, parse_action
    for text in ("move 3-123 0505-0506", "attack d by a+b", "resolve d", "result DR2", "retreat d off",
                 "advance none", "enter w 0104", "drop para 0603", "withdraw m", "end"):
        a = parse_action(text)
        assert a.text() == text and action_from_dict(a.to_dict()) == a
    with pytest.raises(IllegalAction) as e:
        parse_action("move 3-123")
    assert "expected 'move UNIT FROM-TO'" in str(e.value)
