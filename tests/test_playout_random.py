"""The invariant test of every shipped ruleset: seeded random games end, save, reload and replay to the same hash.

Every side is played by the random player (``engine.players.random``): a
random legal action each time (a kind of action, then one of that kind), pending choices included.  A game
that is not over yet offers no legal action is a ruleset bug (``StuckGame``).

The default suite plays ``DEFAULT_GAMES`` per ruleset family; ``make playout``
sets ``PLAYOUT_GAMES=200`` to play 200 per family (see README, developer section,
for the measured times).  A family's games are shared among its scenarios.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.cli import main
from engine.game import Game, load_game, load_rules
from engine.players.random import RandomPlayer, StuckGame, play_random

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"

# family -> (scenario file, share of the family's games)
FAMILIES = {
    "demyansk": (("demyansk-1-trapped.toml", 0.75), ("demyansk-2-campaign.toml", 0.25)),
    "scw": (("scw-platoon-attack.toml", 0.5), ("scw-company-attack.toml", 0.5)),
    "tcs": (("tcs-test.toml", 1.0),),
    "classic": (("classic-river-crossing.toml", 0.9), ("demyansk-1-classic.toml", 0.1)),
    "free": (("free-demo.toml", 1.0),),
    # Black Wednesday's and Leros' games take 0.3-8 s of CPU each (docs/playouts.md): none in the default suite
    # (tests/test_bw_playout.py plays scenario 1 whole and every opening); ``make bench-bw``, ``make
    # bench-leros``, ``make leros-playout`` and ``python -m engine bench playouts`` play them.
    "black-wednesday": tuple((p.name, 1 / 9) for p in sorted(SCENARIOS.glob("black-wednesday-*.toml"))),
    "leros": tuple((p.name, 1 / 9) for p in sorted(SCENARIOS.glob("leros-*.toml"))),
}
# the TCS games of the two books run under their own targets (50 seeds a scenario), not PLAYOUT_GAMES
LONG = {"black-wednesday", "leros"}
# A random Demyansk game takes about 3 s (scenario I) and 5-8 s (scenario II) on one core, a skirmish
# game 0.06 s (platoon) and 0.2 s (company), a TCS test game about 1-2 s, medians: 200 skirmish games
# fit the default suite, 200 Demyansk games (about 12 minutes of one core) run under ``make playout``;
# tests/test_tcs_playout.py plays more TCS games with its own invariants.
DEFAULT_GAMES = {"demyansk": 6, "scw": 200, "tcs": 4, "classic": 10, "free": 2, "black-wednesday": 0, "leros": 0}


def _games(family: str) -> int:
    wanted = os.environ.get("PLAYOUT_LONG_GAMES" if family in LONG else "PLAYOUT_GAMES")
    return int(wanted) if wanted else DEFAULT_GAMES[family]


def _cases():
    for family, parts in FAMILIES.items():
        total = _games(family)
        if total == 0:
            continue
        for name, share in parts:
            games = max(1, round(total * share)) if total else 0     # a family may play no game by default
            for seed in range(1, games + 1):
                yield pytest.param(name, seed, id=f"{name.removesuffix('.toml')}-{seed}")


_RULES: dict[str, object] = {}


def _rules(name: str):
    if name not in _RULES:
        _RULES[name] = load_rules(str(SCENARIOS / name))
    return _RULES[name]


def test_the_families_cover_every_shipped_scenario():
    shipped = sorted(p.name for p in SCENARIOS.glob("*.toml"))
    covered = sorted(name for parts in FAMILIES.values() for name, _ in parts)
    assert covered == shipped


@pytest.mark.parametrize("name,seed", list(_cases()))
def test_a_random_game_ends_saves_reloads_and_replays_to_the_same_hash(name, seed, tmp_path):
    path = str(SCENARIOS / name)
    r = _rules(name)
    game = Game(r, seed, path)
    played = play_random(game)
    assert game.is_over() and game.outcome() is not None and played == len(game.log) > 0
    assert r.legal_actions(game.state) == []
    save = tmp_path / "random.toml"
    game.save(save)
    again = load_game(save, rules_for_scenario=lambda _: r)     # reads the save, replays its log, checks the hash
    assert again.hash() == game.hash() and again.actions_text() == game.actions_text()


def test_the_random_player_is_deterministic_and_apart_from_the_dice():
    actions = list(range(10))
    a, b = RandomPlayer(7), RandomPlayer(7)
    picks = [a.choose(actions) for _ in range(50)]
    assert picks == [b.choose(actions) for _ in range(50)]
    assert len(set(picks)) > 5                                  # it does spread its choices
    assert picks != [RandomPlayer(8).choose(actions) for _ in range(50)]
    from engine.game import seed_rng
    assert a.rng != seed_rng(7)                                  # not the game's dice generator


def test_a_game_with_no_legal_action_before_its_end_is_reported_as_stuck():
    class Stuck:
        name = "stuck"

        def initial_state(self, seed):
            return {"n": 0}

        def legal_actions(self, st):
            return ["step"] if st["n"] < 3 else []

        def apply(self, st, action):
            return {"n": st["n"] + 1}, []

        def parse_action(self, text):
            return text

        def state_to_dict(self, st):
            return dict(st)

        def is_over(self, st):
            return False

        def outcome(self, st):
            return None

    class Step(str):
        def text(self):
            return str(self)

    rules = Stuck()
    rules.legal_actions = lambda st: [Step("step")] if st["n"] < 3 else []
    with pytest.raises(StuckGame) as e:
        play_random(Game(rules, 1))
    assert "no legal action after 3 actions" in str(e.value)


def test_play_bot_random_prints_the_same_game_for_the_same_seed(tmp_path, capsys):
    path = str(SCENARIOS / "scw-platoon-attack.toml")
    save = tmp_path / "g.toml"
    assert main(["play", path, "--seed", "3", "--bot", "random", "--json", "--save", str(save)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["play", path, "--seed", "3", "--bot", "random", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["over"] and first["bot"] == "random" and first["winner"] in ("german", "soviet", "attacker",
                                                                               "defender", None)
    assert first["state_sha256"] == second["state_sha256"] and first["actions"] == second["actions"]
    assert load_game(save).hash() == first["state_sha256"]
