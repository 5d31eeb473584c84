"""The computer as a player: the side a game waits for now, and the ruleset's baseline bot for a side."""
from __future__ import annotations

import importlib
from typing import Any, Callable


def side_to_act(rules, state) -> str | None:
    """The side whose decision the game waits for (a pending choice's side first); None when over."""
    if rules.is_over(state):
        return None
    return _bot_module(rules).side_to_act(state)


def bot_for(rules, side: str) -> Callable[[Any], Any]:
    """The ruleset's baseline bot for ``side``: a function from a state to its next legal action."""
    return _bot_module(rules).bot_for(rules, side)


def _bot_module(rules):
    return importlib.import_module(f"engine.rulesets.{rules.name}.bot")
