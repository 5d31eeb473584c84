"""The random player: every side plays random legal actions (the invariant test for every ruleset).

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


def action_kind(action) -> str:
    """The kind of an action: its record type, or the first word of its text form (``move``, ``end``)."""
    text = action.text() if hasattr(action, "text") else str(action)
    return f"{type(action).__name__}:{text.split(' ', 1)[0]}"


class RandomPlayer:
    """Chooses a kind of legal action uniformly, then one action of that kind uniformly, from its own seed.

    Choosing the kind first keeps a random game moving on a table where one kind has
    thousands of actions (every counter to every hex of a free table) and ending the
    phase is a single one: every legal action can still be chosen, and every kind
    of decision is taken as often as any other.
    """

    def __init__(self, seed: int):
        self.rng = seed_rng(int(seed) ^ PLAYER_SALT)

    def pick(self, items: list):
        """One of ``items``, uniformly."""
        face, self.rng = next_die(self.rng, len(items))
        return items[face - 1]

    def choose(self, actions: list):
        """One of ``actions`` (in the ruleset's fixed order): a kind uniformly, then an action of it."""
        kinds: dict[str, list] = {}
        for a in actions:
            kinds.setdefault(action_kind(a), []).append(a)
        if len(kinds) == 1:
            return self.pick(actions)
        return self.pick(self.pick(list(kinds.values())))


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
