"""Saved games record the scenario's variants chosen, and reload with them to the same state."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.computer import bot_for, side_to_act
from engine.errors import BadFile
from engine.fileio import read_toml, write_toml
from engine.game import load_game
from engine.scenario.newgame import new_game, scenario_offer

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGN = ROOT / "scenarios" / "demyansk-2-campaign.toml"
PLATOON = ROOT / "scenarios" / "scw-platoon-attack.toml"


def bots_play(game, n: int) -> None:
    bots = {}
    for _ in range(n):
        side = side_to_act(game.rules, game.state)
        bots.setdefault(side, bot_for(game.rules, side))
        game.play(bots[side](game.state).text())


def test_a_demyansk_game_with_a_variant_saves_it_and_reloads_to_the_same_state(tmp_path):
    game = new_game(CAMPAIGN, 11, ("air-supply-odd-faces",))
    assert game.rules.options["air_supply_faces"] == [1, 3, 5]       # Demyansk 7.2 read as its list
    bots_play(game, 60)
    game.save(tmp_path / "g.toml")
    assert read_toml(tmp_path / "g.toml")["variants"] == ["air-supply-odd-faces"]
    again = load_game(tmp_path / "g.toml")
    assert again.variants == ("air-supply-odd-faces",)
    assert again.rules.options["air_supply_faces"] == [1, 3, 5]
    assert again.hash() == game.hash() and again.actions_text() == game.actions_text()


def test_a_game_without_variants_saves_no_variants_key(tmp_path):
    game = new_game(CAMPAIGN, 11)
    game.save(tmp_path / "g.toml")
    assert "variants" not in read_toml(tmp_path / "g.toml")
    assert load_game(tmp_path / "g.toml").rules.options["air_supply_faces"] == [2, 4, 6]   # Demyansk 7.2 as printed


def test_a_skirmish_with_two_variants_reloads_with_both(tmp_path):
    offer = scenario_offer(PLATOON)
    assert [v.id for v in offer.variants] == ["militia", "player-cards"]
    # either side may be the computer's (the strong or baseline player); the rules play the defenders' guns
    assert [(s.id, s.fixed) for s in offer.sides] == [("attacker", ""), ("defender", "")]
    assert offer.ruleset == "scw"
    game = new_game(PLATOON, 4, ("militia", "player-cards"))
    sc = game.rules.scenario
    assert (sc.attacker_troops, sc.placement) == ("militia", "player")
    assert side_to_act(game.rules, game.state) == "defender"          # the player lays the cards first
    game.save(tmp_path / "s.toml")
    again = load_game(tmp_path / "s.toml")
    assert again.variants == ("militia", "player-cards") and again.hash() == game.hash()
    assert again.rules.scenario.attacker_troops == "militia"


def test_a_saved_variant_the_scenario_no_longer_has_is_named(tmp_path):
    game = new_game(CAMPAIGN, 2, ("air-supply-odd-faces",))
    game.save(tmp_path / "g.toml")
    doc = read_toml(tmp_path / "g.toml")
    doc["variants"] = ["night-drops"]
    write_toml(tmp_path / "g.toml", doc)
    with pytest.raises(BadFile) as e:
        load_game(tmp_path / "g.toml")
    assert "g.toml: variants: there is no variant 'night-drops' (variants: air-supply-odd-faces)" in str(e.value)
    doc["variants"] = "air-supply-odd-faces"
    write_toml(tmp_path / "g.toml", doc)
    with pytest.raises(BadFile) as e:
        load_game(tmp_path / "g.toml")
    assert "variants: expected a list of the scenario's variant names" in str(e.value)
