"""The random player: every side plays uniformly random legal actions (the invariant test for every ruleset).

It knows nothing of any game: it asks ``rules.legal_actions(state)`` and
plays one of them with ``rules.apply`` (through :class:`engine.game.Game`).
Pending choices (a retreat path, press on or take cover, a printed chart's
result) are among the legal actions, so they are answered the same way.

Its choices come from its own generator, seeded by the game's seed but kept
apart from the game's dice: the same seed gives the same game, and the game's
rolls are the ones the rules make, never the player's.  Only the actions go
into the log, so a replay needs no player at all.
"""
from __future__ import annotations

from ..errors import SandtableError
from ..game import Game, next_die, seed_rng

# Mixed into the seed so the player's generator never walks in step with the game's dice.
PLAYER_SALT = 0x5EED_0F_BA7_7A1E

# A game no ruleset should need: a random game still going after this many actions is reported, not cut off quietly.
MAX_ACTIONS = 200_000


class StuckGame(SandtableError):
    """A game that is not over but offers no legal action, or never ends: a ruleset bug."""


class RandomPlayer:
    """Chooses uniformly among the legal actions, deterministically from its seed."""

    def __init__(self, seed: int):
        self.rng = seed_rng(int(seed) ^ PLAYER_SALT)

    def choose(self, actions: list):
        """One of ``actions``, uniformly (``actions`` in the ruleset's fixed order)."""
        face, self.rng = next_die(self.rng, len(actions))
        return actions[face - 1]


def play_random(game: Game, seed: int | None = None, max_actions: int = MAX_ACTIONS, charts=None) -> int:
    """Play ``game`` to its end with random legal actions for every side; returns the number of actions the
    player chose (``charts``, an ``engine.charts.ChartKeeper``, first answers the prompts the owner's chart holds).

    Raises :class:`StuckGame` when the game offers no legal action before its
    end, or has not ended after ``max_actions`` actions.
    """
    player = RandomPlayer(game.seed if seed is None else seed)
    played = 0
    while True:
        if charts is not None:
            charts.play_known(game)
        if game.is_over():
            break
        actions = game.legal_actions()
        if not actions:
            raise StuckGame(f"the game is not over but offers no legal action after {len(game.log)} actions "
                            f"(last: {game.log[-1].action.text() if game.log else 'none'})")
        if played >= max_actions:
            raise StuckGame(f"the game has not ended after {max_actions} random actions")
        game.play(player.choose(actions))
        played += 1
    return played
