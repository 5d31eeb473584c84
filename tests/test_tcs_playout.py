"""Random TCS games: the random player (a kind of action, then one of that kind, at random) plays every side
and every prompt gets a random legal answer.

Each game must reach its last turn; replaying its log gives the same state hash; a saved game loads back to it.
One game of the test scenario takes about one to two seconds.
"""
from __future__ import annotations

import random

import pytest

from engine.charts import ChartBook, answer_from_book
from engine.game import Game, load_game, replay
from engine.rulesets.tcs import rules_for_path
from engine.players.random import play_random
from tcs_fixtures import SCENARIO, filled_memory

SEEDS = range(6)


@pytest.fixture(scope="module")
def rules():
    return rules_for_path(SCENARIO)


def check_invariants(rules, st) -> None:
    for uid, u in st.units.items():
        assert u.hex is None or u.hex in rules.board
        steps = st.memory.get("tcs.counter.steps", (rules.specs[uid].type,))
        assert steps is None or 0 <= u.steps_lost <= steps
    assert all(v >= 0 for v in st.ammo.values())
    assert all(0 <= m <= rules.options["bn_morale_max"] for m in st.battalions.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_replay_to_the_same_hash_and_survive_save_and_load(rules, seed, tmp_path):
    game = Game(rules, seed, str(SCENARIO))
    play_random(game, seed)
    assert game.is_over() and game.outcome() is not None
    check_invariants(rules, game.state)
    again = replay(rules, seed, game.actions_text(), str(SCENARIO))
    assert again.hash() == game.hash()
    path = tmp_path / "game.toml"
    game.save(path)
    assert load_game(path).hash() == game.hash()


@pytest.mark.parametrize("seed", range(2))
def test_random_games_with_the_owners_chart_read_its_cells_and_never_ask_them(rules, seed, tmp_path):
    """The owner's chart (outside the game) answers the cells it holds; only blank ones get random answers."""
    book = ChartBook(rules.charts, tmp_path / "charts.toml")
    for slot, cells in filled_memory().cells.items():
        for key, v in cells.items():
            book.record(slot, key, v)
    game = Game(rules, seed, str(SCENARIO))
    pick = random.Random(seed)
    from_book = 0
    for _ in range(20000):
        if game.is_over():
            break
        st = game.state
        if st.pending and st.pending[0]["kind"] == "chart":
            a = answer_from_book(st.pending[0]["prompt"], book)
            if a is not None:
                from_book += 1
                game.play(a)
                continue
            a = pick.choice(rules.legal_actions(st))
            book.record(a.slot, a.key, a.value)
            game.play(a)
            continue
        game.play(pick.choice(rules.legal_actions(st)))
    assert game.is_over()
    assert from_book >= 40             # every counter, terrain and spotting cell came from the owner's chart
    asked = {(p.action.slot, p.action.key) for p in game.log if type(p.action).__name__ == "ChartAnswer"}
    assert len(asked) == sum(1 for p in game.log if type(p.action).__name__ == "ChartAnswer")   # each cell once
    assert replay(rules, seed, game.actions_text(), str(SCENARIO)).hash() == game.hash()
