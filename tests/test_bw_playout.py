"""Random-bot games of Black Wednesday: scenario 1 plays to its last turn and is judged; every scenario's
opening (set-up, reinforcements, the first Command and Artillery phases, prompts answered at random) plays
without a refusal the bot did not expect, and replaying the log gives the same state hash.  Whole games of
the bigger scenarios take seconds each: ``make bench-bw`` plays 50 of each."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game, replay
from engine.rulesets.tcs import rules_for_path
from engine.players.random import StuckGame, play_random

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "scenarios").glob("black-wednesday-*.toml"))


def test_scenario_1_plays_to_its_last_turn_reports_its_level_and_replays_to_the_same_hash():
    path = FILES[0]
    rules = rules_for_path(path)
    game = Game(rules, 1, str(path))
    play_random(game, 1)
    assert game.is_over()
    out = game.outcome()
    assert out.reason in ("Soviet Minor Victory", "Axis Minor Victory") and "trenches" in out.breakdown
    assert rules.turns[game.state.turn].label == "0940 10 Feb"
    assert replay(rules, 1, game.actions_text(), str(path)).hash() == game.hash()


@pytest.mark.parametrize("path", FILES[1:], ids=lambda p: p.stem)
def test_each_scenarios_opening_plays_at_random_and_replays_to_the_same_hash(path):
    rules = rules_for_path(path)
    game = Game(rules, 2, str(path))
    with pytest.raises(StuckGame, match="has not ended after 25 random actions"):
        play_random(game, 2, max_actions=25)
    assert replay(rules, 2, game.actions_text(), str(path)).hash() == game.hash()
