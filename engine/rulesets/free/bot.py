"""The computer at a table with no rules: it has nothing to decide, so it never takes a side's turn.

``side_to_act`` is None (no side is waited for: the players move the track on
themselves); ``bot_for`` gives a player that only moves the track on, for
callers that insist on one (headless play does the same).
"""
from __future__ import annotations

from .actions import EndPhase


def side_to_act(st) -> str | None:
    """No side is waited for at a table: the players act in any order."""
    return None


def bot_for(rules, side: str):
    if side not in rules.scenario.sides:
        raise ValueError(f"this scenario has no side {side!r} (sides: {', '.join(rules.scenario.sides)})")
    return lambda st: EndPhase()
