"""Random and baseline-bot games of River Crossing under the classic rules: to the end, invariants kept, and
replaying each log gives the same state hash (200 seeded random games, in four parts for the parallel runner)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Game, load_game, load_rules, replay
from engine.rulesets.classic.bot import ClassicBot, play_out, random_player

ROOT = Path(__file__).resolve().parent.parent
SCEN = str(ROOT / "scenarios" / "classic-river-crossing.toml")
GAMES, PARTS = 200, 4


@pytest.fixture(scope="module")
def rules():
    return load_rules(SCEN)


def check_invariants(rules, st) -> None:
    occ = rules.occupants(st)
    for h, units in occ.items():
        assert len({rules.units[u].side for u in units}) == 1, f"two sides in {rules.map.hex_id(h)}"
        assert rules.stack_room(st, h, ()), f"over the stacking limit in {rules.map.hex_id(h)}"
    for uid, u in st.units.items():
        assert (u.hex is not None) == (u.status == "map")
        assert 0 <= u.steps_lost <= rules.units[uid].steps


@pytest.mark.parametrize("part", range(PARTS))
def test_random_games_end_and_replay_to_the_same_hash(rules, part):
    per = GAMES // PARTS
    for seed in range(part * per, (part + 1) * per):
        game = Game(rules, seed, SCEN)
        player = random_player(rules, seed)
        n = 0
        while not game.is_over():
            game.play(player(game.state))
            n += 1
            if n % 10 == 0:
                check_invariants(rules, game.state)
        assert game.outcome() is not None
        assert replay(rules, seed, game.actions_text(), SCEN).hash() == game.hash(), seed


def test_the_baseline_bots_play_a_whole_game_and_the_save_replays(rules, tmp_path):
    game = Game(rules, 3, SCEN)
    bots = {s: ClassicBot(s) for s in rules.sides}
    play_out(rules, game, bots)
    assert game.is_over()
    fights = [e for entry in game.log for e in entry.events if e.kind == "result"]
    assert fights, "the bots never fought"
    path = tmp_path / "game.toml"
    game.save(path)
    assert load_game(path).hash() == game.hash()


def test_headless_play_with_the_baseline_bot_and_with_random_players():
    for bot in ("blue,red", "random"):
        out = subprocess.run([sys.executable, "-m", "engine", "play", SCEN, "--bot", bot, "--seed", "4", "--json"],
                             capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        assert report["over"] and report["winner"] in ("blue", "red") and report["turns"] == 6
    out = subprocess.run([sys.executable, "-m", "engine", "play", SCEN, "--bot", "blue"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode != 0 and "--bot blue,red (the baseline bot) or --bot random" in (out.stderr + out.stdout)
