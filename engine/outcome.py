"""The end of a game: a value every layer may import (the game, the victory rules, the players)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner (a side, or ``None`` for a draw) and how it was decided."""

    winner: str | None
    reason: str
    breakdown: dict = field(default_factory=dict)
