"""``python -m engine play scenarios/tcs-test.toml --seed N --bot random``: a TCS game played headless.

A TCS scenario is played headless only by the random player of every ruleset
(``engine.players.random``: every side and every chart prompt gets a random
legal answer, from the player's own generator seeded with the game's seed,
never from the game's dice); ``python -m engine play`` runs it for
``--bot random``.  Any other ``--bot`` is refused here.
"""
from __future__ import annotations

from ...errors import BadFile, Problem


def run(args) -> int:
    """The ``play`` command for a TCS scenario with any bot but ``random`` (there is no other TCS bot yet)."""
    raise BadFile([Problem("--bot", "", "headless TCS play needs --bot random (every side, every chart prompt)")])
