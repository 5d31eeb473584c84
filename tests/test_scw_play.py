"""Whole skirmish games: random legal play keeps the invariants, replays and saves round-trip, the bot finishes."""
import json
import random
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import BadFile, IllegalAction
from engine.game import Game, load_game, replay
from engine.rulesets.scw import load_scw_scenario, rules_for_path
from engine.rulesets.scw.headless import play_out

SCENARIO = "scenarios/scw-platoon-attack.toml"
COMPANY = "scenarios/scw-company-attack.toml"
RULES = rules_for_path(SCENARIO)


def check_invariants(rules, s):
    table = rules.table
    for t in s["teams"].values():
        assert 0 <= t["figures"] <= 4 and 0 <= t["bravado"] <= 8
        assert t["alive"] == (t["figures"] > 0)
        assert table.contains(tuple(t["at"]))
        if t["alive"] and t["bravado"] == 0:
            assert t["pinned"]  # SCW Under Fire 1
    for g in s["guns"].values():
        assert s["cards"][g["id"]]["revealed"] and s["cards"][g["id"]]["picture"]
        assert not g["captured"] or g["silenced"]
    assert sum(t["figures"] for t in s["teams"].values()) <= s["start_figures"]


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_games_keep_the_invariants_and_replay_to_the_same_state(seed):
    game = Game(RULES, seed, SCENARIO)
    pick = random.Random(seed)
    for _ in range(400):
        if game.is_over():
            break
        legal = game.legal_actions()
        assert legal, "a game that is not over always offers an order"
        game.play(pick.choice(legal))
        check_invariants(RULES, game.state)
    again = replay(RULES, seed, game.actions_text(), SCENARIO)
    assert again.hash() == game.hash()


def test_undo_then_the_same_order_gives_the_same_dice():
    game = Game(RULES, 4, SCENARIO)
    first = game.play("move T2 24,39")
    game.undo()
    assert [e.text for e in game.play("move T2 24,39")] == [e.text for e in first]


def test_a_saved_game_loads_back_to_the_same_state(tmp_path):
    game = Game(RULES, 9, SCENARIO)
    play_out(RULES, game)
    path = tmp_path / "skirmish.toml"
    game.save(path)
    back = load_game(path, rules_for_path)
    assert back.hash() == game.hash() and back.outcome() == game.outcome()


@pytest.mark.parametrize("scenario, variant", [(SCENARIO, None), (COMPANY, None), (SCENARIO, "militia"),
                                               (SCENARIO, "player-cards")])
def test_the_attacker_bot_plays_every_variant_to_an_outcome(scenario, variant):
    rules = rules_for_path(scenario, variant)
    for seed in range(3 if scenario == COMPANY else 6):
        game = Game(rules, seed, scenario)
        play_out(rules, game)
        out = game.outcome()
        assert out.winner in ("attacker", "defender") and out.reason
        check_invariants(rules, game.state)


def test_both_sides_win_some_games():
    winners = {}
    for seed in range(20):
        game = Game(RULES, seed, SCENARIO)
        play_out(RULES, game)
        winners[game.outcome().winner] = winners.get(game.outcome().winner, 0) + 1
    assert set(winners) == {"attacker", "defender"}


def test_the_play_command_plays_the_skirmish_to_an_outcome(capsys, tmp_path):
    save = tmp_path / "g.toml"
    assert main(["play", SCENARIO, "--seed", "3", "--bot", "attacker", "--json", "--save", str(save)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["over"] and report["winner"] in ("attacker", "defender")
    assert set(report["breakdown"]) == {"attackers", "cards", "guns"}
    assert load_game(save, rules_for_path).hash() == report["state_sha256"]
    assert main(["play", SCENARIO, "--seed", "3", "--bot", "defender"]) == 1
    assert "needs --bot attacker" in capsys.readouterr().err


def test_bad_scenarios_name_the_key_and_what_was_expected(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nruleset = "scw"\ntable = "../../nowhere.toml"\n', encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_scw_scenario(bad)
    assert "nowhere.toml: file not found" in str(e.value)
    text = open(SCENARIO, encoding="utf-8").read().replace('troops = "internationals"', 'troops = "martians"')
    text = text.replace("../maps/scw-table.toml", Path("maps/scw-table.toml").resolve().as_posix())
    text = text.replace('baseline = "baseline"', 'baseline = "start line"')
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_scw_scenario(bad)
    msg = str(e.value)
    assert "attacker.troops: expected one of" in msg and "'martians'" in msg
    assert "attacker.baseline: the table" in msg and "no line 'start line'" in msg
    with pytest.raises(BadFile) as e:
        load_scw_scenario(SCENARIO, "battalion")
    assert "there is no variant 'battalion'" in str(e.value)


def test_an_order_after_the_end_is_refused():
    game = Game(RULES, 0, SCENARIO)
    play_out(RULES, game)
    with pytest.raises(IllegalAction) as e:
        game.play("end")
    assert "the game is over" in str(e.value)


def test_the_scenario_names_its_ruleset_for_load_rules_saved_games_and_validate(tmp_path, capsys):
    from engine.game import load_rules

    assert load_rules(SCENARIO).name == "scw"
    game = Game(RULES, 2, SCENARIO)
    game.play("move T3 36,39")
    game.save(tmp_path / "g.toml")
    assert load_game(tmp_path / "g.toml").hash() == game.hash()
    assert main(["validate", SCENARIO, "maps/scw-table.toml"]) == 0
    assert "scw-platoon-attack.toml: ok (scenario)" in capsys.readouterr().out


def test_the_company_game_saves_and_loads_through_its_own_scenario_file(tmp_path, capsys):
    assert main(["play", COMPANY, "--seed", "1", "--bot", "attacker", "--json", "--save", str(tmp_path / "c.toml")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["breakdown"]["attackers"]) == 16
    assert load_game(tmp_path / "c.toml").hash() == report["state_sha256"]


def test_unknown_keys_in_a_skirmish_scenario_are_named(tmp_path):
    text = open(SCENARIO, encoding="utf-8").read()
    text = text.replace("../maps/scw-table.toml", Path("maps/scw-table.toml").resolve().as_posix())
    text = text.replace('force = "platoon"', 'forse = "platoon"').replace(
        'attacker = { troops = "militia" }', 'attacker = { troops = "militia", bravado = 9 }')
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_scw_scenario(bad)
    msg = str(e.value)
    assert "attacker.forse: unknown key" in msg and "variants.militia.attacker.bravado: unknown key" in msg
